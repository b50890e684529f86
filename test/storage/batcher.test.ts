import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createBatcher } from '../../src/storage/batcher.js';
import { createTestDb, testDialects, type TestDb } from '../helpers/test-db.js';

/**
 * The batcher as the send pipeline and the delivery recorder use it: a flush is one database
 * transaction for the whole batch. Written against the `settings` table (a key and a value) so the
 * test needs no other rows.
 */
for (const dialect of testDialects()) {
  describe(`batcher over a real transaction (${dialect})`, () => {
    let db: TestDb;
    beforeEach(async () => {
      db = await createTestDb(dialect);
    });
    afterEach(() => db.close());

    function settingsBatcher(maxBatch: number, batches: number[]) {
      return createBatcher<{ key: string; value: string }, string>(
        async (items) => {
          batches.push(items.length);
          await db.db.transaction().execute(async (trx) => {
            for (const item of items) await trx.insertInto('settings').values(item).execute();
          });
          return items.map((i) => i.key);
        },
        { maxBatch, concurrency: 1 },
      );
    }

    const count = async (prefix: string) =>
      Number(
        (
          await db.db
            .selectFrom('settings')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('key', 'like', `${prefix}%`)
            .executeTakeFirstOrThrow()
        ).n,
      );

    test('concurrent submits are committed in few transactions, every row stored and every caller answered', async () => {
      const batches: number[] = [];
      const b = settingsBatcher(64, batches);
      const keys = await Promise.all(
        Array.from({ length: 200 }, (_, i) => b.submit({ key: `k${i}`, value: String(i) })),
      );
      assert.deepEqual(
        keys,
        Array.from({ length: 200 }, (_, i) => `k${i}`),
      );
      assert.equal(await count('k'), 200);
      assert.deepEqual(batches, [64, 64, 64, 8], 'one transaction per batch of at most 64');
    });

    test('a batch whose transaction fails rolls back as a whole and rejects each of its callers; the next batch commits', async () => {
      const batches: number[] = [];
      const b = settingsBatcher(10, batches);
      await b.submit({ key: 'dup', value: 'first' });
      // The third item breaks the primary key: the whole batch is one transaction, so none of it stays.
      const bad = await Promise.allSettled([
        b.submit({ key: 'a1', value: '1' }),
        b.submit({ key: 'a2', value: '2' }),
        b.submit({ key: 'dup', value: 'again' }),
        b.submit({ key: 'a3', value: '3' }),
      ]);
      assert.deepEqual(
        bad.map((r) => r.status),
        ['rejected', 'rejected', 'rejected', 'rejected'],
      );
      const reasons = new Set(bad.map((r) => (r as PromiseRejectedResult).reason));
      assert.equal(reasons.size, 1, 'every caller of the batch gets the one error of its flush');
      assert.equal(await count('a'), 0, 'nothing of the failed batch was committed');
      assert.equal(await b.submit({ key: 'b1', value: '1' }), 'b1');
      assert.equal(await count('b'), 1);
      await b.drain();
      const dup = await db.db.selectFrom('settings').select('value').where('key', '=', 'dup').executeTakeFirstOrThrow();
      assert.equal(dup.value, 'first');
    });
  });
}
