import { createHash } from 'node:crypto';
import { splitMessage } from '../../mime/split-message.js';

/** The DKIM-Signature fields one signing put before the message, and the SHA-256 (base64) of the whole signed message. */
export interface SignedCopy {
  fields: string;
  digest: string;
}

/**
 * The fields a signing added to a message: the first `count` header fields, which are the
 * signatures the signer prepended (dkim-sign.ts, one per key) and the Feedback-ID put before the
 * message just before signing (feedback-id.ts). Any DKIM-Signature a relayed message already
 * carried comes after them and stays part of the message. `digest`: the SHA-256 already taken
 * where the message was signed (render-stored.ts), not taken again here.
 */
export function signedCopy(signed: Buffer, count: number, digest?: string): SignedCopy {
  const fields = splitMessage(signed.subarray(0, Math.min(signed.length, 64 * 1024)))
    .fields.slice(0, count)
    .map((f) => `${f.text}\r\n`)
    .join('');
  return { fields, digest: digest ?? createHash('sha256').update(signed).digest('base64') };
}
