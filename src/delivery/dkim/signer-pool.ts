/**
 * DKIM signing off the event loop, so CPU-heavy signing does not stall intake or other I/O: a pool
 * of worker threads, each with its own KeyCache. Calls made in the same tick are packed into
 * batches (one buffer, transferred, keys sent once per batch), and each worker holds up to two
 * batches so it never waits for the main thread between them. Workers send back only the
 * DKIM-Signature headers; the main thread prepends them to the caller's buffer, so a message
 * crosses threads once. An API message can be handed over as its draft (`signMessage`): the
 * worker renders it too and sends the signed message back, so neither the MIME composition nor
 * the digest of the signed copy runs on the event loop.
 */
import { Worker } from 'node:worker_threads';
import { dkimSign, KeyCache, type DkimKey } from './dkim-sign.js';
import type { SignBatch, SignJob, SignOutcome, WorkerMessage } from './dkim-worker.js';
import { signUnsigned, type Unsigned } from './sign-message.js';
import type { SignedCopy } from './signed-copy.js';
import { workerExecArgv } from '../../offload/worker-exec-argv.js';

/** Signs messages; `close()` rejects what is still pending and refuses new calls. */
export interface Signer {
  sign(raw: Buffer, keys: readonly DkimKey[], now: number): Promise<Buffer>;
  /**
   * Signs `message` (rendering it first when it is a draft, sign-message.ts) and takes the
   * SignedCopy of its first `copyFields` header fields (signed-copy.ts).
   */
  signMessage(
    message: Unsigned,
    keys: readonly DkimKey[],
    now: number,
    copyFields: number,
  ): Promise<{ signed: Buffer; copy: SignedCopy }>;
  close(): Promise<void>;
  /** How busy the pool is now (the DKIM gauges of docs/observability.md). */
  stats?(): SignerStats;
}

export interface SignerStats {
  threads: number;
  /** Threads holding at least one batch. */
  busyThreads: number;
  /** Messages waiting for a thread or being signed. */
  queued: number;
}

export interface SignerPoolOptions {
  /** Worker threads; 0 signs inline on the calling thread (tests, small deployments). */
  threads: number;
  /** Most messages per worker round trip (default 16). */
  maxBatch?: number;
}

interface Job {
  message: Unsigned;
  /** Bytes it adds to a batch: the message's, or an estimate of a draft's rendering. */
  size: number;
  keys: readonly DkimKey[];
  now: number;
  copyFields: number;
  resolve: (signed: { signed: Buffer; copy: SignedCopy | null }) => void;
  reject: (err: Error) => void;
}

interface PoolWorker {
  worker: Worker;
  ready: boolean;
  batches: Map<number, Job[]>;
  jobs: number;
}

/** Batches stop growing past this many message bytes (at least one message each). */
const MAX_BATCH_BYTES = 1024 * 1024;
/** Batches a worker holds at once: one it signs, one waiting, so it never idles between them. */
const BATCHES_PER_WORKER = 2;
const ENTRY = new URL('./dkim-worker-entry.js', import.meta.url);

/** Creates a Signer backed by `threads` worker threads (or inline when 0). */
export function createSignerPool(opts: SignerPoolOptions): Signer {
  if (!Number.isInteger(opts.threads) || opts.threads < 0)
    throw new Error(`DKIM signer threads must be an integer >= 0, got ${opts.threads}`);
  return opts.threads === 0 ? inlineSigner() : new SignerPool(opts.threads, Math.max(1, opts.maxBatch ?? 16));
}

function inlineSigner(): Signer {
  const cache = new KeyCache();
  let closed = false;
  return {
    async sign(raw, keys, now) {
      if (closed) throw closedError();
      return dkimSign(raw, keys, cache, now);
    },
    async signMessage(message, keys, now, copyFields) {
      if (closed) throw closedError();
      const { signed, copy } = signUnsigned(message, keys, cache, now, copyFields);
      return { signed, copy: copy ?? noCopy(signed) };
    },
    async close() {
      closed = true;
    },
  };
}

const closedError = (): Error => new Error('DKIM signer pool is closed');

/** Only for `copyFields` 0, which deliver-group.ts never asks: no fields, the digest left out. */
const noCopy = (_signed: Buffer): SignedCopy => ({ fields: '', digest: '' });

