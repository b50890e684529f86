import { Worker } from 'node:worker_threads';
import { SQLITE_DRIVER_PATH } from './sqlite-driver.js';

/**
 * The writer thread's code, run as a CommonJS script (`eval`, as the WAL checkpointer's): a second
 * connection to the file that runs every statement that writes, one message at a time in the order
 * they were sent. better-sqlite3 is synchronous, so on the main thread a commit holds the event
 * loop for as long as SQLite takes to write and sync it: tens of milliseconds for a 9 MiB message,
 * with every HTTP request, SMTP session and `/healthz` waiting (docs/architecture.md, "SQLite: a
 * writer thread"). Here the main thread only posts the statement and goes on.
 *
 * Written here rather than taken from a package: what it needs is a split that the packages for
 * Kysely on a worker (which move every query, reads included, to the thread) do not make, the
 * driver chosen by Node version (sqlite-driver.ts), transactions begun IMMEDIATE, and a bulk insert
 * of many rows in one message (insert-suppressions.ts).
 *
 * Messages in: [id, 'q', sql, params] runs one statement; [id, 'many', sql, rows, syncNormal] runs
 * one statement per row in one IMMEDIATE transaction; [id, 'tx', [[sql, params], ...]] runs those
 * statements in one IMMEDIATE transaction; [id, 'pragma', text]; 'close'.
 * Answers: [id, 0, result] or [id, 1, {name, message, code}].
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = ' + workerData.busyTimeout);
db.pragma('foreign_keys = ON');
const cache = new Map();
function prepare(sql) {
  let stmt = cache.get(sql);
  if (stmt) cache.delete(sql);
  else {
    stmt = db.prepare(sql);
    if (cache.size >= 1000) cache.delete(cache.keys().next().value);
  }
  cache.set(sql, stmt);
  return stmt;
}
// A Buffer arrives as a plain Uint8Array (structured clone); bind it as a Buffer, without a copy.
// A large string arrives as {utf8} (sendable): decoded here, off the main thread.
function bindable(params) {
  for (let i = 0; i < params.length; i++) {
    const p = params[i];
    if (p instanceof Uint8Array && !Buffer.isBuffer(p)) params[i] = Buffer.from(p.buffer, p.byteOffset, p.byteLength);
    else if (p !== null && typeof p === 'object' && p.utf8 instanceof Uint8Array)
      params[i] = Buffer.from(p.utf8.buffer, p.utf8.byteOffset, p.utf8.byteLength).toString('utf8');
  }
  return params;
}
function run(m) {
  switch (m[1]) {
    case 'q': {
      const stmt = prepare(m[2]);
      const params = bindable(m[3]);
      if (stmt.reader) return { rows: stmt.all(params) };
      const r = stmt.run(params);
      return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
    }
    case 'many': {
      const stmt = prepare(m[2]);
      const usual = db.pragma('synchronous', { simple: true });
      if (m[4]) db.pragma('synchronous = NORMAL');
      try {
        return db.transaction(() => {
          let changes = 0;
          for (const row of m[3]) changes += stmt.run(bindable(row)).changes;
          return changes;
        }).immediate();
      } finally {
        if (m[4]) db.pragma('synchronous = ' + usual);
      }
    }
    case 'tx':
      return db.transaction(() => m[2].map(([sql, params]) => {
        const stmt = prepare(sql);
        return stmt.reader ? stmt.all(bindable(params)).length : stmt.run(bindable(params)).changes;
      })).immediate();
    case 'pragma':
      return db.pragma(m[2]);
  }
  throw new Error('unknown writer message ' + m[1]);
}
parentPort.on('message', (m) => {
  if (m === 'close') {
    cache.clear();
    db.close();
    parentPort.close();
    return;
  }
  let answer;
  try {
    answer = [m[0], 0, run(m)];
  } catch (err) {
    answer = [m[0], 1, { name: err && err.name, message: String(err && err.message), code: err && err.code }];
  }
  parentPort.postMessage(answer);
});
`;

/** What a statement run on the writer gave: its rows when it returns any, else what it changed. */
export type WriterResult =
  { rows: Record<string, unknown>[] } | { changes: number; lastInsertRowid: number | bigint; rows?: undefined };

