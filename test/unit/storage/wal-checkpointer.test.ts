import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { SqliteDatabaseClass } from '../../../src/storage/sqlite-driver.js';
import { startWalCheckpointer } from '../../../src/storage/wal-checkpointer.js';

/** Resolves once `check` is true, polling; fails after `timeoutMs`. */
async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function walDatabase(): { sqlite: BetterSqlite3.Database; file: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'posthorn-wal-'));
  const file = join(dir, 'db.sqlite');
  const sqlite = new SqliteDatabaseClass(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB)');
  return { sqlite, file, dir };
}

test('commits leave checkpoints to the worker thread, which copies the WAL into the database file', async () => {
  const { sqlite, file, dir } = walDatabase();
  const checkpointer = startWalCheckpointer(
    (t) => sqlite.pragma(t),
    () => sqlite.open,
    file,
  );
  try {
    assert.equal(sqlite.pragma('wal_autocheckpoint', { simple: true }), 0, 'no checkpoint inside a commit');
    const before = statSync(file).size;
    const blob = Buffer.alloc(9 * 1024 * 1024, 0x61);
    sqlite.prepare('INSERT INTO t (b) VALUES (?)').run(blob);
    // 9 MiB is ~2300 pages: SQLite's automatic checkpoint would have run inside that commit.
    await until(() => {
      const seen = checkpointer.lastSeen();
      return seen !== null && seen.log > 2000 && seen.checkpointed === seen.log;
    });
    assert.ok(statSync(file).size >= before + blob.length, 'the pages reached the database file');
    const row = sqlite.prepare('SELECT b FROM t').get() as { b: Buffer };
    assert.ok(row.b.equals(blob));
  } finally {
    await checkpointer.stop();
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('when the worker cannot run, the connection gets its automatic checkpoints back', async () => {
  const { sqlite, dir } = walDatabase();
  // The worker's own connection fails to open: there is no such directory.
  const checkpointer = startWalCheckpointer(
    (t) => sqlite.pragma(t),
    () => sqlite.open,
    join(dir, 'missing', 'db.sqlite'),
  );
  try {
    await until(() => sqlite.pragma('wal_autocheckpoint', { simple: true }) === 1000);
  } finally {
    await checkpointer.stop();
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
