import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { convert } from 'html-to-text';
import type { MessageDraft } from './message-draft.js';

/** Spec 4.1: `text` is generated from the HTML when omitted. */
export function textFromHtml(html: string): string {
  return convert(html, { wordwrap: 78, selectors: [{ selector: 'a', options: { hideLinkHrefIfSameAsText: true } }, { selector: 'img', format: 'skip' }] });
}

/**
 * Renders a draft to an RFC 5322 message with nodemailer's MailComposer: multipart/alternative
 * when there is HTML, RFC 2047 encoded headers, lines folded under 998 octets (RFC 5322 §2.1.1).
 * Deterministic in content (not in MIME boundaries), so it can run in the delivery engine.
 */
export async function renderMime(draft: MessageDraft): Promise<Buffer> {
  const text = draft.text ?? (draft.html !== null ? textFromHtml(draft.html) : '');
  const composer = new MailComposer({
    from: draft.from,
    to: draft.to,
    subject: draft.subject,
    messageId: draft.messageId,
    date: draft.date,
    text,
    ...(draft.html !== null ? { html: draft.html } : {}),
    headers: draft.headers.map(([key, value]) => ({ key, value })),
  });
  return composer.compile().build();
}
