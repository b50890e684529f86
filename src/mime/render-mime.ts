import { createHash } from 'node:crypto';
import { compile } from 'html-to-text';
import type { MessageDraft } from './message-draft.js';
import { encodeWord, encodeWords, foldLines, hasLongerLines, isPlainText, qpEncode, qpWrap } from './nodemailer-lib.js';

/**
 * html-to-text's converter, compiled once: its convert() compiles the options again on every call,
 * which measured at about four fifths of the time for a 3 KB message (5 ms instead of 0.9 ms), spent
 * on the main thread for every small html message sent without text.
 */
const convert = compile({
  wordwrap: 78,
  selectors: [
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    { selector: 'img', format: 'skip' },
  ],
});

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
  if (html.length <= TEXT_SLICE_CHARS) return convert(html);
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
    const text = convert(html.slice(start, end));
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
 * Content longer than this is encoded slice by slice (largePart). Above 128 KiB nodemailer's
 * hasLongerLines answers true without looking, so part() always picks base64 for such content:
 * the sliced path gives the same bytes without holding the normalized text, its UTF-8 bytes, its
 * base64 and the joined message as four whole copies (about 180 MB for a 9 MiB tracked html).
 */
export const LARGE_PART_CHARS = 128 * 1024;
/** Characters normalized and encoded at a time in the sliced path. */
const SLICE_CHARS = 64 * 1024;
/** RFC 2045 §6.8: 57 bytes are one full base64 line of 76 characters. */
const LINE_BYTES = 57;
const LINE_CHARS = 76;

/** A piece of the rendered message: literal text, or content to normalize and encode as base64 lines. */
type Piece = string | { base64: string };

/**
 * The content in slices with every line break made CRLF, as part() normalizes it whole. A slice never
 * ends on a CR (its LF would be in the next slice and be normalized on its own) nor between the two
 * halves of a surrogate pair (each half alone would become U+FFFD in UTF-8).
 */
export function* normalizedSlices(content: string, sliceChars = SLICE_CHARS): Generator<string> {
  if (sliceChars < 2) throw new Error('slices hold at least two characters');
  let start = 0;
  while (start < content.length) {
    let end = Math.min(content.length, start + sliceChars);
    if (end < content.length) {
      const last = content.charCodeAt(end - 1);
      if (last === 0x0d || (last >= 0xd800 && last <= 0xdbff)) end--;
    }
    yield content.slice(start, end).replace(/\r\n|\r|\n/g, '\r\n');
    start = end;
  }
}

/** Octets of `content` as base64Lines would write it: measured slice by slice, nothing encoded. */
function base64LinesSize(content: string, sliceChars: number): number {
  let bytes = 0;
  for (const slice of normalizedSlices(content, sliceChars)) bytes += Buffer.byteLength(slice, 'utf8');
  const chars = 4 * Math.ceil(bytes / 3);
  return chars + 2 * Math.floor(chars / LINE_CHARS);
}

/**
 * Writes `content` normalized, as UTF-8, in base64 lines (base64Lines' exact output) into `out` at
 * `pos`; returns the position after it. Whole lines are encoded from each slice's bytes and the
 * remainder (under 57 bytes) carried to the next, so only a slice is ever held twice.
 */
function writeBase64Lines(out: Buffer, pos: number, content: string, sliceChars: number): number {
  // A slice's UTF-8 is at most 3 bytes per UTF-16 unit, and a line break may grow from one unit to two.
  const scratch = Buffer.allocUnsafe(LINE_BYTES + 6 * sliceChars);
  let held = 0;
  for (const slice of normalizedSlices(content, sliceChars)) {
    held += scratch.write(slice, held, 'utf8');
    const whole = held - (held % LINE_BYTES);
    const b64 = scratch.toString('base64', 0, whole);
    for (let i = 0; i < b64.length; i += LINE_CHARS) {
      pos += out.write(b64.slice(i, i + LINE_CHARS), pos, 'latin1');
      pos += out.write('\r\n', pos, 'latin1');
    }
    scratch.copy(scratch, 0, whole, held);
    held -= whole;
  }
  if (held > 0) pos += out.write(scratch.toString('base64', 0, held), pos, 'latin1');
  return pos;
}

/** part() as pieces: content over LARGE_PART_CHARS left to be encoded in slices by joinPieces. */
function partPieces(type: 'text/plain' | 'text/html', content: string): Piece[] {
  if (content.length <= LARGE_PART_CHARS) return [part(type, content)];
  return [`Content-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n`, { base64: content }];
}

/**
 * The pieces written into one buffer of exactly their size, after `room` bytes left free for the
 * caller (delivery/render-stored.ts puts the DKIM-Signature fields there). The buffer owns its memory (not
 * Buffer's shared pool), so an offload thread can transfer it without a copy (offload-worker.ts).
 */
export function joinPieces(pieces: Piece[], sliceChars = SLICE_CHARS, room = 0): Buffer {
  let size = room;
  for (const p of pieces)
    size += typeof p === 'string' ? Buffer.byteLength(p, 'utf8') : base64LinesSize(p.base64, sliceChars);
  const out = Buffer.allocUnsafeSlow(size);
  let pos = room;
  for (const p of pieces)
    pos = typeof p === 'string' ? pos + out.write(p, pos, 'utf8') : writeBase64Lines(out, pos, p.base64, sliceChars);
  if (pos !== size) throw new Error(`rendered ${pos} octets into a buffer of ${size}`);
  return out;
}

/**
 * A multipart boundary (RFC 2046 §5.1.1) derived from the message's Message-ID and the part it
 * delimits, not drawn at random: rendering a draft again then gives the very bytes that were signed
 * and delivered (messages/message-source.ts checks them against the digest stored at signing). It
 * cannot occur in the parts: `=_` is never produced by quoted-printable or base64, and a 7bit part
 * would have to contain a hash of a Message-ID that is made only after its content was submitted.
 * Every boundary a rendering uses must come from here, each with its own `label`.
 */
export function mimeBoundary(messageId: string, label: string): string {
  const hash = createHash('sha256').update(`posthorn-boundary\0${messageId}\0${label}`).digest('hex');
  return `----=_Posthorn_${hash.slice(0, 24)}`;
}

/**
 * Renders a draft to an RFC 5322 message: multipart/alternative when there is HTML. Written from
 * nodemailer's header and quoted-printable encoders rather than its streaming MailComposer, which
 * measured at about 1 ms per message — a third of the delivery engine's budget (bench/deliver.ts).
 * Tests parse the result back with mailparser. With `room`, the message starts that many bytes into
 * the returned buffer (joinPieces). The same draft always renders to the same bytes (see
 * mimeBoundary), which is what lets GET /v1/messages/{id}/content give back the source as delivered.
 */
export function renderMime(draft: MessageDraft, room = 0): Buffer {
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
  if (draft.html === null)
    return joinPieces([`${lines.join('\r\n')}\r\n`, ...partPieces('text/plain', text), '\r\n'], SLICE_CHARS, room);
  const boundary = mimeBoundary(draft.messageId, 'alternative');
  return joinPieces(
    [
      `${lines.join('\r\n')}\r\nContent-Type: multipart/alternative; boundary="${boundary}"\r\n\r\n--${boundary}\r\n`,
      ...partPieces('text/plain', text),
      `\r\n--${boundary}\r\n`,
      ...partPieces('text/html', draft.html),
      `\r\n--${boundary}--\r\n`,
    ],
    SLICE_CHARS,
    room,
  );
}
