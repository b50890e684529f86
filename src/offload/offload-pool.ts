/**
 * Large messages off the event loop. Parsing a 9 MiB send body costs ~70 ms of JSON.parse, and
 * rendering it for delivery ~0.6 s per MiB of HTML (html-to-text) plus quoted-printable encoding:
 * done on the main thread, that stalls the API, the relay, tracking links and webhooks together.
 * Bodies over OFFLOAD_MIN_BYTES are parsed (src/send/offload.ts) and rendered
 * (src/delivery/render-stored.ts) in a small piscina pool instead; smaller ones stay inline, where
 * a thread hop would cost more than the work. ByteGate bounds how many bytes of large messages are
 * being processed at once, so memory stays bounded under a burst.
 *
 * The pool knows no feature: a task names the module and the exported function that runs it, so
 * the send pipeline and the delivery engine share one pool (and its thread limit) without either
 * importing the other, and this folder imports neither (docs/architecture.md, Layers).
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { workerExecArgv } from './worker-exec-argv.js';

/** Bodies and stored messages above this go to the pool (html-to-text alone takes ~15 ms for 64 KiB). */
export const OFFLOAD_MIN_BYTES = 64 * 1024;
/** Tasks waiting for a thread at most; the gates keep the real figure far below. */
const MAX_QUEUED_TASKS = 1024;
/** An idle thread exits after this; the pool starts threads again on demand. */
const IDLE_TIMEOUT_MS = 30_000;
const ENTRY = new URL('./offload-worker-entry.js', import.meta.url);

/** Raised when the pool's queue is full: the caller answers 503 (or retries the delivery later). */
export class OffloadBusyError extends Error {}

/**
 * One unit of work: `fn`, a function exported by the module at `module` (a file URL, from
 * `new URL('./file.js', import.meta.url)`), called with `input`. Input and result cross the thread
 * boundary by structured clone, so a Buffer arrives as a Uint8Array.
 */
export interface OffloadTask {
  module: string;
  fn: string;
  input: unknown;
}

/** Runs tasks on worker threads (or inline with 0 threads). */
export interface OffloadPool {
  /** Buffers in `transfer` are moved to the worker thread, not copied: they read as empty afterwards. */
  run(task: OffloadTask, transfer?: ArrayBuffer[]): Promise<unknown>;
  /** Tasks the worker threads have finished (0 inline): how tests see that work went off the main thread. */
  offThread(): number;
  close(): Promise<void>;
}

/** The task's function, from its module (loaded once; later imports come from the module cache). */
export async function taskFunction(task: OffloadTask): Promise<(input: unknown) => unknown> {
  const mod = (await import(task.module)) as Record<string, unknown>;
  const fn = mod[task.fn];
  if (typeof fn !== 'function') throw new Error(`offload task ${task.fn} is not exported by ${task.module}`);
  return fn as (input: unknown) => unknown;
}

const TRANSFERRING = Symbol.for('posthorn.offload.transferring');

/** A task's result whose `buffers` (parts of `value`) are moved back to the calling thread, not copied. */
export interface Transferring {
  [TRANSFERRING]: true;
  value: object;
  buffers: ArrayBuffer[];
}

/**
 * What a task returns for `value` to cross back with `buffers` moved rather than copied: each must
 * be an ArrayBuffer the task owns whole (not a slice of Buffer's shared pool) and does not keep.
 * The caller of `run` gets `value`. (A task returning a bare Uint8Array has it moved already.)
 */
export function transferring(value: object, buffers: ArrayBuffer[]): Transferring {
  return { [TRANSFERRING]: true, value, buffers };
}

export function isTransferring(result: unknown): result is Transferring {
  return typeof result === 'object' && result !== null && TRANSFERRING in result;
}

function inlineOffloadPool(): OffloadPool {
  return {
    async run(task) {
      const result = await (await taskFunction(task))(task.input);
      return isTransferring(result) ? result.value : result;
    },
    offThread: () => 0,
    async close() {},
  };
}

/** Old-generation heap of each offload thread, in MB (see the pool's `resourceLimits`). */
const OFFLOAD_HEAP_MB = 256;
/**
 * Young generation of each offload thread, in MB. V8 grows it to 32 MB in a thread that allocates
 * a lot, and keeps it; a task's large values (the body, its strings) go straight to the
 * large-object space anyway, so a small nursery costs a few more quick scavenges and saves each
 * thread about 20 MB of resident memory (docs/security.md, Memory).
 */
