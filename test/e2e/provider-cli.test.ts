// `posthorn provider list` and `provider show` as real child processes, on every test database:
// the configured providers with the shaping state the delivery engine stored (docs/delivery.md).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCliDb, type CliDb } from '../helpers/cli-db.js';
import type { CliResult } from '../helpers/run-cli.js';
import { testDialects } from '../helpers/test-db.js';

function ok(r: CliResult): void {
  assert.equal(r.code, 0, `exit ${r.code}; stderr: ${r.stderr}`);
}

const SINCE = Date.UTC(2026, 10, 20, 8);
const UNTIL = Date.UTC(2100, 0, 1); // in force whenever the test runs
const BLOCK = '550 5.7.1 Service unavailable; client host [192.0.2.1] blocked using zen.spamhaus.org';
const THROTTLE = '421 4.7.0 Try again later, closing connection.';

interface View {
  provider: string;
  per_minute: number | null;
  rate: number | null;
  throttled: boolean;
  throttle_events: number;
  last_reply: string | null;
  suspended: boolean;
  suspensions: { node: string; until: string; reply: string }[];
}

for (const dialect of testDialects()) {
  describe(`posthorn provider (${dialect})`, () => {
    let db: CliDb;
    const cli = (...args: string[]): Promise<CliResult> => db.cli(...args);

    before(async () => {
      db = await createCliDb(dialect);
      await db.db
        .insertInto('provider_throttles')
        .values({
          provider: 'yahoo',
          rate: 150,
          decreased_at: SINCE,
          increased_at: 0,
          throttle_events: 3,
          last_throttle_at: SINCE,
          last_reply: THROTTLE,
          updated_at: SINCE,
        })
        .execute();
      await db.db
        .insertInto('provider_suspensions')
        .values([
          { provider: 'gmail', node: 'mx1.posthorn.test', since: SINCE, until: UNTIL, reply: BLOCK },
          {
            provider: 'outlook',
            node: 'mx1.posthorn.test',
            since: SINCE - 7_200_000,
            until: SINCE - 3_600_000,
            reply: BLOCK,
          },
        ])
        .execute();
    });
    after(() => db.close());

    test('list --json: every provider with its limits, pace and the suspensions in force', async () => {
      const r = await cli('provider', 'list', '--json');
      ok(r);
      const { providers } = JSON.parse(r.stdout) as { providers: View[] };
      assert.deepEqual(
        providers.map((p) => [p.provider, p.per_minute, p.rate, p.throttled, p.suspended]),
        [
          ['gmail', 1200, 1200, false, true],
          ['outlook', 600, 600, false, false], // its suspension has ended
          ['yahoo', 600, 150, true, false],
          ['apple', 600, 600, false, false],
          ['other', null, null, false, false],
        ],
      );
    });

    test('show: one provider in full; text and --json', async () => {
      const json = await cli('provider', 'show', 'GMAIL', '--json');
      ok(json);
      const gmail = JSON.parse(json.stdout) as View;
      assert.deepEqual(gmail.suspensions, [
        {
          node: 'mx1.posthorn.test',
          since: new Date(SINCE).toISOString(),
          until: new Date(UNTIL).toISOString(),
          reply: BLOCK,
        },
      ]);
      const yahoo = await cli('provider', 'show', 'yahoo');
      ok(yahoo);
      assert.match(yahoo.stdout, /^yahoo .* 150\/600 per minute .*throttled \(3 throttling replies\)/);
      assert.match(yahoo.stdout, /last throttling reply \(2026-11-20T08:00:00.000Z\): 421 4\.7\.0 Try again later/);
    });

    test('show of an unknown provider is refused in one line naming the providers', async () => {
      const r = await cli('provider', 'show', 'hotmale');
      assert.notEqual(r.code, 0);
      assert.equal(r.stdout, '');
      assert.match(
        r.stderr.trim(),
        /^[^\n]*no provider named "hotmale": the providers are gmail, outlook, yahoo, apple, other/,
      );
    });

    test('POSTHORN_PROVIDERS is what the list shows; a bad value is refused naming the variable', async () => {
      const r = await db.cli('provider', 'show', 'corp', '--json');
      assert.notEqual(r.code, 0);
      const { runCli } = await import('../helpers/run-cli.js');
      const env = { ...db.env, POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: 'mail.posthorn.test' };
      const corp = await runCli(['provider', 'show', 'corp', '--json'], {
        ...env,
        POSTHORN_PROVIDERS: '{"corp": {"suffixes": ["mx.corp.example"], "per_minute": 30}}',
      });
      ok(corp);
      assert.deepEqual((({ provider, per_minute }) => ({ provider, per_minute }))(JSON.parse(corp.stdout) as View), {
        provider: 'corp',
        per_minute: 30,
      });
      const bad = await runCli(['provider', 'list'], { ...env, POSTHORN_PROVIDERS: 'corp' });
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /POSTHORN_PROVIDERS.*expected name=suffix,suffix/);
    });
  });
}
