/**
 * A stored message's signed bytes, for messages loaded without their body (load-claimed.ts
 * `deferredSize`): rendered and DKIM-signed on the offload pool (src/offload/offload-pool.ts), off
 * the event loop.
 */
import { sharedOffloadPool } from '../offload/offload-pool.js';
import type { MessageDraft } from '../mime/message-draft.js';
import { renderMime } from '../mime/render-mime.js';
import { latin1WithRoom, renderTracked, trackingUrls, isPersonalized, type TrackingFlags } from '../tracking/render.js';
import { createHash } from 'node:crypto';
import { dkimSignatures, KeyCache, type DkimKey } from './dkim/dkim-sign.js';

/** A stored message as delivery reads it: the relay's MIME (latin1) or the composed draft (JSON). */
export interface RenderInput {
  mime: string | null;
  /** The draft's JSON, as text or as its UTF-8 bytes (moved to the offload thread by renderOffThread). */
  content: string | Uint8Array | null;
  tracking: TrackingFlags;
  /** Whose tracking URLs go in, for a personalised message (one recipient per transaction). */
  recipient: { secret: Uint8Array; publicUrl: string; recipientId: string } | null;
  /** The DKIM keys (opened) and signing time, to sign on the same thread; none: returned unsigned. */
  sign?: { keys: DkimKey[]; now: number };
  /** Header fields (CRLF-terminated, ASCII) put before the rendering and signed with it: the Feedback-ID (feedback-id.ts). */
  prefix?: string;
}

/**
 * The message's bytes before signing: tracking applied for its recipient, the draft rendered, or
 * the relay's bytes as they are; with `room`, starting that many bytes into the returned buffer.
 */
export function renderStored(input: RenderInput, room = 0): Buffer {
  const c = input.content;
  const json =
    c === null || typeof c === 'string' ? c : Buffer.from(c.buffer, c.byteOffset, c.byteLength).toString('utf8');
  const draft = json === null ? null : (JSON.parse(json) as MessageDraft);
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
/** After the offset: the SHA-256 of the message as returned (the digest of signed-copy.ts). */
const DIGEST_BYTES = 32;
const HEAD_BYTES = OFFSET_BYTES + DIGEST_BYTES;
/** This thread's parsed DKIM keys (each offload thread has its own, as each signer thread does). */
const keyCache = new KeyCache();

/**
 * A large message rendered and, when `sign` is given, DKIM-signed on the same thread: the
 * DKIM-Signature fields are written into room left before the rendering, so the message is neither
 * copied to a signer thread nor concatenated with its signatures (each a copy of tens of MB for a
 * 9 MiB message with tracked links). One buffer of its own, transferable: the message starts at the
 * offset in its first four bytes (little-endian), and the next 32 are the SHA-256 of the message,
 * which delivery keeps (message_signatures.digest) and which would otherwise be computed over
 * megabytes on the event loop; framedMessage and framedDigest read them back.
 */
export function renderFramed(input: RenderInput): Uint8Array {
  const full = renderStored(input, RENDER_ROOM);
  let start = RENDER_ROOM;
  const prefix = input.prefix ?? '';
  if (prefix.length > RENDER_ROOM / 2) throw new Error(`header fields before the message are ${prefix.length} bytes`);
  start -= prefix.length;
  full.write(prefix, start, 'latin1');
  let signed: Buffer | null = null;
  if (input.sign !== undefined && input.sign.keys.length > 0) {
    const headers = dkimSignatures(full.subarray(start), input.sign.keys, keyCache, input.sign.now);
    if (headers.length <= start - HEAD_BYTES) {
      start -= headers.length;
      full.write(headers, start, 'latin1');
    } else {
      signed = Buffer.concat([Buffer.from(headers, 'latin1'), full.subarray(start)]);
    }
  }
  if (signed !== null) {
    const out = Buffer.allocUnsafeSlow(HEAD_BYTES + signed.length);
    signed.copy(out, HEAD_BYTES);
    start = HEAD_BYTES;
    out.writeUInt32LE(start, 0);
    createHash('sha256').update(signed).digest().copy(out, OFFSET_BYTES);
    return out;
  }
  full.writeUInt32LE(start, 0);
  createHash('sha256').update(full.subarray(start)).digest().copy(full, OFFSET_BYTES);
  return full;
}

/** The message inside a renderFramed result, without a copy. */
export function framedMessage(framed: Uint8Array): Buffer {
  const whole = Buffer.from(framed.buffer, framed.byteOffset, framed.byteLength);
  return whole.subarray(whole.readUInt32LE(0));
}

/** The SHA-256 (base64) of the message inside a renderFramed result. */
export function framedDigest(framed: Uint8Array): string {
  return Buffer.from(framed.buffer, framed.byteOffset + OFFSET_BYTES, DIGEST_BYTES).toString('base64');
}

const RENDER_TASK = new URL('./render-stored.js', import.meta.url).href;

/**
 * renderFramed on a thread of the process's offload pool (inline when it has 0 threads): the
 * signed message and its SHA-256 (base64).
 */
export async function renderOffThread(
  threads: number,
  input: RenderInput,
): Promise<{ message: Buffer; digest: string }> {
  // A draft read as bytes is moved to the thread, not copied, when it owns its whole ArrayBuffer
  // (a blob read from SQLite does); it reads as empty here afterwards.
  const c = input.content;
  const transfer =
    c !== null && typeof c !== 'string' && c.byteOffset === 0 && c.byteLength === c.buffer.byteLength
      ? [c.buffer as ArrayBuffer]
      : [];
  const framed = (await sharedOffloadPool(threads).run(
    { module: RENDER_TASK, fn: 'renderFramed', input },
    transfer,
  )) as Uint8Array;
  return { message: framedMessage(framed), digest: framedDigest(framed) };
}
