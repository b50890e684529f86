import { renderMime } from '../../mime/render-mime.js';
import type { MessageDraft } from '../../mime/message-draft.js';
import { dkimSignatures, type DkimKey, type KeyCache } from './dkim-sign.js';
import { signedCopy, type SignedCopy } from './signed-copy.js';

/**
 * A message to sign: its bytes, or an API message's draft to render first (mime/render-mime.ts)
 * with `prefix` (the Feedback-ID field, feedback-id.ts) put before it. Rendering the draft where it
 * is signed keeps the MIME composition, the text part made from the html among it, off the event
 * loop when signing runs on the signer pool's threads (signer-pool.ts).
 */
export type Unsigned = { raw: Buffer } | { draft: MessageDraft; prefix: string };

/** A signed message with what the signing added (`copy`, when asked for). */
export interface SignedMessage {
  signed: Buffer;
  headers: string;
  copy: SignedCopy | null;
}

/** Renders `message` when it is a draft, signs it and, when `copyFields` > 0, takes its SignedCopy of that many fields. */
export function signUnsigned(
  message: Unsigned,
  keys: readonly DkimKey[],
  cache: KeyCache,
  now: number,
  copyFields: number,
): SignedMessage {
  const raw =
    'raw' in message ? message.raw : Buffer.concat([Buffer.from(message.prefix, 'latin1'), renderMime(message.draft)]);
  const headers = dkimSignatures(raw, keys, cache, now);
  const signed = headers === '' ? raw : Buffer.concat([Buffer.from(headers, 'latin1'), raw]);
  return { signed, headers, copy: copyFields > 0 ? signedCopy(signed, copyFields) : null };
}
