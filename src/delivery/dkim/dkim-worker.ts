/**
 * The DKIM signing worker thread: signs batches of messages with its own KeyCache, so each thread
 * parses a key once; an API message comes as its draft and is rendered here first (sign-message.ts).
 * Loaded through dkim-worker-entry.js, which makes sure tsx is active here.
 */
import { parentPort } from 'node:worker_threads';
import { dkimSignatures, KeyCache, type DkimKey } from './dkim-sign.js';
import type { MessageDraft } from '../../mime/message-draft.js';
import { signUnsigned } from './sign-message.js';
import type { SignedCopy } from './signed-copy.js';

/**
 * One job of a batch: its message is `data[offset, offset + length)`, or `draft` rendered after
 * `prefix`; its keys index `SignBatch.keys`. `copyFields` > 0 asks for the SignedCopy of that many fields.
 */
export interface SignJob {
  offset: number;
  length: number;
  keys: number[];
  now: number;
  draft?: MessageDraft;
  prefix?: string;
  copyFields?: number;
}

/** Main thread → worker: messages packed back to back in one transferred buffer, keys deduplicated. */
export interface SignBatch {
  batch: number;
  data: Uint8Array;
  keys: DkimKey[];
  jobs: SignJob[];
}

/**
 * The DKIM-Signature header text for a job (with its SignedCopy when asked), or why it could not be
 * signed. A rendered draft comes back whole, signatures included: `ResultMessage.data[at, at + length)`.
 */
export type SignOutcome = { headers: string; copy?: SignedCopy; at?: number; length?: number } | { error: string };

/** Worker → main thread: `ready` once loaded, then one result per batch, outcomes in job order. */
export type WorkerMessage =
  { type: 'ready' } | { type: 'result'; batch: number; outcomes: SignOutcome[]; data?: Uint8Array };

const port = parentPort;
if (port === null) throw new Error('dkim-worker.ts runs in a worker thread (see signer-pool.ts)');
const cache = new KeyCache();

port.on('message', (batch: SignBatch) => {
  const rendered: Buffer[] = [];
  let size = 0;
  const outcomes = batch.jobs.map((job): SignOutcome => {
    try {
      const keys = job.keys.map((i) => batch.keys[i]!);
      if (job.draft === undefined) {
        const raw = Buffer.from(batch.data.buffer, batch.data.byteOffset + job.offset, job.length);
        if (!job.copyFields) return { headers: dkimSignatures(raw, keys, cache, job.now) };
        const { headers, copy } = signUnsigned({ raw }, keys, cache, job.now, job.copyFields);
        return { headers, ...(copy ? { copy } : {}) };
      }
      const { signed, headers, copy } = signUnsigned(
        { draft: job.draft, prefix: job.prefix ?? '' },
        keys,
        cache,
        job.now,
        job.copyFields ?? 0,
      );
      rendered.push(signed);
      size += signed.length;
      return { headers, ...(copy ? { copy } : {}), at: size - signed.length, length: signed.length };
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
  });
  if (rendered.length === 0) {
    port.postMessage({ type: 'result', batch: batch.batch, outcomes } satisfies WorkerMessage);
    return;
  }
  // Its own ArrayBuffer, transferred: the rendered messages cross back without a copy.
  const data = Buffer.allocUnsafeSlow(size);
  let offset = 0;
  for (const r of rendered) {
    data.set(r, offset);
    offset += r.length;
  }
  port.postMessage({ type: 'result', batch: batch.batch, outcomes, data } satisfies WorkerMessage, [data.buffer]);
});
port.postMessage({ type: 'ready' } satisfies WorkerMessage);
