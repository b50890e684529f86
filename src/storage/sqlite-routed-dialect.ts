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
    private readonly local: SqliteDatabase,
    private readonly writer: SqliteWriter,
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
    const stmt = this.localStatement(sql);
    if (stmt !== null) {
      // Read-only: here, now.
      return { rows: stmt.all(parameters) as R[] };
    }
    await this.driver.writer.lock.lock();
    try {
      return toQueryResult<R>(await this.driver.writer.run(sql, parameters));
    } finally {
      this.driver.writer.lock.unlock();
    }
  }

  // eslint-disable-next-line require-yield -- streaming is refused, as it is by no caller
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on SQLite with a writer thread');
  }

  /** The main connection's prepared statement for `sql` when it only reads, else null. */
  private localStatement(sql: string): SqliteStatement | null {
    if (TRANSACTION_CONTROL.test(sql) || PRAGMA.test(sql)) return null;
    let stmt: SqliteStatement & { readonly?: boolean };
    try {
      stmt = this.driver.local.prepare(sql);
    } catch {
      // Something the main connection cannot prepare (a table only the writer's connection knows
      // yet): the writer gives the answer, or the error.
      return null;
    }
    return stmt.readonly === true && stmt.reader ? stmt : null;
  }
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
