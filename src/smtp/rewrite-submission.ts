import { mailbox } from '../mime/render-mime.js';
import { foldLines } from '../mime/nodemailer-lib.js';
import { splitMessage } from '../mime/split-message.js';
import { fieldValue } from '../mime/header-text.js';
import { parseFromValue } from './parse-submission.js';
import { headerDisposition } from './submitted-headers.js';

/** What the service fixes on a relayed message. */
export interface RewriteOptions {
  /** The sender after the sender-domain rule (docs/api.md, The from rules), display name kept. */
  from: { name: string; address: string };
  /** Used only when the message has no Message-ID (RFC 5322 §3.6.4). */
  messageId: string;
  /** Used only when the message has no Date (RFC 5322 §3.6.1). */
  date: string;
}

/** `From: Name <addr>`, rendered and folded as composed mail's From is (mime/render-mime.ts). */
function renderFrom(m: { name: string; address: string }): string {
  return foldLines(`From: ${mailbox(m)}`, 76);
}

/** The submitted From field as is when it already says `from`: its own encoding and folding survive. */
function fromField(submitted: string | undefined, from: RewriteOptions['from']): string {
  if (submitted !== undefined) {
    const parsed = parseFromValue(fieldValue(submitted));
    if (!('error' in parsed) && parsed.name === from.name && parsed.address === from.address) return submitted;
  }
  return renderFrom(from);
}

/**
 * The message to deliver: header fields handled as submitted-headers.ts says (Bcc, X-Posthorn-*,
 * Idempotency-Key and the service's trace and auth fields removed; From replaced; Message-ID and
 * Date added when missing), every other field and the body bytes unchanged. Header fields travel
 * as latin1 strings, so raw 8-bit header bytes pass through unchanged.
 */
export function rewriteSubmission(raw: Buffer, opts: RewriteOptions): Buffer {
  const { fields, bodyStart } = splitMessage(raw);
  const lines: string[] = [];
  let fromAt = -1;
  let hasMessageId = false;
  let hasDate = false;
  for (const f of fields) {
    const disposition = headerDisposition(f.name);
    if (disposition === 'remove') continue;
    if (disposition === 'replace') {
      // From is the only replaced field; a repeated From was refused by parseSubmission.
      if (fromAt === -1) fromAt = lines.push(fromField(f.text, opts.from)) - 1;
      continue;
    }
    if (disposition === 'keep-or-add') {
      if (fieldValue(f.text) === '') continue; // an empty Date or Message-ID is replaced
      if (f.name === 'message-id') hasMessageId = true;
      if (f.name === 'date') hasDate = true;
    }
    lines.push(f.text);
  }
  if (fromAt === -1) {
    lines.unshift(fromField(undefined, opts.from));
    fromAt = 0;
  }
  const added = [
    ...(hasMessageId ? [] : [`Message-ID: ${opts.messageId}`]),
    ...(hasDate ? [] : [`Date: ${opts.date}`]),
  ];
  lines.splice(fromAt + 1, 0, ...added);
  const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  return Buffer.concat([head, raw.subarray(bodyStart)]);
}
