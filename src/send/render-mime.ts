import { randomBytes } from 'node:crypto';
import { convert } from 'html-to-text';
import mimeFuncs from 'nodemailer/lib/mime-funcs/index.js';
import qp from 'nodemailer/lib/qp/index.js';
import type { MessageDraft } from './message-draft.js';

/** Spec 4.1: `text` is generated from the HTML when omitted. */
export function textFromHtml(html: string): string {
  return convert(html, { wordwrap: 78, selectors: [{ selector: 'a', options: { hideLinkHrefIfSameAsText: true } }, { selector: 'img', format: 'skip' }] });
}

/** A header line folded under 78 characters (RFC 5322 §2.2.3), non-ASCII words encoded (RFC 2047). */
function header(name: string, value: string): string {
  const encoded = mimeFuncs.isPlainText(value) ? value : mimeFuncs.encodeWords(value, 'Q', 52);
  return mimeFuncs.foldLines(`${name}: ${encoded}`.trimEnd(), 76);
}

// RFC 5322 §3.2.3 atext plus the space: a display name made of these needs no quoting.
const PLAIN_PHRASE = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~ -]*$/;

/** `Name <addr>`: the name quoted or encoded as needed, the address as is. */
export function mailbox(m: { name: string; address: string }): string {
  if (m.name === '') return m.address;
  if (!mimeFuncs.isPlainText(m.name)) return `${mimeFuncs.encodeWords(m.name, 'Q', 52)} <${m.address}>`;
  if (PLAIN_PHRASE.test(m.name)) return `${m.name} <${m.address}>`;
  return `"${m.name.replace(/(["\\])/g, '\\$1')}" <${m.address}>`;
}

/**
 * Parts longer than this that need encoding are base64, not quoted-printable: nodemailer's QP
 * encoder takes ~2 s and ~400 MB for a 9 MiB part, base64 (RFC 2045 §6.8) a few ms in native code.
 */
const QP_MAX_CHARS = 64 * 1024;

/** RFC 2045 §6.8: base64 in lines of at most 76 characters. */
function base64Lines(content: string): string {
  return Buffer.from(content, 'utf8').toString('base64').replace(/.{76}/g, '$&\r\n');
}

/**
 * A body part: 7bit when it is ASCII with short lines, else quoted-printable (base64 when large),
 * so no line of the message exceeds 998 octets (RFC 5322 §2.1.1) and 8-bit content survives any relay.
 */
function part(type: 'text/plain' | 'text/html', content: string): string {
  const normalized = content.replace(/\r?\n/g, '\r\n');
  const plain = mimeFuncs.isPlainText(normalized) && !mimeFuncs.hasLongerLines(normalized, 76);
  const encoding = plain ? '7bit' : normalized.length > QP_MAX_CHARS ? 'base64' : 'quoted-printable';
  const body = encoding === '7bit' ? normalized : encoding === 'base64' ? base64Lines(normalized) : qp.wrap(qp.encode(normalized), 76);
  return `Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: ${encoding}\r\n\r\n${body}`;
}

/**
 * Renders a draft to an RFC 5322 message: multipart/alternative when there is HTML. Written from
 * nodemailer's header and quoted-printable encoders rather than its streaming MailComposer, which
 * measured at about 1 ms per message — a third of the delivery engine's budget (bench/deliver.ts).
 * Tests parse the result back with mailparser.
 */
export function renderMime(draft: MessageDraft): Buffer {
  const text = draft.text ?? (draft.html !== null ? textFromHtml(draft.html) : '');
  const lines = [
    header('From', mailbox(draft.from)),
    header('To', draft.to.map(mailbox).join(', ')),
    header('Subject', draft.subject),
    `Message-ID: ${draft.messageId}`,
    `Date: ${draft.date}`,
    'MIME-Version: 1.0',
    ...draft.headers.map(([name, value]) => header(name, value)),
  ];
  if (draft.html === null) return Buffer.from(`${lines.join('\r\n')}\r\n${part('text/plain', text)}\r\n`, 'utf8');
  const boundary = `----=_Posthorn_${randomBytes(12).toString('hex')}`;
  const body = [`--${boundary}`, part('text/plain', text), `--${boundary}`, part('text/html', draft.html), `--${boundary}--`, ''].join('\r\n');
  return Buffer.from(`${lines.join('\r\n')}\r\nContent-Type: multipart/alternative; boundary="${boundary}"\r\n\r\n${body}`, 'utf8');
}
