/**
 * The CPU-heavy steps that large messages are sent off the event loop for (offload.ts): the same
 * functions run inline for small messages and in the offload worker threads for large ones.
 */
import type { ApiError } from '../core/api-errors.js';
import { renderTracked, trackingUrls, isPersonalized, type TrackingFlags } from '../tracking/render.js';
import type { MessageDraft } from '../mime/message-draft.js';
import { renderMime } from '../mime/render-mime.js';
import type { SendRequest } from './send-request.js';
import { validateSendJson } from './validate-send-json.js';

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

/** Main thread → offload worker. */
export type OffloadTask =
  { kind: 'validate'; contentType: string | undefined; body: Uint8Array } | { kind: 'render'; input: RenderInput };

/** What a task gives back: the validated request or its refusal, or the rendered message's bytes. */
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
      return renderStored(task.input);
  }
}
