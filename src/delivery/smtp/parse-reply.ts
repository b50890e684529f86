import type { SmtpReply } from '../transport.js';

/** `class.subject.detail` at the start of the text (RFC 3463 §2: class 2, 4 or 5, then 1–3 digits each). */
const ENHANCED = /^([245])\.\d{1,3}\.\d{1,3}(?=\s|$)/;

/**
 * An SMTP reply as nodemailer hands it over (lines joined by `\n`) as an SmtpReply: the basic code,
 * the RFC 3463 enhanced code when the first line carries one, and the whole reply verbatim.
 */
export function parseReply(text: string): SmtpReply {
  const message = text.replace(/\r?\n$/, '');
  const basic = /^(\d{3})[ -]?/.exec(message);
  if (!basic) return { code: 0, enhanced: null, message };
  const code = Number(basic[1]);
  const enhanced = ENHANCED.exec(message.slice(basic[0].length));
  // RFC 3463 §3.1 / RFC 2034 §4: the enhanced class must match the reply's first digit; a code
  // that contradicts the reply is not trusted.
  const usable = enhanced !== null && enhanced[1] === basic[1][0];
  return { code, enhanced: usable ? enhanced[0] : null, message };
}

/** A reply Posthorn makes up for a refusal that never reached the server (e.g. SIZE), marked as local. */
export function localReply(code: number, enhanced: string, text: string): SmtpReply {
  return { code, enhanced, message: `${code} ${enhanced} ${text} (generated locally by Posthorn, not sent)` };
}
