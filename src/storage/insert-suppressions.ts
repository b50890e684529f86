import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, type Kysely } from 'kysely';
import type { Database, SuppressionReason } from './database.js';
import { pgPool, sqliteConnection, sqliteWriter } from './open-database.js';
import { pgStagedWriter } from './pg-suppression-import.js';
import { SQLITE_DRIVER_PATH } from './sqlite-driver.js';

/** A suppression row to insert for one account. */
export interface SuppressionInsert {
  address: string;
  reason: SuppressionReason;
  created_at: number;
  domain: string | null;
  message_id: string | null;
}

const COLUMNS = '(account_id, address, reason, created_at, domain, message_id)';
const CONFLICT = 'ON CONFLICT (account_id, address) DO NOTHING';

// PostgreSQL: one array parameter per column, expanded by unnest: one statement per batch whose
// text and plan do not depend on how many rows it carries, and no parameter limit to split around.
const PG_INSERT = `INSERT INTO suppressions ${COLUMNS} SELECT $1, * FROM unnest($2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[]) ${CONFLICT}`;

// SQLite: one prepared single-row INSERT run once per row inside the batch's transaction (on the
// writer thread when there is one: sqlite-writer.ts, runMany). Measured
// against one prepared 5,000-row VALUES statement (bench:suppressions), it costs about a third less
// CPU per row: SQLite's per-row work is the same, and binding 30,000 parameters at once is not free.
const SQLITE_INSERT = `INSERT INTO suppressions ${COLUMNS} VALUES (?, ?, ?, ?, ?, ?) ${CONFLICT}`;
const sqliteStatements = new WeakMap<BetterSqlite3.Database, BetterSqlite3.Statement>();

/**
 * Inserts `rows` into the account's suppression list in one transaction, leaving every address
 * already listed as it is (`ON CONFLICT DO NOTHING`, also for an address repeated within `rows`),
 * and returns how many rows were added. This is the bulk path of the suppression import, written
 * per dialect rather than built by Kysely value by value, which cost more than running the insert.
 * Rows go in address order, so consecutive inserts touch neighbouring pages of the primary key.
 *
 * On SQLite the batch commits with `synchronous = NORMAL`: the WAL is written but not fsynced at
 * each batch, which was a third of an import's time (a batch of addresses in no order dirties
 * pages all over the key). The batch is durable once a later commit with Posthorn's usual `FULL`
 * syncs the WAL file; the import makes one (its audit entry, import-suppressions.ts) before it
 * answers, so nothing reported as imported can be lost to a power cut.
 */
