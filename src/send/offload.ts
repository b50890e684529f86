/**
 * The send pipeline's share of the offload pool (src/offload/offload-pool.ts): a JSON body of
 * OFFLOAD_MIN_BYTES or more is parsed and validated on a worker thread, a smaller one inline.
 */
import type { ApiError } from '../core/api-errors.js';
import { draftBodies } from '../mime/message-draft.js';
import { OFFLOAD_MIN_BYTES, sharedOffloadPool, transferring, type Transferring } from '../offload/offload-pool.js';
import { requestFingerprint, type SendRequest } from './send-request.js';
import { validateSendJson } from './validate-send-json.js';

/** What crosses to the worker thread: the body arrives there as a Uint8Array. */
export interface ValidateInput {
  contentType: string | undefined;
  body: Uint8Array;
  /** The request's fingerprint is wanted (it came with an Idempotency-Key): prepareSend computes it. */
  fingerprint?: boolean;
}

/** validateSendJson for a body handed over as a Uint8Array (the offload task; inline for small bodies). */
export function validateSend(input: ValidateInput): SendRequest | ApiError {
  return validateSendJson(
    input.contentType,
    Buffer.from(input.body.buffer, input.body.byteOffset, input.body.byteLength),
  );
}

/**
 * The offload task for a large body: validateSend, then the draft's bodies serialised here
 * (`prepared`, send-request.ts) and the strings they came from left out of the request, so the
 * pipeline's thread receives the megabytes as one moved buffer, not as strings it would clone,
 * stringify again and flatten (docs/security.md, Memory). A templated send has no bodies yet: its
 * request goes back whole, rendered later by the render step.
 */
export function prepareSend(input: ValidateInput): SendRequest | ApiError | Transferring {
  const req = validateSend(input);
  if ('type' in req || req.template !== undefined) return req;
  const fingerprint = input.fingerprint === true ? requestFingerprint(req) : null;
  // Buffer.from allocates a string this large in an ArrayBuffer of its own, which can be moved.
  const json = Buffer.from(JSON.stringify(draftBodies(req)), 'utf8');
  const bodies = json.byteOffset === 0 && json.byteLength === json.buffer.byteLength ? json : new Uint8Array(json);
  const prepared: SendRequest = {
    ...req,
    html: null,
    text: null,
    prepared: { bodies, fingerprint },
  };
  if (req.attachments) prepared.attachments = req.attachments.map((a) => ({ ...a, content: '' }));
  return transferring(prepared, [bodies.buffer as ArrayBuffer]);
}

const VALIDATE_TASK = new URL('./offload.js', import.meta.url).href;

/** The send pipeline's view of the process's offload pool. */
export interface SendOffload {
  /**
   * A large `body` is handed over to the worker thread: it reads as empty afterwards, and the
   * request comes back `prepared` (send-request.ts) unless it is templated. `fingerprint`: the
   * request will be fingerprinted (requestFingerprint), so a prepared one carries its fingerprint.
   */
  validateSend(
    contentType: string | undefined,
    body: Buffer | undefined,
    fingerprint?: boolean,
  ): Promise<SendRequest | ApiError>;
}

/** The process's pool (shared with the delivery role, so their threads together stay at `threads`), for the send pipeline. */
export function sharedOffload(threads?: number): SendOffload {
  const pool = sharedOffloadPool(threads);
  return {
    async validateSend(contentType, body, fingerprint = false) {
      if (body === undefined || body.length < OFFLOAD_MIN_BYTES)
        return validateSend({ contentType, body: body ?? new Uint8Array(0) });
      // Transferred, not copied, when the body owns its whole ArrayBuffer (a large request body
      // does: Buffer.concat allocates it alone); the caller must not read `body` afterwards. A
      // buffer that shares its ArrayBuffer with other data is copied first, or the transfer would
      // detach that data too.
      const own = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : new Uint8Array(body);
      const input: ValidateInput = { contentType, body: own, fingerprint };
      return (await pool.run({ module: VALIDATE_TASK, fn: 'prepareSend', input }, [own.buffer as ArrayBuffer])) as
        SendRequest | ApiError;
    },
  };
}
