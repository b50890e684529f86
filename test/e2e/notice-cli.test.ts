// `posthorn notice list` as a real child process, on every test database: notices recorded by the
// scheduler, the complaint-rate check and the webhook dispatcher are where an operator reads them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createIds } from '../../src/core/ids.js';
import { recordNotice } from '../../src/notices/record-notice.js';
import { createCliDb, type CliDb } from '../helpers/cli-db.js';
import type { CliResult } from '../helpers/run-cli.js';
import { testDialects } from '../helpers/test-db.js';

function ok(r: CliResult): void {
  assert.equal(r.code, 0, `exit ${r.code}; stderr: ${r.stderr}`);
}

for (const dialect of testDialects()) {
  describe(`posthorn notice list (${dialect})`, () => {
    let db: CliDb;
    const cli = (...args: string[]): Promise<CliResult> => db.cli(...args);

    before(async () => {
      db = await createCliDb(dialect);
      ok(await cli('account', 'create', 'acme'));
      ok(await cli('account', 'create', 'other'));
      ok(await cli('domain', 'add', 'acme.test', '--account', 'acme'));
      ok(await cli('domain', 'add', 'shop.acme.test', '--account', 'acme'));
      const ids = createIds();
      const domains = await db.db.selectFrom('domains').select(['id', 'name', 'account_id']).execute();
      const of = (name: string) => domains.find((d) => d.name === name)!;
      const t0 = Date.UTC(2026, 10, 20, 8);
      await recordNotice(db.db, ids, t0, {
        accountId: of('acme.test').account_id,
        domainId: of('acme.test').id,
        kind: 'domain.warning',
        message: 'SPF of acme.test stopped matching',
        details: { spf: { ok: false } },
      });
      await recordNotice(db.db, ids, t0 + 60_000, {
        accountId: of('shop.acme.test').account_id,
        domainId: of('shop.acme.test').id,
        kind: 'webhook.disabled',
        message: 'webhook of shop.acme.test disabled: 410 Gone',
        details: { status: 410 },
      });
    });
    after(() => db.close());

    test('newest first, with the domain and details; --domain narrows it; another account sees none', async () => {
      const all = await cli('notice', 'list', '--account', 'acme', '--json');
      ok(all);
      const { notices } = JSON.parse(all.stdout) as {
        notices: { kind: string; domain: string; details: unknown; created_at: string }[];
      };
      assert.deepEqual(
        notices.map((n) => [n.kind, n.domain, n.created_at]),
        [
          ['webhook.disabled', 'shop.acme.test', '2026-11-20T08:01:00.000Z'],
          ['domain.warning', 'acme.test', '2026-11-20T08:00:00.000Z'],
        ],
      );
      assert.deepEqual(notices[1]!.details, { spf: { ok: false } });
      const one = await cli('notice', 'list', '--account', 'acme', '--domain', 'ACME.test');
      ok(one);
      assert.match(one.stdout, /domain\.warning\s+acme\.test\s+SPF of acme\.test stopped matching/);
      assert.doesNotMatch(one.stdout, /webhook\.disabled/);
      const none = await cli('notice', 'list', '--account', 'other');
      ok(none);
      assert.match(none.stdout, /no notices for account other/);
    });

    test('refusals name what is wrong', async () => {
      const missing = await cli('notice', 'list');
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /notice list needs --account NAME/);
      const unknown = await cli('notice', 'list', '--account', 'nobody');
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /no account named "nobody"/);
    });
  });
}
