import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { createRequire } from 'node:module';
import type pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import type { Database } from './database.js';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-data-dir.js';
import { SqliteDatabaseClass } from './sqlite-driver.js';
import { startWalCheckpointer } from './wal-checkpointer.js';
import { startSqliteWriter, type SqliteWriter } from './sqlite-writer.js';
import { DeferredSqliteDialect, RoutedSqliteDialect } from './sqlite-routed-dialect.js';

export type DialectName = 'sqlite' | 'postgres';

/** How long a SQLite write waits for another connection's (a CLI command's, another process's) lock. */
const BUSY_TIMEOUT_MS = 10_000;

// The better-sqlite3 connection behind each SQLite Kysely instance, for the one bulk path that
// runs prepared statements on it directly (insert-suppressions.ts).
const sqliteHandles = new WeakMap<Kysely<Database>, BetterSqlite3.Database>();

/**
 * The better-sqlite3 connection under `db`, or undefined for PostgreSQL. Kysely's SQLite driver
 * runs every query on this one connection, so a statement run on it inside a Kysely transaction
 * belongs to that transaction.
 */
export function sqliteConnection(db: Kysely<Database>): BetterSqlite3.Database | undefined {
  return sqliteHandles.get(db);
}

// The writer thread behind a SQLite Kysely instance opened with `writerThread` (sqlite-writer.ts).
const sqliteWriters = new WeakMap<Kysely<Database>, SqliteWriter>();

/**
 * The thread that runs the writes of `db`, or undefined when they run on `sqliteConnection(db)`
 * (PostgreSQL, or SQLite opened without `writerThread`). With a writer, the main connection only
 * reads (`query_only`): a write run on it directly fails instead of racing the writer for the lock.
 */
export function sqliteWriter(db: Kysely<Database>): SqliteWriter | undefined {
  return sqliteWriters.get(db);
}

// The deferred-transaction Kysely beside each writer-thread one (sqliteDeferred).
const deferredDbs = new WeakMap<Kysely<Database>, Kysely<Database>>();

/**
 * With a writer thread, a Kysely on the same connections whose transactions go to the writer
 * whole at their commit (sqlite-routed-dialect.ts, DeferredSqliteDialect says what that costs
 * the caller); undefined otherwise.
 */
export function sqliteDeferred(db: Kysely<Database>): Kysely<Database> | undefined {
  return deferredDbs.get(db);
}

// The pg pool behind each PostgreSQL Kysely instance, for the send path's statements that run on it
// directly as named prepared statements (send/pg-send-path.ts says why).
const pgPools = new WeakMap<Kysely<Database>, pg.Pool>();

/** The pg pool under `db`, or undefined for SQLite. */
export function pgPool(db: Kysely<Database>): pg.Pool | undefined {
  return pgPools.get(db);
}

/** An open database and which dialect it speaks. */
export interface OpenDatabase {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
  /** PostgreSQL: the pool's connections now (docs/observability.md); absent on SQLite's single connection. */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
}

let pgModule: typeof pg | undefined;

/**
 * The pg driver, loaded on first use: a CLI call on SQLite never pays for loading it (about a tenth
 * of a second of a `posthorn` call's start; docs/deploy.md, "Installing"). pg is CommonJS, so
 * require() loads it synchronously.
 */
function loadPg(): typeof pg {
  if (pgModule === undefined) {
    pgModule = createRequire(import.meta.url)('pg') as typeof pg;
    // BIGINT (int8, oid 20) arrives as a string by default; our BIGINTs are epoch ms and counters,
    // far inside Number's exact range, so read them as numbers on both dialects.
    pgModule.types.setTypeParser(20, (v) => Number(v));
  }
  return pgModule;
}

/**
 * Opens the SQLite file (WAL, synchronous=FULL: a commit survives power loss) or a PostgreSQL pool.
 * This module and the dialect-specific SQL in queue/ and rate limiting are the only places that
 * know which database is behind Kysely (CONTRIBUTING.md, Conventions: both databases, one schema).
 */
