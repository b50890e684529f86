/**
 * The `Feedback-ID` header (docs/delivery.md, Feedback-ID): Gmail's feedback loop reports
 * complaint rates per value of each of its colon-separated fields, `a:b:c:SenderId`, at most four,
 * the last one constant for the sender. Posthorn's fields are the campaign (the message's first
 * tag), the account, the sending domain and POSTHORN_FEEDBACK_SENDER_ID. It is added before DKIM
 * signing, and dkim-sign.ts signs it (SIGNED_HEADERS), so it cannot be changed on the way.
 */

/** The campaign field of a message without tags. */
export const UNTAGGED = 'untagged';
/** A field's longest length: the header stays one short line however long a tag is. */
const FIELD_MAX = 64;

/** One field: colons (the separator), spaces and anything outside printable ASCII become `_`. */
function field(value: string): string {
  const clean = value.replace(/[^\x21-\x7e]|:/g, '_').slice(0, FIELD_MAX);
  return clean === '' ? '_' : clean;
}

/** The header's value for a message of `accountId` sent from `domain` with `tags`. */
export function feedbackId(
  m: { tags: readonly string[]; accountId: string; domain: string },
  senderId: string,
): string {
  return [m.tags[0] ?? UNTAGGED, m.accountId, m.domain, senderId].map(field).join(':');
}

/** The whole header field, CRLF-terminated, to put before the message's own header. */
export function feedbackIdField(
  m: { tags: readonly string[]; accountId: string; domain: string },
  senderId: string,
): string {
  return `Feedback-ID: ${feedbackId(m, senderId)}\r\n`;
}
