// `posthorn domain delete` and `posthorn key revoke` as real child processes, on each test
// database: the same feature functions as DELETE /v1/domains/{domain} and DELETE …/api-key, audited
// with the CLI as actor, alongside the older commands that now audit too.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/load.js';
import { systemClock } from '../../src/core/clock.js';
import { authenticate } from '../../src/credentials/authenticate.js';
import { authenticateSmtp } from '../../src/credentials/smtp-credentials.js';
import { createCliDb, type CliDb } from '../helpers/cli-db.js';
import type { CliResult } from '../helpers/run-cli.js';
import { testDialects } from '../helpers/test-db.js';

function assertJsonSuccess(r: CliResult): void {
  assert.equal(r.code, 0, `exit ${r.code}; stderr: ${r.stderr}`);
  assert.equal(r.stderr, '');
}

/** The configuration the CLI children run with (production mode). */
const production = loadConfig({ POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: 'mail.posthorn.test' });

for (const dialect of testDialects()) {
  describe(`posthorn domain delete and key revoke (${dialect})`, () => {
    let db: CliDb;
    const cli = (...args: string[]): Promise<CliResult> => db.cli(...args);
    const deps = () => ({ db: db.db, config: production, clock: systemClock });

    before(async () => {
      db = await createCliDb(dialect);
      assertJsonSuccess(await cli('account', 'create', 'acme', '--json'));
    });
    after(() => db.close());

    test('key revoke: the key is refused at once; a second revoke is refused; key create makes a new one', async () => {
      assertJsonSuccess(await cli('domain', 'add', 'keys.example.test', '--account', 'acme', '--json'));
      const made = await cli('key', 'create', 'keys.example.test', '--json');
      assertJsonSuccess(made);
      assert.ok(await authenticate(deps(), `Bearer ${made.json.key}`));
      const revoked = await cli('key', 'revoke', 'keys.example.test', '--json');
      assertJsonSuccess(revoked);
      assert.deepEqual(revoked.json, {
        domain: 'keys.example.test',
        prefix: made.json.key.slice(0, 11),
        revoked: true,
      });
      assert.equal(await authenticate(deps(), `Bearer ${made.json.key}`), null);
      const again = await cli('key', 'revoke', 'keys.example.test');
      assert.equal(again.code, 1);
      assert.match(again.stderr, /keys\.example\.test has no API key/);
      assertJsonSuccess(await cli('key', 'create', 'keys.example.test', '--json'));
    });

    test('domain delete: its key and SMTP logins stop at once, the domain is gone, and its name may be added again', async () => {
      assertJsonSuccess(await cli('domain', 'add', 'gone.example.test', '--account', 'acme', '--json'));
      const key = await cli('key', 'create', 'gone.example.test', '--json');
      const login = await cli('smtp-credential', 'create', 'gone.example.test', '--json');
      assert.ok(await authenticateSmtp(deps(), login.json.username, login.json.password));

      const deleted = await cli('domain', 'delete', 'gone.example.test', '--json');
      assertJsonSuccess(deleted);
      assert.deepEqual(deleted.json, {
        domain: 'gone.example.test',
        api_keys_revoked: 1,
        smtp_logins_revoked: 1,
        webhook_removed: false,
      });
      assert.equal(await authenticate(deps(), `Bearer ${key.json.key}`), null);
      assert.equal(await authenticateSmtp(deps(), login.json.username, login.json.password), null);
      const shown = await cli('domain', 'show', 'gone.example.test');
      assert.equal(shown.code, 1);
      assert.match(shown.stderr, /no domain named "gone\.example\.test"/);
      const twice = await cli('domain', 'delete', 'gone.example.test');
      assert.equal(twice.code, 1);
      assert.match(twice.stderr, /no domain named/);

      const readded = await cli('domain', 'add', 'gone.example.test', '--account', 'acme', '--json');
      assertJsonSuccess(readded);
      assert.equal(readded.json.status, 'pending');
      const text = await cli('domain', 'delete', 'gone.example.test');
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /deleted gone\.example\.test: its API key, 0 SMTP logins stopped working now/);
    });

    test('every change the commands made is in the audit log, with the CLI as actor', async () => {
      const rows = await db.db
        .selectFrom('audit_log')
        .select(['actor', 'action', 'target', 'ip'])
        .orderBy('at')
        .orderBy('id')
        .execute();
      assert.ok(rows.every((r) => r.actor === 'cli' && r.ip === null));
      assert.deepEqual(
        rows.map((r) => r.action),
        [
          'domain.add',
          'api_key.create',
          'api_key.revoke',
          'api_key.create',
          'domain.add',
          'api_key.create',
          'smtp_credential.create',
          'domain.delete',
          'domain.add',
          'domain.delete',
        ],
      );
      assert.ok(
        rows.every((r) => !/ph_[0-9a-f]{8}_|phs_/.test(r.target)),
        'no secret in a target',
      );
    });
  });
}
