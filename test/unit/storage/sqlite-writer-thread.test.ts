import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { openDatabase, sqliteConnection, sqliteDeferred, sqliteWriter } from '../../../src/storage/open-database.js';
import { isUniqueViolation } from '../../../src/storage/unique-violation.js';
import { startSqliteWriter } from '../../../src/storage/sqlite-writer.js';

// docs/architecture.md, "SQLite: a writer thread": with `writerThread`, writes and transactions run
// on a thread of their own and reads on the main connection.

interface T {
  t: { id: number; name: string; b: Buffer | null };
}

async function withWriterDb(body: (db: Kysely<T>, dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'posthorn-writer-'));
  const open = openDatabase({ databaseUrl: null, dataDir: dir, writerThread: true });
  try {
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, b BLOB)`.execute(open.db);
    await body(open.db as unknown as Kysely<T>, dir);
  } finally {
    await open.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('a write runs on the writer thread: the event loop turns while a 9 MiB row commits, and a read after it sees it', async () => {
  await withWriterDb(async (db) => {
    const blob = Buffer.alloc(9 * 1024 * 1024, 0x62);
    let turned = false;
    const write = db.insertInto('t').values({ id: 1, name: 'big', b: blob }).execute();
    setImmediate(() => {
      turned = true;
    });
    const [result] = await write;
    assert.equal(result?.numInsertedOrUpdatedRows, 1n);
    assert.equal(turned, true, 'the main thread was free while the row was written');
    const row = await db.selectFrom('t').select(['b']).where('id', '=', 1).executeTakeFirstOrThrow();
    assert.ok(Buffer.isBuffer(row.b), 'a BLOB reads back as a Buffer');
    assert.ok((row.b as Buffer).equals(blob));
  });
});

test('large values cross to the writer intact and the caller keeps its own: a string of every plane, parts of one buffer in one transaction', async () => {
  await withWriterDb(async (db) => {
    const text = 'ascii, é, 漢字, 🎉 '.repeat(200_000);
    const whole = Buffer.alloc(3 * 1024 * 1024);
    for (let i = 0; i < whole.length; i++) whole[i] = (i * 7) % 256;
    const writer = sqliteWriter(db as never);
    assert.ok(writer);
    await db.insertInto('t').values({ id: 1, name: text, b: null }).execute();
    const parts = [0, 1, 2].map((k) => whole.subarray(k * 1024 * 1024, (k + 1) * 1024 * 1024));
    await writer.transaction(
      parts.map((b, k) => ['INSERT INTO t (id, name, b) VALUES (?, ?, ?)', [10 + k, `p${k}`, b]]),
    );
    assert.equal(whole.length, 3 * 1024 * 1024, "the caller's buffer is not detached");
    const row = await db.selectFrom('t').select('name').where('id', '=', 1).executeTakeFirstOrThrow();
    assert.equal(row.name, text);
    const back = await db.selectFrom('t').select('b').where('id', '>=', 10).orderBy('id').execute();
    assert.ok(Buffer.concat(back.map((r) => r.b as Buffer)).equals(whole));
  });
});

test('a read outside a transaction does not wait for an open one, and does not see its writes before the commit', async () => {
  await withWriterDb(async (db) => {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ id: 1, name: 'a', b: null }).execute();
      // Kysely's single-connection SQLite driver would queue this behind the transaction: a deadlock here.
      const outside = await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(db);
      assert.equal(outside.rows[0]?.n, 0);
      // The transaction's own reads run on the writer and see its writes.
      const inside = await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(trx);
      assert.equal(inside.rows[0]?.n, 1);
    });
    const after = await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(db);
    assert.equal(after.rows[0]?.n, 1);
  });
});

test('a failed transaction rolls back on the writer and lets the next one run; errors keep their SQLite code', async () => {
  await withWriterDb(async (db) => {
    await db.insertInto('t').values({ id: 1, name: 'taken', b: null }).execute();
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ id: 2, name: 'fresh', b: null }).execute();
        await trx.insertInto('t').values({ id: 3, name: 'taken', b: null }).execute();
      }),
      (err: unknown) => isUniqueViolation(err) && /UNIQUE constraint failed: t\.name/.test((err as Error).message),
    );
    const names = await db.selectFrom('t').select('name').orderBy('id').execute();
    assert.deepEqual(
      names.map((r) => r.name),
      ['taken'],
    );
    // Concurrent lone writes and transactions take turns; none is lost.
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) =>
        db
          .insertInto('t')
          .values({ id: 10 + i, name: `lone${i}`, b: null })
          .execute(),
      ),
      ...Array.from({ length: 5 }, (_, i) =>
        db.transaction().execute(async (trx) => {
          await trx
            .insertInto('t')
            .values({ id: 100 + i, name: `tx${i}`, b: null })
            .execute();
          await trx
            .updateTable('t')
            .set({ name: `tx${i}-done` })
            .where('id', '=', 100 + i)
            .execute();
        }),
      ),
    ]);
    const count = await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(db);
    assert.equal(count.rows[0]?.n, 26);
  });
});

test('a deferred transaction reaches the writer whole at its commit: all or nothing, reads see only what was committed before', async () => {
  await withWriterDb(async (db) => {
    const deferred = sqliteDeferred(db as never) as unknown as Kysely<T>;
    assert.ok(deferred);
    await deferred.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ id: 1, name: 'one', b: null }).execute();
      await trx.insertInto('t').values({ id: 2, name: 'two', b: null }).execute();
      // Not yet written: the statements wait for the commit.
      const seen = await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(trx);
      assert.equal(seen.rows[0]?.n, 0);
    });
    const after = await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(db);
    assert.equal(after.rows[0]?.n, 2);
    // One statement fails at the commit: none of the transaction's rows stay.
    await assert.rejects(
      deferred.transaction().execute(async (trx) => {
        await trx.insertInto('t').values({ id: 3, name: 'three', b: null }).execute();
        await trx.insertInto('t').values({ id: 4, name: 'one', b: null }).execute();
      }),
      (err: unknown) => isUniqueViolation(err),
    );
    const names = await db.selectFrom('t').select('name').orderBy('id').execute();
    assert.deepEqual(
      names.map((r) => r.name),
      ['one', 'two'],
    );
    // A write whose rows it would need back cannot be deferred.
    await assert.rejects(
      deferred
        .transaction()
        .execute((trx) => trx.insertInto('t').values({ id: 5, name: 'five', b: null }).returning('id').execute()),
      /cannot return rows/,
    );
  });
});

test('the main connection only reads: a write run on it directly is refused', async () => {
  await withWriterDb(async (db) => {
    const local = sqliteConnection(db as never);
    assert.ok(local);
    assert.ok(sqliteWriter(db as never));
    assert.throws(() => local.prepare("INSERT INTO t (id, name) VALUES (9, 'x')").run(), /readonly|query_only/i);
    // Pragmas go to the writer's connection.
    const fk = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db);
    assert.equal(fk.rows[0]?.foreign_keys, 1);
  });
});

test('without writerThread (the CLI) everything runs on the one connection', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'posthorn-writer-'));
  const open = openDatabase({ databaseUrl: null, dataDir: dir });
  try {
    assert.equal(sqliteWriter(open.db), undefined);
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY)`.execute(open.db);
    await sql`INSERT INTO t VALUES (1)`.execute(open.db);
    const rows = await sql<{ id: number }>`SELECT id FROM t`.execute(open.db);
    assert.deepEqual(rows.rows, [{ id: 1 }]);
  } finally {
    await open.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a writer thread that ends on its own reports it, and every write after fails naming it; a closed one reports nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'posthorn-writer-'));
  try {
    // Its connection cannot open: there is no such directory.
    const broken = startSqliteWriter(join(dir, 'missing', 'db.sqlite'), { busyTimeoutMs: 0 });
    const err = await broken.failed;
    assert.match(err.message, /unable to open|directory|SQLITE_CANTOPEN/i);
    await assert.rejects(broken.run('SELECT 1', []), (e: unknown) => e === err);
    const fine = startSqliteWriter(join(dir, 'db.sqlite'), { busyTimeoutMs: 0 });
    const result = await fine.run('CREATE TABLE t (n INTEGER)', []);
    assert.equal(result.rows, undefined);
    let reported = false;
    void fine.failed.then(() => {
      reported = true;
    });
    await fine.close();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(reported, false);
    await assert.rejects(fine.run('SELECT 1', []), /closed/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
