/**
 * A stored message's bytes before signing, for messages loaded without their body (load-claimed.ts
 * `deferredSize`): rendered on the offload pool (src/offload/offload-pool.ts), off the event loop.
 */
import { sharedOffloadPool } from '../offload/offload-pool.js';
import type { MessageDraft } from '../mime/message-draft.js';
import { renderMime } from '../mime/render-mime.js';
import { renderTracked, trackingUrls, isPersonalized, type TrackingFlags } from '../tracking/render.js';

/** A stored message as delivery reads it: the relay's MIME (latin1) or the composed draft (JSON). */
export interface RenderInput {
  mime: string | null;
  content: string | null;
  tracking: TrackingFlags;
  /** Whose tracking URLs go in, for a personalised message (one recipient per transaction). */
  recipient: { secret: Uint8Array; publicUrl: string; recipientId: string } | null;
}

/** The message's bytes before signing: tracking applied for its recipient, the draft rendered, or the relay's bytes as they are. */
export function renderStored(input: RenderInput): Buffer {
  const draft = input.content === null ? null : (JSON.parse(input.content) as MessageDraft);
  if (isPersonalized(input.tracking)) {
    const r = input.recipient;
    if (r === null) throw new Error('a tracked message is rendered for one recipient, and none was given');
    return renderTracked(
      { mime: input.mime, draft },
      input.tracking,
      trackingUrls(Buffer.from(r.secret), r.publicUrl, r.recipientId),
    );
  }
  if (input.mime !== null) return Buffer.from(input.mime, 'latin1');
  if (draft === null) throw new Error('a stored message has neither MIME nor a draft');
  return renderMime(draft);
}

const RENDER_TASK = new URL('./render-stored.js', import.meta.url).href;

/** renderStored on a thread of the process's offload pool (inline when it has 0 threads). */
export async function renderOffThread(threads: number, input: RenderInput): Promise<Buffer> {
  const out = (await sharedOffloadPool(threads).run({ module: RENDER_TASK, fn: 'renderStored', input })) as Uint8Array;
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}
