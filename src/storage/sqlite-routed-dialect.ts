import {
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import type { SqliteWriter, WriterResult } from './sqlite-writer.js';

/**
 * Kysely on SQLite with the writes on a thread of their own (sqlite-writer.ts) and the reads on the
 * main thread's connection (docs/architecture.md, "SQLite: a writer thread"):
 *
 * - a statement SQLite calls read-only (`sqlite3_stmt_readonly`, better-sqlite3's `readonly`)
 *   outside a transaction runs here at once, on the main connection: in WAL mode it reads the last
 *   commit and waits for no writer, so `/healthz` or a page of events never queue behind a 9 MiB
 *   commit;
 * - every other statement, every pragma and every statement of a transaction runs on the writer,
 *   one transaction or lone write at a time (the writer's lock, sqlite-writer.ts; Kysely's own
 *   SQLite driver holds a lock like it for every query on its single connection).
 *
 * A write's promise resolves after its commit, so a read started after it sees it, as before.
 */
export class RoutedSqliteDialect implements Dialect {
  constructor(
    protected readonly local: SqliteDatabase,
    protected readonly writer: SqliteWriter,
  ) {}

  createDriver(): Driver {
    return new RoutedSqliteDriver(this.local, this.writer);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }
  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

const TRANSACTION_CONTROL = /^\s*(begin|commit|end|rollback|savepoint|release)\b/i;
const PRAGMA = /^\s*pragma\b/i;

class RoutedSqliteDriver implements Driver {
  constructor(
    readonly local: SqliteDatabase,
    readonly writer: SqliteWriter,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new RoutedConnection(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as RoutedConnection;
    await this.writer.lock.lock();
    c.holdsLock = true;
    // IMMEDIATE takes SQLite's write lock at once (open-database.ts, withStatementCache, says why).
    await this.writer.run('begin immediate', []);
    c.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.end(connection as RoutedConnection, 'commit');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.end(connection as RoutedConnection, 'rollback');
  }

  private async end(c: RoutedConnection, statement: 'commit' | 'rollback'): Promise<void> {
    try {
      await this.writer.run(statement, []);
    } finally {
      c.inTransaction = false;
      c.release();
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    // A transaction whose begin failed is never committed nor rolled back by Kysely.
    (connection as RoutedConnection).release();
  }

  async destroy(): Promise<void> {
    await this.writer.close();
    this.local.close();
  }
}

class RoutedConnection implements DatabaseConnection {
  inTransaction = false;
  holdsLock = false;

  constructor(private readonly driver: RoutedSqliteDriver) {}

  release(): void {
    if (this.holdsLock) {
      this.holdsLock = false;
      this.driver.writer.lock.unlock();
    }
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = compiled;
    if (this.inTransaction) return toQueryResult<R>(await this.driver.writer.run(sql, parameters));
    const stmt = prepareLocally(this.driver.local, sql);
    if (stmt !== null && isRead(stmt)) return { rows: stmt.all(parameters) as R[] }; // here, now
    return toQueryResult<R>(await this.driver.writer.runAlone(sql, parameters));
  }

  streamQuery = refuseStreaming;
}

// eslint-disable-next-line require-yield -- streaming is refused, as it is by no caller
async function* refuseStreaming<R>(): AsyncIterableIterator<QueryResult<R>> {
  throw new Error('streaming queries are not supported on SQLite with a writer thread');
}

type LocalStatement = SqliteStatement & { readonly?: boolean };

/**
 * `sql` prepared on the main connection, to learn what it does; null for transaction control and
 * pragmas (the writer's), and for what the main connection cannot prepare (a table only the
 * writer's connection knows yet): the writer then gives the answer, or the error.
 */
function prepareLocally(local: SqliteDatabase, sql: string): LocalStatement | null {
  if (TRANSACTION_CONTROL.test(sql) || PRAGMA.test(sql)) return null;
  try {
    return local.prepare(sql);
  } catch {
    return null;
  }
}

/** A statement that only reads and returns rows: it may run on the main connection. */
function isRead(stmt: LocalStatement): boolean {
  return stmt.readonly === true && stmt.reader;
}

function toQueryResult<R>(result: WriterResult): QueryResult<R> {
  if (result.rows !== undefined) return { rows: result.rows.map(asBuffers) as R[] };
  return {
    numAffectedRows: BigInt(result.changes),
    insertId: BigInt(result.lastInsertRowid),
    rows: [],
  };
}

/** A BLOB comes back from the thread as a plain Uint8Array: the callers expect a Buffer (as on the main connection). */
function asBuffers(row: Record<string, unknown>): Record<string, unknown> {
  for (const key in row) {
    const v = row[key];
    if (v instanceof Uint8Array && !Buffer.isBuffer(v)) row[key] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  }
  return row;
}

/**
 * A dialect for transactions sent to the writer whole: the statements of a transaction are kept
 * as they are issued and run in one message to the writer at its commit (SqliteWriter.transaction),
 * so SQLite's write lock is held only while the thread runs them, not across a round trip per
 * statement, each of which waits for a turn of a busy event loop. What that costs the caller: a
 * write's result is not known inside the transaction (its promise resolves with nothing counted,
 * and a write that returns rows is refused), and a read inside it runs at once on the main
 * connection, so it does not see the transaction's own writes. For transactions that only read
 * what they do not write and act on no count: the send path's group commit (send/persist-messages.ts)
 * and the delivery outcomes (delivery/delivery-worker.ts).
 */
export class DeferredSqliteDialect extends RoutedSqliteDialect {
  override createDriver(): Driver {
    const reads = this.local;
    const writer = this.writer;
    return {
      init: async () => undefined,
      acquireConnection: async () => new DeferredConnection(reads, writer),
      beginTransaction: async (c) => {
        (c as DeferredConnection).kept = [];
      },
      commitTransaction: async (c) => {
        const kept = (c as DeferredConnection).kept;
        (c as DeferredConnection).kept = null;
        if (kept !== null && kept.length > 0) await writer.transaction(kept);
      },
      rollbackTransaction: async (c) => {
        (c as DeferredConnection).kept = null;
      },
      releaseConnection: async () => undefined,
      // The connections are the routed dialect's: its driver closes them.
      destroy: async () => undefined,
    };
  }
}

class DeferredConnection implements DatabaseConnection {
  /** The statements of the open transaction, or null outside one. */
  kept: [string, readonly unknown[]][] | null = null;

  constructor(
    private readonly reads: SqliteDatabase,
    private readonly writer: SqliteWriter,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = compiled;
    const stmt = prepareLocally(this.reads, sql);
    if (stmt !== null && isRead(stmt)) return { rows: stmt.all(parameters) as R[] };
    if (this.kept === null) {
      await this.writer.transaction([[sql, parameters]]);
      return { rows: [] };
    }
    // A write that returns rows (RETURNING) would need its answer now.
    if (stmt?.reader === true) throw new Error('a deferred SQLite transaction cannot return rows from a write');
    this.kept.push([sql, parameters]);
    return { rows: [] };
  }

  streamQuery = refuseStreaming;
}