/** About the size of a draft's rendering, for the batch byte bound: its text, html and attachments. */
function draftSize(message: Unsigned): number {
  if ('raw' in message) return message.raw.length;
  const d = message.draft;
  let size = 1024 + (d.html?.length ?? 0) * 1.1 + (d.text?.length ?? d.html?.length ?? 0) * 1.1;
  for (const a of d.attachments ?? []) size += a.content.length;
  return size;
}

class SignerPool implements Signer {
  readonly #workers: PoolWorker[] = [];
  readonly #queue: Job[] = [];
  #nextBatch = 0;
  #flushScheduled = false;
  #closed = false;
  /** Set when a worker dies before it finished loading: respawning would only fail again. */
  #broken: Error | null = null;

  constructor(
    threads: number,
    readonly maxBatch: number,
  ) {
    for (let i = 0; i < threads; i++) this.#workers.push(this.#spawn());
  }

  sign(raw: Buffer, keys: readonly DkimKey[], now: number): Promise<Buffer> {
    if (this.#closed) return Promise.reject(closedError());
    if (this.#broken !== null) return Promise.reject(this.#broken);
    if (keys.length === 0) return Promise.resolve(raw);
    return new Promise((resolve, reject) => {
      this.#enqueue({
        message: { raw },
        size: raw.length,
        keys,
        now,
        copyFields: 0,
        resolve: (r) => resolve(r.signed),
        reject,
      });
    });
  }

  signMessage(
    message: Unsigned,
    keys: readonly DkimKey[],
    now: number,
    copyFields: number,
  ): Promise<{ signed: Buffer; copy: SignedCopy }> {
    if (this.#closed) return Promise.reject(closedError());
    if (this.#broken !== null) return Promise.reject(this.#broken);
    return new Promise((resolve, reject) => {
      this.#enqueue({
        message,
        size: draftSize(message),
        keys,
        now,
        copyFields,
        resolve: (r) => resolve({ signed: r.signed, copy: r.copy ?? noCopy(r.signed) }),
        reject,
      });
    });
  }

  #enqueue(job: Job): void {
    this.#queue.push(job);
    if (!this.#flushScheduled) {
      this.#flushScheduled = true;
      queueMicrotask(() => this.#flush());
    }
  }

