/**
 * The send pipeline's share of the offload pool (src/offload/offload-pool.ts): a JSON body of
 * OFFLOAD_MIN_BYTES or more is parsed and validated on a worker thread, a smaller one inline.
 */
import type { ApiError } from '../core/api-errors.js';
import { OFFLOAD_MIN_BYTES, sharedOffloadPool } from '../offload/offload-pool.js';
import type { SendRequest } from './send-request.js';
import { validateSendJson } from './validate-send-json.js';

/** What crosses to the worker thread: the body arrives there as a Uint8Array. */
export interface ValidateInput {
  contentType: string | undefined;
  body: Uint8Array;
}

/** validateSendJson for a body handed over as a Uint8Array (the offload task; inline for small bodies). */
export function validateSend(input: ValidateInput): SendRequest | ApiError {
  return validateSendJson(
    input.contentType,
    Buffer.from(input.body.buffer, input.body.byteOffset, input.body.byteLength),
  );
}

const VALIDATE_TASK = new URL('./offload.js', import.meta.url).href;

/** The send pipeline's view of the process's offload pool. */
export interface SendOffload {
  /** A large `body` is handed over to the worker thread: it reads as empty afterwards. */
  validateSend(contentType: string | undefined, body: Buffer | undefined): Promise<SendRequest | ApiError>;
}

/** The process's pool (shared with the delivery role, so their threads together stay at `threads`), for the send pipeline. */
export function sharedOffload(threads?: number): SendOffload {
  const pool = sharedOffloadPool(threads);
  return {
    async validateSend(contentType, body) {
      if (body === undefined || body.length < OFFLOAD_MIN_BYTES)
        return validateSend({ contentType, body: body ?? new Uint8Array(0) });
      // Transferred, not copied, when the body owns its whole ArrayBuffer (a large request body
      // does: Buffer.concat allocates it alone); the caller must not read `body` afterwards. A
      // buffer that shares its ArrayBuffer with other data is copied first, or the transfer would
      // detach that data too.
      const own = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : new Uint8Array(body);
      const input: ValidateInput = { contentType, body: own };
      return (await pool.run({ module: VALIDATE_TASK, fn: 'validateSend', input }, [own.buffer as ArrayBuffer])) as
        SendRequest | ApiError;
    },
  };
}