export async function insertSuppressions(
  db: Kysely<Database>,
  accountId: string,
  rows: readonly SuppressionInsert[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const sorted = [...rows].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  const sqlite = sqliteConnection(db);
  if (sqlite === undefined) {
    const result = await db.executeQuery(
      CompiledQuery.raw(PG_INSERT, [
        accountId,
        sorted.map((r) => r.address),
        sorted.map((r) => r.reason),
        sorted.map((r) => r.created_at),
        sorted.map((r) => r.domain),
        sorted.map((r) => r.message_id),
      ]),
    );
    return Number(result.numAffectedRows ?? 0);
  }
  const writer = sqliteWriter(db);
  if (writer !== undefined)
    return writer.runMany(
      SQLITE_INSERT,
      sorted.map((r) => [accountId, r.address, r.reason, r.created_at, r.domain, r.message_id]),
      true,
    );
  // Kysely's SQLite driver runs everything on this one connection, and lends it to one caller at
  // a time: while it is lent here, the batch runs start to end synchronously (so nothing else can
  // run between the pragma and its reset), in its own transaction.
  return db.connection().execute(async () => {
    let stmt = sqliteStatements.get(sqlite);
    if (stmt === undefined) {
      stmt = sqlite.prepare(SQLITE_INSERT);
      sqliteStatements.set(sqlite, stmt);
    }
    const insert = stmt;
    const usual = sqlite.pragma('synchronous', { simple: true }) as number;
    sqlite.pragma('synchronous = NORMAL');
    try {
      return sqlite
        .transaction(() => {
          let inserted = 0;
          for (const r of sorted)
            inserted += insert.run(accountId, r.address, r.reason, r.created_at, r.domain, r.message_id).changes;
          return inserted;
          // IMMEDIATE, as every write transaction on SQLite (open-database.ts, withStatementCache).
        })
        .immediate();
    } finally {
      sqlite.pragma(`synchronous = ${usual}`);
    }
  });
}

/** What a SuppressionWriter's finish did: rows added, rows looked at (the rest were already listed), and the fault that stopped it. */
export interface WriterResult {
  inserted: number;
  merged: number;
  error: Error | null;
}

/** The rows of one large import, taken a batch at a time and inserted by `finish` (see startSuppressionWriter). */
export interface SuppressionWriter {
  /** Takes a batch; call again only once the previous call has settled. */
  add(rows: readonly SuppressionInsert[]): Promise<void>;
  /** Inserts what was added, if that was not done already, and says how it went. */
  finish(): Promise<WriterResult>;
  close(): Promise<void>;
}

/** Rows per transaction when a staged import is merged into the list (rows in address order: a short one). */
export const MERGE_CHUNK = 50_000;

/**
 * The writer thread's code, run as a CommonJS script (`eval`, as wal-checkpointer.ts does), with
 * its own connection to the database file. It stages the import's rows in a temporary table of its
 * connection (`temp_store = FILE`: a file of its own, not memory, not the WAL, and no lock on the
 * database), sorts them there with SQLite's external sorter, and merges them into the list in
 * address order, MERGE_CHUNK rows per IMMEDIATE transaction. Rows in the same address order as the
 * key are appended page after page: each page of the list is written about once, where batches of
 * addresses in no order rewrote most of its pages at every commit (and the checkpointer copied each
 * rewrite again). Ties are in file order, so of an address repeated in the file the first row wins,
 * as before. The connection commits with `synchronous = NORMAL`: the import's audit entry,
 * committed with `FULL` on the main connection before the import answers, syncs the WAL file.
 */
const WRITER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = ' + workerData.busyTimeout);
db.pragma('wal_autocheckpoint = ' + workerData.autocheckpoint);
db.pragma('synchronous = NORMAL');
db.pragma('temp_store = FILE');
db.exec('CREATE TEMP TABLE import_rows (address TEXT NOT NULL, reason TEXT NOT NULL, created_at INTEGER NOT NULL, domain TEXT, message_id TEXT)');
// Small caches: the rows come and go in order (appended, then merged along the key), and the sort
// spills to temporary files past the cache's size. Measured, 2 MB each used less CPU than 16 MB.
db.pragma('cache_size = -2000');
db.pragma('temp.cache_size = -2000');
const stage = db.prepare('INSERT INTO import_rows VALUES (?, ?, ?, ?, ?)');
const stageBatch = db.transaction((f) => {
  for (let i = 0; i + 5 <= f.length; i += 5) stage.run(f[i], f[i + 1], Number(f[i + 2]), f[i + 3] || null, f[i + 4] || null);
  return (f.length - 1) / 5;
});
function finish() {
  let inserted = 0;
  let merged = 0;
  try {
    db.exec('CREATE TEMP TABLE import_sorted (n INTEGER PRIMARY KEY, address TEXT NOT NULL, reason TEXT NOT NULL, created_at INTEGER NOT NULL, domain TEXT, message_id TEXT)');
    // Rows get n = 1, 2, ... in the order the SELECT gives them.
    db.exec('INSERT INTO import_sorted (address, reason, created_at, domain, message_id) SELECT address, reason, created_at, domain, message_id FROM import_rows ORDER BY address, rowid');
    db.exec('DROP TABLE import_rows');
    const total = db.prepare('SELECT count(*) FROM import_sorted').pluck().get();
    const merge = db.prepare(workerData.mergeSql);
    const chunk = db.transaction((from) => merge.run(workerData.accountId, from, from + workerData.chunk).changes);
    for (let from = 0; from < total; from += workerData.chunk) {
      inserted += chunk.immediate(from);
      merged += Math.min(workerData.chunk, total - from);
    }
    return { inserted, merged, error: null };
  } catch (err) {
    return { inserted, merged, error: String((err && err.message) || err) };
  }
}
parentPort.on('message', (m) => {
  if (m === 'close') {
    db.close();
    parentPort.close();
  } else if (m === 'finish') {
    parentPort.postMessage(finish());
  } else {
    try {
      parentPort.postMessage({ staged: stageBatch(m.rows.split('\\0')) });
    } catch (err) {
      parentPort.postMessage({ error: String((err && err.message) || err) });
    }
  }
});
`;

const MERGE_SQL = `INSERT INTO suppressions ${COLUMNS} SELECT ?, address, reason, created_at, domain, message_id FROM import_sorted WHERE n > ? AND n <= ? ORDER BY n ${CONFLICT}`;

/**
 * A writer for an import of more than one batch. On SQLite (a file), a worker thread with its own
 * connection (WRITER_SOURCE): the next batch is read, parsed and checked on the main thread while
 * the thread stages the previous one, the event loop is never held by the import's SQLite work,
 * and the list is written in address order at the end. In bench:suppressions (1,000,000 rows in
 * no order) the server's CPU time per imported row fell by more than half, most of it SQLite's.
 * On PostgreSQL the rows are staged with COPY and merged in address order over two connections
 * at the end (pg-suppression-import.ts, pgStagedWriter). In an in-memory SQLite database (tests)
 * each batch is inserted by insertSuppressions as it comes.
 */
export function startSuppressionWriter(db: Kysely<Database>, accountId: string): SuppressionWriter {
  const sqlite = sqliteConnection(db);
  if (sqlite === undefined) {
    const pool = pgPool(db);
    if (pool !== undefined) return pgStagedWriter(pool, accountId);
  }
  if (sqlite === undefined || sqlite.memory) return batchWriter(db, accountId);
  const worker = new Worker(WRITER_SOURCE, {
    eval: true,
    workerData: {
      driver: SQLITE_DRIVER_PATH,
      file: sqlite.name,
      accountId,
      mergeSql: MERGE_SQL,
      chunk: MERGE_CHUNK,
      busyTimeout: sqlite.pragma('busy_timeout', { simple: true }) as number,
      // As the main connection: off when the background checkpointer does them (wal-checkpointer.ts).
      autocheckpoint: sqlite.pragma('wal_autocheckpoint', { simple: true }) as number,
    },
  });
  type Answer = { staged: number } | { error: string } | { inserted: number; merged: number; error: string | null };
  let waiting: { resolve(a: Answer): void; reject(err: Error): void } | null = null;
  let failed: Error | null = null;
  const fail = (err: Error): void => {
    failed ??= err;
    waiting?.reject(err);
    waiting = null;
  };
  worker.on('message', (m: Answer) => {
    const w = waiting;
    waiting = null;
    w?.resolve(m);
  });
  worker.on('error', fail);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.once('exit', () => fail(new Error('the suppression import writer thread ended')));
  const ask = (message: unknown): Promise<Answer> =>
    failed !== null
      ? Promise.reject(failed)
      : new Promise<Answer>((resolve, reject) => {
          waiting = { resolve, reject };
          worker.postMessage(message);
        });
  return {
    async add(rows) {
      if (rows.length === 0) return;
      // One string, five fields a row each ended by NUL: one copy to the thread, where an array or
      // an object per row is copied value by value. No field holds a NUL: an address and a domain
      // have passed normalizeDomain (WHATWG domainToASCII refuses C0 controls), the other values
      // are a reason, a number and a message id (suppression-rows.ts, checkRow). null is empty.
      let text = '';
      for (const r of rows)
        text += `${r.address}\0${r.reason}\0${r.created_at}\0${r.domain ?? ''}\0${r.message_id ?? ''}\0`;
      const answer = await ask({ rows: text });
      if ('error' in answer && answer.error !== null) throw new Error(answer.error);
    },
    async finish() {
      try {
        const a = (await ask('finish')) as { inserted: number; merged: number; error: string | null };
        return { inserted: a.inserted, merged: a.merged, error: a.error === null ? null : new Error(a.error) };
      } catch (err) {
        return { inserted: 0, merged: 0, error: err as Error };
      }
    },
    async close() {
      if (failed === null) worker.postMessage('close');
      else await worker.terminate();
      await exited;
    },
  };
}

/** A SuppressionWriter that inserts each batch as it is added (insertSuppressions). */
function batchWriter(db: Kysely<Database>, accountId: string): SuppressionWriter {
  const done: WriterResult = { inserted: 0, merged: 0, error: null };
  return {
    async add(rows) {
      done.inserted += await insertSuppressions(db, accountId, rows);
      done.merged += rows.length;
    },
    finish: async () => done,
    close: async () => {},
  };
}

/**
 * After a bulk import on PostgreSQL, refreshes the planner's statistics of the suppressions table
 * (ANALYZE samples a fixed number of rows, so this is quick whatever the size). Until autovacuum
 * gets to it, the planner would still think the list as short as before the import, and page the
 * export and the listing by sorting every row past the cursor instead of walking the primary key.
 * SQLite's planner uses the key without statistics: nothing to do there.
 */
export async function refreshSuppressionStats(db: Kysely<Database>): Promise<void> {
  if (sqliteConnection(db) !== undefined) return;
  await db.executeQuery(CompiledQuery.raw('ANALYZE suppressions'));
}
