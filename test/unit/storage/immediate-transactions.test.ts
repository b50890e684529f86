import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../../src/storage/open-database.js';
import { SqliteDatabaseClass } from '../../../src/storage/sqlite-driver.js';

// docs/scaling.md, "Several processes on one host": every transaction on SQLite takes the write
// lock when it begins, so one that reads and then writes never meets SQLITE_BUSY_SNAPSHOT when
// another process committed in between; it waits for the lock under busy_timeout instead.
test('a Kysely transaction on SQLite begins IMMEDIATE: another connection cannot take the write lock while it is open', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'posthorn-immediate-'));
  const { db, close } = openDatabase({ databaseUrl: null, dataDir: dir });
  const other = new SqliteDatabaseClass(join(dir, 'posthorn.sqlite'));
  try {
    other.pragma('busy_timeout = 0');
    await sql`CREATE TABLE t (n INTEGER)`.execute(db);
    await db.transaction().execute(async (trx) => {
      // Only a read so far: a deferred transaction would hold no write lock yet.
      await sql`SELECT count(*) FROM t`.execute(trx);
      assert.throws(() => other.exec('BEGIN IMMEDIATE'), { code: 'SQLITE_BUSY' });
      assert.throws(() => other.exec('INSERT INTO t VALUES (2)'), { code: 'SQLITE_BUSY' });
      await sql`INSERT INTO t VALUES (1)`.execute(trx);
    });
    // Committed: the lock is free again.
    other.exec('INSERT INTO t VALUES (2)');
    const rows = await sql<{ n: number }>`SELECT n FROM t ORDER BY n`.execute(db);
    assert.deepEqual(
      rows.rows.map((r) => r.n),
      [1, 2],
    );
  } finally {
    other.close();
    await close();
    rmSync(dir, { recursive: true, force: true });
  }
});
