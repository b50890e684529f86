import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { compileOnce } from '../../src/storage/compile-once.js';
import { insertChunked } from '../../src/storage/insert-chunked.js';
import { createTestDb, testDialects, type TestDb } from '../helpers/test-db.js';

/**
 * Queries compiled once and run again with new values (src/storage/compile-once.ts) give what
 * Kysely gives when it compiles them each time, on both databases. Written against the `settings`
 * table (a key and a value) so the test needs no other rows.
 */
for (const dialect of testDialects()) {
  describe(`queries compiled once (${dialect})`, () => {
    let db: TestDb;
    beforeEach(async () => {
      db = await createTestDb(dialect);
    });
    afterEach(() => db.close());

    const byKeys = compileOnce((d, [pattern, keys]: [string, string[]], variant) =>
      d
        .selectFrom('settings')
        .select(['key', 'value'])
        .where('key', 'in', keys)
        .$if(variant === 'prefixed', (q) => q.where('value', 'like', pattern))
        .orderBy('key'),
    );

    test('each run binds its own values, lists of any length and variants included', async () => {
      await insertChunked(db.db, 'settings', [
        { key: 'a', value: 'x1' },
        { key: 'b', value: 'y2' },
        { key: 'c', value: 'x3' },
      ]);
      const keys = async (prefix: string, list: string[], variant?: string) =>
        (await byKeys(db.db, [`${prefix}%`, list], variant)).rows.map((r) => r.key);
      assert.deepEqual(await keys('', ['a', 'b']), ['a', 'b']);
      assert.deepEqual(await keys('', ['c', 'b']), ['b', 'c']);
      assert.deepEqual(await keys('', ['a', 'b', 'c']), ['a', 'b', 'c']);
      assert.deepEqual(await keys('', ['c']), ['c']);
      assert.deepEqual(await keys('x', ['a', 'b', 'c'], 'prefixed'), ['a', 'c']);
      assert.deepEqual(await keys('y', ['a', 'b', 'c'], 'prefixed'), ['b']);
      assert.deepEqual(await keys('y', ['a', 'b', 'c']), ['a', 'b', 'c']);
    });

    test('a run inside a transaction belongs to it', async () => {
      await db.db
        .transaction()
        .execute(async (trx) => {
          await insertChunked(trx, 'settings', [{ key: 'gone', value: 'x' }]);
          assert.equal((await byKeys(trx, ['', ['gone']])).rows.length, 1);
          throw new Error('roll back');
        })
        .catch(() => undefined);
      assert.equal((await byKeys(db.db, ['', ['gone']])).rows.length, 0);
    });

    test('insertChunked writes rows of the same columns, and rows of other shapes, as given', async () => {
      await insertChunked(db.db, 'settings', [
        { key: 'k1', value: 'v1' },
        { value: 'v2', key: 'k2' },
      ]);
      // An expression among the values: Kysely compiles that insert itself.
      await insertChunked(db.db, 'settings', [
        { key: 'k3', value: 'v3' },
        { key: 'k4', value: sql<string>`'v' || '4'` as unknown as string },
      ]);
      const rows = await db.db
        .selectFrom('settings')
        .select(['key', 'value'])
        .where('key', 'like', 'k%')
        .orderBy('key')
        .execute();
      assert.deepEqual(rows, [
        { key: 'k1', value: 'v1' },
        { key: 'k2', value: 'v2' },
        { key: 'k3', value: 'v3' },
        { key: 'k4', value: 'v4' },
      ]);
    });
  });
}
