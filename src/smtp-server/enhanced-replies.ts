import { SMTPConnection } from 'smtp-server/lib/smtp-connection.js';

/**
 * smtp-server derives a reply's RFC 3463 enhanced status code from its basic code alone, so a
 * `550` always says `5.1.1`, while the relay's one error table (core/api-errors.ts) gives
 * each refusal its own (`550 5.7.1` for an unverified domain, `451 4.7.1` for the rate limit).
 * This wrapper lets a reply text that starts with its own enhanced code keep it, instead of
 * having a second one put in front; every other reply is left as smtp-server makes it.
 * Applied once, to the library's connection class (it has no option for this).
 */
const ENHANCED = /^[245]\.\d{1,3}\.\d{1,3} /;
type Send = (this: { secure?: boolean }, code: number, data?: unknown, context?: unknown) => unknown;
const proto = SMTPConnection.prototype as unknown as { send: Send; __posthornEnhanced?: boolean };
if (!proto.__posthornEnhanced) {
  const original = proto.send;
  proto.send = function send(code, data, context) {
    // RFC 4954 §6: AUTH attempted before TLS is `538 5.7.11 Encryption required for requested
    // authentication mechanism` (smtp-server's own text has no enhanced code of its own).
    if (code === 538)
      return original.call(
        this,
        code,
        '5.7.11 Encryption required for requested authentication mechanism; issue STARTTLS first',
        false,
      );
    // RFC 4954 §4: AUTH is offered only under TLS, so no password crosses the network in clear.
    // smtp-server lists it in every EHLO reply (the only multi-line 250 it sends), so the line is
    // dropped before STARTTLS.
    if (code === 250 && Array.isArray(data) && !this.secure) {
      return original.call(
        this,
        code,
        data.filter((line) => !(typeof line === 'string' && /^AUTH\b/.test(line))),
        context,
      );
    }
    return original.call(this, code, data, typeof data === 'string' && ENHANCED.test(data) ? false : context);
  };
  proto.__posthornEnhanced = true;
}

/**
 * The reply text for a refusal: enhanced code first, so the wrapper above keeps it. Reply text is
 * printable US-ASCII (RFC 5321 §4.2: textstring is HT and %d32-126), so the `§` of our RFC
 * references becomes `section`, and any other character (from an echoed address or header) `?`.
 */
export function replyText(enhanced: string, message: string): string {
  return `${enhanced} ${message.replace(/§ ?/g, 'section ').replace(/[^\t\x20-\x7e]/g, '?')}`;
}
