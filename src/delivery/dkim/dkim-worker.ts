/**
 * The DKIM signing worker thread: signs batches of messages with its own KeyCache, so each thread
 * parses a key once. Loaded through dkim-worker-entry.js, which makes sure tsx is active here.
 */
import { parentPort } from 'node:worker_threads';
import { dkimSignatures, KeyCache, type DkimKey } from './dkim-sign.js';

/** One job of a batch: its message is `data[offset, offset + length)`, its keys index `SignBatch.keys`. */
export interface SignJob {
  offset: number;
  length: number;
  keys: number[];
  now: number;
}

/** Main thread → worker: messages packed back to back in one transferred buffer, keys deduplicated. */
export interface SignBatch {
  batch: number;
  data: Uint8Array;
  keys: DkimKey[];
  jobs: SignJob[];
}

/** The DKIM-Signature header text for a job, or why it could not be signed. */
export type SignOutcome = { headers: string } | { error: string };

/** Worker → main thread: `ready` once loaded, then one result per batch, outcomes in job order. */
export type WorkerMessage = { type: 'ready' } | { type: 'result'; batch: number; outcomes: SignOutcome[] };

const port = parentPort;
if (port === null) throw new Error('dkim-worker.ts runs in a worker thread (see signer-pool.ts)');
const cache = new KeyCache();

port.on('message', (batch: SignBatch) => {
  const outcomes = batch.jobs.map((job): SignOutcome => {
    try {
      const raw = Buffer.from(batch.data.buffer, batch.data.byteOffset + job.offset, job.length);
      const keys = job.keys.map((i) => batch.keys[i]!);
      return { headers: dkimSignatures(raw, keys, cache, job.now) };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  });
  port.postMessage({ type: 'result', batch: batch.batch, outcomes } satisfies WorkerMessage);
});
port.postMessage({ type: 'ready' } satisfies WorkerMessage);