export function openDatabase(opts: {
  databaseUrl: string | null;
  dataDir: string;
  sqliteFile?: string;
  pgSchema?: string;
  poolSize?: number;
  /** SQLite: checkpoint the WAL on a worker thread, not inside commits (wal-checkpointer.ts); for the server. */
  backgroundCheckpoints?: boolean;
  /**
   * SQLite: run every write on a thread of its own, reads on this thread (sqlite-routed-dialect.ts);
   * for the server and the tests, whose event loop must not wait for a commit.
   */
  writerThread?: boolean;
}): OpenDatabase {
  if (opts.databaseUrl) {
    const pool = new (loadPg().Pool)({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      ...(opts.pgSchema ? { options: `-c search_path=${opts.pgSchema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    pgPools.set(db, pool);
    return {
      db,
      dialect: 'postgres',
      close: () => db.destroy(),
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max: pool.options.max,
      }),
    };
  }
  mkdirSync(opts.dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const file = opts.sqliteFile ?? join(opts.dataDir, 'posthorn.sqlite');
  createPrivately(file);
  const sqlite = new SqliteDatabaseClass(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  // The CLI may write while a server runs on the same file: wait, don't fail.
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  sqlite.pragma('foreign_keys = ON');
  const writer = opts.writerThread ? startSqliteWriter(file, { busyTimeoutMs: BUSY_TIMEOUT_MS }) : null;
  if (writer !== null) sqlite.pragma('query_only = ON');
  // With a writer thread the pragmas go to both connections: the writer's commits are the ones
  // that checkpoint, and a reader of the main connection's settings (insert-suppressions.ts) sees the same.
  const setPragma = (text: string): void => {
    sqlite.pragma(text);
    // Sent in order with the writes, so it applies before the next one; the thread ending is
    // reported by the statements that follow.
    writer?.pragma(text).catch(() => undefined);
  };
  const checkpointer = opts.backgroundCheckpoints ? startWalCheckpointer(setPragma, () => sqlite.open, file) : null;
  const cached = withStatementCache(sqlite);
  const db = new Kysely<Database>({
    dialect: writer !== null ? new RoutedSqliteDialect(cached, writer) : new SqliteDialect({ database: cached }),
  });
  sqliteHandles.set(db, sqlite);
  if (writer !== null) {
    sqliteWriters.set(db, writer);
    deferredDbs.set(db, new Kysely<Database>({ dialect: new DeferredSqliteDialect(cached, writer) }));
  }
  return {
    db,
    dialect: 'sqlite',
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/**
 * Creates the SQLite file 0600 before SQLite does (SQLite would make it 0644 less the umask): the
 * file holds DKIM keys and webhook secrets. SQLite gives the -wal and -shm files it makes later
 * the main file's permissions (its unix VFS copies them), so they are private too.
 */
function createPrivately(file: string): void {
  let fd: number;
  try {
    // 'wx': only when missing, so an existing file's mode is left to securePrivateDataDir.
    fd = openSync(file, 'wx', PRIVATE_FILE_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw err;
  }
  closeSync(fd);
  chmodSync(file, PRIVATE_FILE_MODE); // openSync's mode passes through the umask; set it exactly
}

/**
 * Kysely's SQLite driver prepares every statement it runs; preparing costs more than running a
 * small INSERT, so prepared statements are kept in a bounded LRU keyed by their SQL text.
 */
function withStatementCache(sqlite: BetterSqlite3.Database, size = 1000): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare(text: string) {
      // Kysely begins every transaction with a plain `begin` (deferred). Deferred, a transaction
      // that reads and then writes gets SQLITE_BUSY_SNAPSHOT at once, not a wait under
      // busy_timeout, when another connection committed in between: another process on the file
      // (serve --processes 2, a CLI command; docs/scaling.md). IMMEDIATE takes the write lock at
      // the start, waiting for it under busy_timeout, so every transaction sees the last commit.
      const sql = text === 'begin' ? 'begin immediate' : text;
      let stmt = cache.get(sql);
      if (stmt) {
        cache.delete(sql);
      } else {
        stmt = sqlite.prepare(sql);
        if (cache.size >= size) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, stmt);
      return stmt as unknown as ReturnType<SqliteDatabase['prepare']>;
    },
  };
}
