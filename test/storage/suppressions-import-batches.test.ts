// An import of several batches on every test database, with batches of 4 rows so that a small file
// takes the path of a large one (on SQLite, the writer thread that stages the rows and merges them
// in address order, src/storage/insert-suppressions.ts): counts, line numbers, the first of a
// repeated address winning, a second import adding nothing, and an upload cut off part-way.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { createAccount } from '../../src/accounts/accounts.js';
import { CLI_ACTOR } from '../../src/core/actor.js';
import { addSuppression } from '../../src/suppression/manage-suppressions.js';
import { ImportInterrupted, importSuppressions } from '../../src/suppression/import-suppressions.js';
import { testDialects } from '../helpers/test-db.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

const BATCH = 4;

const FILE = [
  'address,reason,created_at,domain,message_id',
  'zed@example.com,complaint,2026-01-02T03:04:05.006Z,mail.example.com,msg_01JD3Z8Q4WJ6V2X5K7M9N0P1QR', // line 2
  'amy@example.com,hard_bounce,,,', // 3
  'listed@example.com,complaint,,,', // 4: on the list before the import
  'not-an-address,manual,,,', // 5: invalid
  'bob@example.com,unsubscribed,,,', // 6
  'carl@example.com,,,,', // 7
  'AMY@EXAMPLE.COM,manual,,,', // 8: amy again, in capitals: the row on line 3 wins
  'dora@example.com,bogus,,,', // 9: invalid
  'erin@example.com,manual,,,', // 10
  'fred@example.com,complaint,,,', // 11
  'gail@example.com,manual,,,', // 12
  'zed@example.com,manual,,,', // 13: zed again, a batch later
  'hank@example.com,hard_bounce,,,', // 14
].join('\n');

const body = (text: string) => Readable.from([Buffer.from(text)]);

for (const dialect of testDialects()) {
  describe(`suppression import in several batches (${dialect})`, () => {
    let deps: TestDeps;
    let accountId: string;
    beforeEach(async () => {
      deps = await createTestDeps(dialect);
      accountId = (await createAccount(deps, 'acme')).id;
      await addSuppression(deps, accountId, { address: 'listed@example.com', reason: 'manual' }, CLI_ACTOR);
    });
    afterEach(() => deps.close());

    const stored = () =>
      deps.db
        .selectFrom('suppressions')
        .select(['address', 'reason', 'created_at', 'domain', 'message_id'])
        .where('account_id', '=', accountId)
        .orderBy('address')
        .execute();

    test('every row counted, invalid ones by line, the first of a repeated address kept; again imports 0', async () => {
      const first = await importSuppressions(deps, accountId, { format: 'csv', body: body(FILE) }, CLI_ACTOR, BATCH);
      assert.deepEqual(
        { ...first, invalid: first.invalid.map((p) => [p.line, p.value]) },
        {
          imported: 8,
          already_suppressed: 3,
          invalid_count: 2,
          invalid: [
            [5, 'not-an-address'],
            [9, 'bogus'],
          ],
        },
      );
      const rows = await stored();
      assert.deepEqual(
        rows.map((r) => `${r.address} ${r.reason}`),
        [
          'amy@example.com hard_bounce',
          'bob@example.com unsubscribed',
          'carl@example.com manual',
          'erin@example.com manual',
          'fred@example.com complaint',
          'gail@example.com manual',
          'hank@example.com hard_bounce',
          'listed@example.com manual',
          'zed@example.com complaint',
        ],
      );
      const zed = rows.find((r) => r.address === 'zed@example.com')!;
      assert.deepEqual(
        [Number(zed.created_at), zed.domain, zed.message_id],
        [Date.parse('2026-01-02T03:04:05.006Z'), 'mail.example.com', 'msg_01JD3Z8Q4WJ6V2X5K7M9N0P1QR'],
      );

      const again = await importSuppressions(deps, accountId, { format: 'csv', body: body(FILE) }, CLI_ACTOR, BATCH);
      assert.deepEqual([again.imported, again.already_suppressed, again.invalid_count], [0, 11, 2]);
      assert.equal((await stored()).length, 9);
    });

    test('an upload cut off part-way: the rows handed over before are imported, and the error says how many', async () => {
      const lines = FILE.split('\n');
      // The header and 9 rows (one invalid), then the body fails.
      const cut = new Readable({ read() {} });
      cut.push(`${lines.slice(0, 10).join('\n')}\n`);
      const imported = importSuppressions(deps, accountId, { format: 'csv', body: cut }, CLI_ACTOR, BATCH);
      setImmediate(() => cut.destroy(new Error('the client went away')));
      const err = await imported.then(
        () => assert.fail('the import did not stop'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof ImportInterrupted, String(err));
      const rows = await stored();
      // What the error reports is what the list holds, the entry already listed aside.
      assert.equal(err.result.imported, rows.length - 1);
      assert.equal(err.result.imported + err.result.already_suppressed + err.result.invalid_count <= 9, true);
      assert.match(err.message, /the import stopped after \d+ rows were imported/);
    });
  });
}