const OFFLOAD_YOUNG_MB = 12;

/** A pool of `threads` worker threads, started on first use; `0` runs every task inline. */
export function createOffloadPool(threads: number): OffloadPool {
  if (!Number.isInteger(threads) || threads < 0)
    throw new Error(`offload threads must be an integer >= 0, got ${threads}`);
  if (threads === 0) return inlineOffloadPool();
  const pool = new Piscina({
    filename: ENTRY.href,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: IDLE_TIMEOUT_MS,
    maxQueue: MAX_QUEUED_TASKS,
    // One task per thread at a time: a second one would only wait there instead of in the queue.
    concurrentTasksPerWorker: 1,
    // Same flags as the DKIM workers, less those that choose the main thread's entry (worker-exec-argv.ts).
    execArgv: workerExecArgv(process.execArgv),
    // A 10 MiB message (the API's limit) renders within about 150 MB of heap even when every part of
    // it is a tracked link (measured with bench/abuse.ts's bodies). V8 sizes its collections to the
    // limit, so under the process-wide default (gigabytes) each thread kept hundreds of megabytes of
    // garbage after a large render; a tighter limit makes it collect instead.
    resourceLimits: { maxOldGenerationSizeMb: OFFLOAD_HEAP_MB, maxYoungGenerationSizeMb: OFFLOAD_YOUNG_MB },
  });
  return {
    async run(task, transfer = []) {
      try {
        return await pool.run(task, { transferList: transfer });
      } catch (err) {
        if ((err as Error).message === 'Task queue is at limit')
          throw new OffloadBusyError('the offload queue is full', { cause: err });
        throw err;
      }
    },
    offThread: () => pool.completed,
    async close() {
      await pool.close({ force: true });
    },
  };
}

/**
 * Resolves on a later turn of the event loop (after pending I/O callbacks). better-sqlite3 is
 * synchronous and kysely chains its queries in microtasks, so without this a large message's
 * steps run back to back and nothing else is answered until all are done.
 */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

let shared: { threads: number; offload: OffloadPool } | null = null;

/**
 * The process's pool, shared by the API and delivery roles so their threads together stay at
 * `threads`. Idle threads are unreferenced and exit on their own, so it is never closed.
 */
export function sharedOffloadPool(threads: number = Math.min(2, availableParallelism())): OffloadPool {
  if (shared === null || shared.threads !== threads) shared = { threads, offload: createOffloadPool(threads) };
  return shared.offload;
}

/**
 * A budget of bytes in processing: `acquire(n)` resolves with a release function once `n` bytes
 * fit, in arrival order (a large message is not starved by a stream of small ones). One request
 * larger than the whole budget still goes when nothing else holds any. With `maxWaiting` callers
 * already waiting, `acquire` returns null at once: the caller refuses rather than queueing without
 * end. Hand-written: the semaphore packages on npm count permits, not weights with a wait limit.
 */
export class ByteGate {
  #inFlight = 0;
  readonly #waiting: { bytes: number; admit: () => void }[] = [];

  constructor(
    readonly budget: number,
    readonly maxWaiting: number = Infinity,
  ) {}

  get inFlight(): number {
    return this.#inFlight;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  /** True when `acquire(bytes)` would return null now: the caller can refuse before it has the bytes. */
  wouldRefuse(bytes: number): boolean {
    return !(this.#waiting.length === 0 && this.#fits(bytes)) && this.#waiting.length >= this.maxWaiting;
  }

  acquire(bytes: number): Promise<() => void> | null {
    if (this.#waiting.length === 0 && this.#fits(bytes)) return Promise.resolve(this.#take(bytes));
    if (this.#waiting.length >= this.maxWaiting) return null;
    return new Promise((resolve) => this.#waiting.push({ bytes, admit: () => resolve(this.#take(bytes)) }));
  }

  #fits(bytes: number): boolean {
    return this.#inFlight === 0 || this.#inFlight + bytes <= this.budget;
  }

  #take(bytes: number): () => void {
    this.#inFlight += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inFlight -= bytes;
      while (this.#waiting.length > 0 && this.#fits(this.#waiting[0]!.bytes)) this.#waiting.shift()!.admit();
    };
  }
}