/** One writer at a time on the thread's connection: a transaction from its begin to its end, or one lone write. */
export class WriterLock {
  #held = false;
  readonly #waiting: (() => void)[] = [];

  async lock(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  unlock(): void {
    const next = this.#waiting.shift();
    if (next)
      next(); // handed on: still held
    else this.#held = false;
  }
}

/** The thread that runs a SQLite file's writes for this process (see WORKER_SOURCE). */
export interface SqliteWriter {
  /**
   * Taken by whoever sends statements that must not interleave with others': `run`'s callers (the
   * Kysely driver's transactions, sqlite-routed-dialect.ts) take it themselves; `runAlone`,
   * `runMany` and `transaction` take it.
   */
  readonly lock: WriterLock;
  /** Runs one statement; rejects with the SQLite error (its `code` kept) when it fails. The caller holds `lock`. */
  run(sql: string, params: readonly unknown[]): Promise<WriterResult>;
  /** `run` of a lone statement, taking `lock` for it. */
  runAlone(sql: string, params: readonly unknown[]): Promise<WriterResult>;
  /**
   * Runs the statements in one IMMEDIATE transaction in one message to the thread, so the write
   * lock is held only while the thread runs them, not for a round trip per statement; resolves to
   * each statement's rows read or changed. `handOver`: buffers the caller gives up, moved to the
   * thread as they are rather than copied (they read as empty here afterwards).
   */
  transaction(
    statements: readonly (readonly [string, readonly unknown[]])[],
    opts?: { handOver?: readonly ArrayBuffer[] },
  ): Promise<number[]>;
  /**
   * Runs `sql` once per element of `rows`, all in one IMMEDIATE transaction; resolves to the rows
   * changed. `syncNormal`: commit without syncing the WAL (insert-suppressions.ts says when that is safe).
   */
  runMany(sql: string, rows: readonly (readonly unknown[])[], syncNormal: boolean): Promise<number>;
  /** Runs a pragma on the writer's connection (its answer, as better-sqlite3's `pragma`). */
  pragma(text: string): Promise<unknown>;
  /** Closes the connection and ends the thread, after the statements already sent. */
  close(): Promise<void>;
  /**
   * Resolves with the fault if the thread ends without being closed: from then on every write
   * fails, so the server stops rather than run without storage (main.ts).
   */
  readonly failed: Promise<Error>;
}

/** From this size a parameter is handed to the thread as bytes moved to it, not cloned. */
const MOVE_BYTES = 1024 * 1024;

/** A large string parameter, sent as its UTF-8 bytes: the thread decodes it (WORKER_SOURCE, `bindable`). */
interface Utf8Param {
  utf8: Uint8Array;
}

/**
 * The parameters as they are best posted; `moved` collects what is transferred. Structured clone
 * writes a large value into a buffer that grows as it goes, so a 9 MiB message cost tens of
 * milliseconds of the event loop to clone (mostly faults on fresh memory: docs/security.md,
 * "Connections and memory"). So a large string goes as its UTF-8 bytes and a large view as a copy
 * of its bytes, each in a buffer of its own that is moved, not cloned; views of one buffer (the
 * 1 MiB parts of a sandbox message, sandbox-transport.ts) share one copy. A small view of a large
 * buffer is copied alone (clone would copy the whole buffer); other values go as they are. The
 * caller's values are never detached, but for the buffers it hands over (`transaction`).
 */
function sendable(
  params: readonly unknown[],
  copies: Map<ArrayBufferLike, ArrayBuffer>,
  moved: ArrayBuffer[],
): unknown[] {
  return params.map((p) => {
    if (typeof p === 'string') {
      if (p.length < MOVE_BYTES / 4) return p; // a quarter: up to 4 bytes of UTF-8 a character
      // A Buffer this large has an ArrayBuffer of its own (Node pools only small ones): moved as it is.
      const bytes = Buffer.from(p, 'utf8');
      const own =
        bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : Uint8Array.from(bytes);
      moved.push(own.buffer as ArrayBuffer);
      return { utf8: own } satisfies Utf8Param;
    }
    if (!ArrayBuffer.isView(p)) return p;
    const whole = p.buffer;
    if (whole.byteLength < MOVE_BYTES) {
      return whole.byteLength > p.byteLength + 64 * 1024
        ? new Uint8Array(whole, p.byteOffset, p.byteLength).slice()
        : p;
    }
    let copy = copies.get(whole);
    if (copy === undefined) {
      copy = whole.slice(0) as ArrayBuffer;
      copies.set(whole, copy);
      moved.push(copy);
    }
    return new Uint8Array(copy, p.byteOffset, p.byteLength);
  });
}

interface Pending {
  resolve(value: unknown): void;
  reject(err: Error): void;
}

/** Starts the writer thread for `file` (already created, in WAL mode). */
export function startSqliteWriter(file: string, opts: { busyTimeoutMs: number }): SqliteWriter {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver: SQLITE_DRIVER_PATH, file, busyTimeout: opts.busyTimeoutMs },
  });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let ended: Error | null = null;
  let closing: Promise<void> | null = null;
  // Unreferenced while idle, so it never holds the process open by itself; referenced while a
  // statement is out, so the process waits for its answer.
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  let reportFailure: (err: Error) => void = () => undefined;
  const failed = new Promise<Error>((resolve) => {
    reportFailure = resolve;
  });
  const fail = (err: Error): void => {
    if (ended === null && closing === null) reportFailure(err);
    ended ??= err;
    for (const p of pending.values()) p.reject(ended);
    pending.clear();
  };
  worker.on('error', fail);
  worker.once('exit', () => fail(new Error('the SQLite writer thread ended')));
  worker.on('message', ([id, refused, value]: [number, 0 | 1, unknown]) => {
    const p = pending.get(id);
    if (p === undefined) return;
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    if (refused === 0) return p.resolve(value);
    const e = value as { name?: string; message: string; code?: string };
    p.reject(Object.assign(new Error(e.message), e.name ? { name: e.name } : {}, e.code ? { code: e.code } : {}));
  });
  const ask = <T>(message: unknown[], moved: ArrayBuffer[] = []): Promise<T> => {
    if (closing !== null) return Promise.reject(new Error('the SQLite writer is closed'));
    if (ended !== null) return Promise.reject(ended);
    const id = nextId++;
    message[0] = id;
    return new Promise<T>((resolve, reject) => {
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage(message, moved);
    });
  };
  const lock = new WriterLock();
  const locked = async <T>(work: () => Promise<T>): Promise<T> => {
    await lock.lock();
    try {
      return await work();
    } finally {
      lock.unlock();
    }
  };
  const run = (sql: string, params: readonly unknown[]): Promise<WriterResult> => {
    const moved: ArrayBuffer[] = [];
    return ask<WriterResult>([0, 'q', sql, sendable(params, new Map(), moved)], moved);
  };
  return {
    failed,
    lock,
    run,
    runAlone: (sql, params) => locked(() => run(sql, params)),
    transaction: (statements, opts) =>
      locked(() => {
        const copies = new Map<ArrayBufferLike, ArrayBuffer>();
        for (const b of opts?.handOver ?? []) copies.set(b, b);
        const moved: ArrayBuffer[] = [...(opts?.handOver ?? [])];
        const list = statements.map(([sql, params]) => [sql, sendable(params, copies, moved)]);
        return ask<number[]>([0, 'tx', list], moved);
      }),
    runMany: (sql, rows, syncNormal) => locked(() => ask<number>([0, 'many', sql, rows, syncNormal])),
    pragma: (text) => ask<unknown>([0, 'pragma', text]),
    close() {
      if (closing !== null) return closing;
      if (ended !== null) return (closing = exited);
      worker.ref();
      worker.postMessage('close');
      closing = exited;
      return closing;
    },
  };
}
