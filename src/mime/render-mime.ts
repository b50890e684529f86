import { randomBytes } from 'node:crypto';
import { convert } from 'html-to-text';
import type { MessageDraft } from './message-draft.js';
import { encodeWord, encodeWords, foldLines, hasLongerLines, isPlainText, qpEncode, qpWrap } from './nodemailer-lib.js';

const HTML_TO_TEXT = {
  wordwrap: 78,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'skip' },
  ],
};

/** HTML longer than this is converted in slices (below). */
const TEXT_SLICE_CHARS = 256 * 1024;
/** The end of a block element, where a slice may end without cutting a paragraph. */
const BLOCK_END = /<\/(?:p|div|li|ul|ol|table|h[1-6]|blockquote|pre|section|article|tr)\s*>|<br\s*\/?>/gi;

/**
 * The text alternative generated when a message has only HTML (docs/api.md). html-to-text builds
 * a whole document tree, about 15 times the HTML's size (some 130 MB for 9 MiB), so HTML over
 * TEXT_SLICE_CHARS is converted slice by slice, each slice ending after a block element, and the
 * results joined: memory stays bounded by a slice. A table or list longer than a slice may break
 * into two blocks at the cut; the text is otherwise the same.
 */
export function textFromHtml(html: string): string {
  if (html.length <= TEXT_SLICE_CHARS) return convert(html, HTML_TO_TEXT);
  const parts: string[] = [];
  let start = 0;
  while (start < html.length) {
    let end = html.length;
    if (html.length - start > TEXT_SLICE_CHARS) {
      BLOCK_END.lastIndex = start + TEXT_SLICE_CHARS;
      const m = BLOCK_END.exec(html);
      // Without a block end nearby, cut after the next tag rather than inside one.
      end =
        m !== null && m.index - start < 2 * TEXT_SLICE_CHARS
          ? m.index + m[0].length
          : Math.max(html.indexOf('>', start + TEXT_SLICE_CHARS) + 1, start + TEXT_SLICE_CHARS);
    }
    const text = convert(html.slice(start, end), HTML_TO_TEXT);
    if (text !== '') parts.push(text);
    start = end;
  }
  return parts.join('\n\n');
}

/** RFC 5322 §2.1.1: a line is at most 998 octets before its CRLF. */
const MAX_LINE = 998;

/**
 * A header line folded under 78 characters (RFC 5322 §2.2.3), non-ASCII words encoded (RFC 2047),
 * or null when a line would still be over 998 octets (RFC 5322 §2.1.1). Folding happens only at
 * whitespace, so a value with a longer run (a long word, a URL) cannot be folded.
 */
export function foldHeader(name: string, value: string): string | null {
  const encoded = isPlainText(value) ? value : encodeWords(value, 'Q', 52);
  const folded = foldLines(`${name}: ${encoded}`.trimEnd(), 76);
  return folded.split('\r\n').some((line) => Buffer.byteLength(line) > MAX_LINE) ? null : folded;
}

/**
 * A header line that fits (foldHeader). An unstructured value (Subject, RFC 5322 §3.6.5) that does
 * not fold is sent as RFC 2047 encoded-words, which split anywhere and decode to the same text. A
 * structured one cannot be split that way: custom headers are refused at validation when they do
 * not fold (src/send/custom-headers.ts), so this throws only for a value that skipped it.
 */
function header(name: string, value: string, unstructured = false): string {
  const folded = foldHeader(name, value);
  if (folded !== null) return folded;
  if (unstructured) return foldLines(`${name}: ${encodeWord(value, 'Q', 52)}`, 76);
  throw new Error(`header ${name} has a line over ${MAX_LINE} octets that cannot be folded (RFC 5322 §2.1.1)`);
}

// RFC 5322 §3.2.3 atext plus the space: a display name made of these needs no quoting.
const PLAIN_PHRASE = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~ -]*$/;
/** A run this long without a space could not be folded onto a line of its own. */
const LONG_RUN = /\S{77,}/;

/**
 * `Name <addr>`: the name quoted or encoded as needed, the address as is. A name with non-ASCII
 * characters is encoded as a whole (RFC 2047 §5(3): in a phrase the `Q` encoding also encodes
 * specials such as the comma), so "Ann, Bé" stays one mailbox: encoding only the non-ASCII word
 * would leave a bare comma that splits the field into two addresses.
 */
export function mailbox(m: { name: string; address: string }): string {
  if (m.name === '') return m.address;
  if (!isPlainText(m.name) || LONG_RUN.test(m.name)) return `${encodeWord(m.name, 'Q', 52)} <${m.address}>`;
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
 * so no line of the message exceeds 998 octets (RFC 5322 §2.1.1) and 8-bit content survives any relay. Every line
 * break (CRLF, a lone LF or a lone CR) becomes CRLF first: RFC 5322 §2.3 allows CR and LF only
 * together, and a bare one left in the part is the precondition for SMTP smuggling at a lenient
 * next hop (quoted-printable encoding keeps a bare CR as it is, so normalising is the fix).
 */
function part(type: 'text/plain' | 'text/html', content: string): string {
  const normalized = content.replace(/\r\n|\r|\n/g, '\r\n');
  const plain = isPlainText(normalized) && !hasLongerLines(normalized, 76);
  const encoding = plain ? '7bit' : normalized.length > QP_MAX_CHARS ? 'base64' : 'quoted-printable';
  const body =
    encoding === '7bit'
      ? normalized
      : encoding === 'base64'
        ? base64Lines(normalized)
        : qpWrap(qpEncode(normalized), 76);
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
    header('Subject', draft.subject, true),
    `Message-ID: ${draft.messageId}`,
    `Date: ${draft.date}`,
    'MIME-Version: 1.0',
    ...draft.headers.map(([name, value]) => header(name, value)),
  ];
  if (draft.html === null) return Buffer.from(`${lines.join('\r\n')}\r\n${part('text/plain', text)}\r\n`, 'utf8');
  const boundary = `----=_Posthorn_${randomBytes(12).toString('hex')}`;
  const body = [
    `--${boundary}`,
    part('text/plain', text),
    `--${boundary}`,
    part('text/html', draft.html),
    `--${boundary}--`,
    '',
  ].join('\r\n');
  return Buffer.from(
    `${lines.join('\r\n')}\r\nContent-Type: multipart/alternative; boundary="${boundary}"\r\n\r\n${body}`,
    'utf8',
  );
}
