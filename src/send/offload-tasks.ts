/**
 * The CPU-heavy steps that large messages are sent off the event loop for (offload.ts): the same
 * functions run inline for small messages and in the offload worker threads for large ones.
 */
import type { ApiError } from '../core/api-errors.js';
import { dkimSignatures, KeyCache, type DkimKey } from '../delivery/dkim/dkim-sign.js';
import {
  latin1WithRoom,
  renderTracked,
  trackingUrls,
  isPersonalized,
  type TrackingFlags,
} from '../feedback/tracking-render.js';
import type { MessageDraft } from './message-draft.js';
import { renderMime } from './render-mime.js';
import type { SendRequest } from './send-request.js';
import { validateSendJson } from './validate-send-json.js';

/** A stored message as delivery reads it: the relay's MIME (latin1) or the composed draft (JSON). */
export interface RenderInput {
  mime: string | null;
  content: string | null;
  tracking: TrackingFlags;
  /** Whose tracking URLs go in, for a personalised message (one recipient per transaction). */
  recipient: { secret: Uint8Array; publicUrl: string; recipientId: string } | null;
  /** The DKIM keys (opened) and signing time, to sign on the same thread; none: returned unsigned. */
  sign?: { keys: DkimKey[]; now: number };
}

/**
 * The message's bytes before signing: tracking applied for its recipient, the draft rendered, or
 * the relay's bytes as they are; with `room`, starting that many bytes into the returned buffer.
 */
export function renderStored(input: RenderInput, room = 0): Buffer {
  const draft = input.content === null ? null : (JSON.parse(input.content) as MessageDraft);
  if (isPersonalized(input.tracking)) {
    const r = input.recipient;
    if (r === null) throw new Error('a tracked message is rendered for one recipient, and none was given');
    return renderTracked(
      { mime: input.mime, draft },
      input.tracking,
      trackingUrls(Buffer.from(r.secret), r.publicUrl, r.recipientId),
      room,
    );
  }
  if (input.mime !== null) return latin1WithRoom(input.mime, room);
  if (draft === null) throw new Error('a stored message has neither MIME nor a draft');
  return renderMime(draft, room);
}

/**
 * Bytes before a rendering made by renderFramed: four for where the message starts, the rest for its
 * DKIM-Signature fields (one or two signatures, well under 4 KiB even with an RSA-8192 key).
 */
const RENDER_ROOM = 8 * 1024;
const OFFSET_BYTES = 4;
/** This thread's parsed DKIM keys (each offload thread has its own, as each signer thread does). */
const keyCache = new KeyCache();

/**
 * A large message rendered and, when `sign` is given, DKIM-signed on the same thread: the
 * DKIM-Signature fields are written into room left before the rendering, so the message is neither
 * copied to a signer thread nor concatenated with its signatures (each a copy of tens of MB for a
 * 9 MiB message with tracked links). One buffer of its own, transferable: the message starts at the
 * offset in its first four bytes (little-endian); framedMessage reads it back.
 */
export function renderFramed(input: RenderInput): Uint8Array {
  const full = renderStored(input, RENDER_ROOM);
  let start = RENDER_ROOM;
  let signed: Buffer | null = null;
  if (input.sign !== undefined && input.sign.keys.length > 0) {
    const headers = dkimSignatures(full.subarray(RENDER_ROOM), input.sign.keys, keyCache, input.sign.now);
    if (headers.length <= RENDER_ROOM - OFFSET_BYTES) {
      start -= headers.length;
      full.write(headers, start, 'latin1');
    } else {
      signed = Buffer.concat([Buffer.from(headers, 'latin1'), full.subarray(RENDER_ROOM)]);
    }
  }
  if (signed !== null) {
    const out = Buffer.allocUnsafeSlow(OFFSET_BYTES + signed.length);
    signed.copy(out, OFFSET_BYTES);
    out.writeUInt32LE(OFFSET_BYTES, 0);
    return out;
  }
  full.writeUInt32LE(start, 0);
  return full;
}

/** The message inside a renderFramed result, without a copy. */
export function framedMessage(framed: Uint8Array): Buffer {
  const whole = Buffer.from(framed.buffer, framed.byteOffset, framed.byteLength);
  return whole.subarray(whole.readUInt32LE(0));
}

/** Main thread → offload worker. */
export type OffloadTask =
  { kind: 'validate'; contentType: string | undefined; body: Uint8Array } | { kind: 'render'; input: RenderInput };

/** What a task gives back: the validated request or its refusal, or the rendered message (renderFramed). */
export type OffloadResult = SendRequest | ApiError | Uint8Array;

/** Runs one task; the worker wraps this, and inline mode calls it directly. */
export function runTask(task: OffloadTask): OffloadResult {
  switch (task.kind) {
    case 'validate':
      return validateSendJson(
        task.contentType,
        Buffer.from(task.body.buffer, task.body.byteOffset, task.body.byteLength),
      );
    case 'render':
      return renderFramed(task.input);
  }
}