  stats(): SignerStats {
    let busyThreads = 0;
    let inHand = 0;
    for (const pw of this.#workers) {
      if (pw.jobs > 0) busyThreads++;
      inHand += pw.jobs;
    }
    return { threads: this.#workers.length, busyThreads, queued: this.#queue.length + inHand };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#failAll(closedError());
    await Promise.all(this.#workers.map((w) => w.worker.terminate()));
  }

  #spawn(): PoolWorker {
    // This process's flags go along (tsx's --import among them does not reach workers on Node 20:
    // the entry file handles that), less those that pick the main thread's entry.
    const worker = new Worker(ENTRY, { execArgv: workerExecArgv(process.execArgv) });
    const pw: PoolWorker = { worker, ready: false, batches: new Map(), jobs: 0 };
    worker.unref(); // an idle pool does not keep the process alive
    worker.on('message', (msg: WorkerMessage) => this.#onMessage(pw, msg));
    worker.on('error', (err) => this.#onExit(pw, err));
    worker.on('exit', (code) => this.#onExit(pw, new Error(`exited with code ${code}`)));
    return pw;
  }

  #onMessage(pw: PoolWorker, msg: WorkerMessage): void {
    if (msg.type === 'ready') {
      pw.ready = true;
      return;
    }
    const jobs = pw.batches.get(msg.batch);
    if (jobs === undefined) return;
    pw.batches.delete(msg.batch);
    pw.jobs -= jobs.length;
    if (pw.jobs === 0) pw.worker.unref();
    const data = msg.data === undefined ? null : Buffer.from(msg.data.buffer, msg.data.byteOffset, msg.data.byteLength);
    msg.outcomes.forEach((outcome: SignOutcome, i) => {
      const job = jobs[i]!;
      if ('error' in outcome) job.reject(new Error(outcome.error));
      else if ('raw' in job.message)
        job.resolve({
          signed: Buffer.concat([Buffer.from(outcome.headers, 'latin1'), job.message.raw]),
          copy: outcome.copy ?? null,
        });
      else if (outcome.at !== undefined && data !== null)
        job.resolve({
          signed: data.subarray(outcome.at, outcome.at + (outcome.length ?? 0)),
          copy: outcome.copy ?? null,
        });
      else job.reject(new Error('the DKIM signer sent no rendered message back'));
    });
    this.#flush();
  }

  /** A worker died ('error' then 'exit', or just 'exit'): fail its jobs, replace it unless closing. */
  #onExit(pw: PoolWorker, err: Error): void {
    const index = this.#workers.indexOf(pw);
    if (index === -1) return; // already handled (the 'exit' after an 'error')
    const failure = new Error(`DKIM signer worker ${pw.ready ? 'died' : 'failed to start'}: ${err.message}`, {
      cause: err,
    });
    for (const jobs of pw.batches.values()) for (const job of jobs) job.reject(failure);
    pw.batches.clear();
    if (this.#closed || this.#broken !== null) return;
    if (!pw.ready) {
      this.#broken = failure;
      this.#failAll(failure);
      void Promise.all(this.#workers.map((w) => w.worker.terminate()));
      return;
    }
    this.#workers[index] = this.#spawn();
    this.#flush();
  }

  #failAll(err: Error): void {
    for (const job of this.#queue.splice(0)) job.reject(err);
    for (const pw of this.#workers) {
      for (const jobs of pw.batches.values()) for (const job of jobs) job.reject(err);
      pw.batches.clear();
      pw.jobs = 0;
    }
  }

  #flush(): void {
    this.#flushScheduled = false;
    while (this.#queue.length > 0 && !this.#closed && this.#broken === null) {
      const pw = this.#leastBusy();
      if (pw.batches.size >= BATCHES_PER_WORKER) return; // every worker is full: a result calls us again
      const size = Math.min(this.maxBatch, Math.ceil(this.#queue.length / this.#workers.length));
      this.#post(pw, this.#take(size));
    }
  }

  #leastBusy(): PoolWorker {
    let best = this.#workers[0]!;
    for (const pw of this.#workers) if (pw.jobs < best.jobs) best = pw;
    return best;
  }

  #take(size: number): Job[] {
    let bytes = 0;
    let count = 0;
    while (
      count < size &&
      count < this.#queue.length &&
      (count === 0 || bytes + this.#queue[count]!.size <= MAX_BATCH_BYTES)
    ) {
      bytes += this.#queue[count]!.size;
      count++;
    }
    return this.#queue.splice(0, count);
  }

  #post(pw: PoolWorker, jobs: Job[]): void {
    // Its own ArrayBuffer (never Buffer's shared pool), so it can be transferred without a copy.
    const data = Buffer.allocUnsafeSlow(jobs.reduce((sum, job) => sum + ('raw' in job.message ? job.size : 0), 0));
    const keys: DkimKey[] = [];
    const signJobs: SignJob[] = [];
    let offset = 0;
    for (const job of jobs) {
      const indexes = job.keys.map((key) => keyIndex(keys, key));
      const copy = job.copyFields > 0 ? { copyFields: job.copyFields } : {};
      if ('raw' in job.message) {
        data.set(job.message.raw, offset);
        signJobs.push({ offset, length: job.size, keys: indexes, now: job.now, ...copy });
        offset += job.size;
      } else
        signJobs.push({
          offset,
          length: 0,
          keys: indexes,
          now: job.now,
          draft: job.message.draft,
          prefix: job.message.prefix,
          ...copy,
        });
    }
    const batch = this.#nextBatch++;
    pw.batches.set(batch, jobs);
    if (pw.jobs === 0) pw.worker.ref();
    pw.jobs += jobs.length;
    pw.worker.postMessage({ batch, data, keys, jobs: signJobs } satisfies SignBatch, [data.buffer]);
  }
}

/** Index of `key` in the batch's key table, adding it unless an equal key is there (sent once per batch). */
function keyIndex(keys: DkimKey[], key: DkimKey): number {
  const found = keys.findIndex(
    (k) =>
      k === key ||
      (k.id === key.id &&
        k.privateKeyPem === key.privateKeyPem &&
        k.algorithm === key.algorithm &&
        k.domain === key.domain &&
        k.selector === key.selector),
  );
  if (found !== -1) return found;
  keys.push(key);
  return keys.length - 1;
}
