import { createHash } from 'node:crypto';
import { compile } from 'html-to-text';
import type { DraftAttachment, MessageDraft } from './message-draft.js';
import {
  buildHeaderValue,
  encodeWord,
  encodeWords,
  foldLines,
  hasLongerLines,
  isPlainText,
  qpEncode,
  qpWrap,
} from './nodemailer-lib.js';

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

/**
 * A piece of the rendered message: literal text, content to normalize and encode as base64 lines,
 * or text that is base64 already (an attachment), to cut into lines.
 */
type Piece = string | { base64: string } | { lines: string };

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

/** Octets of base64 text cut into lines of 76 with CRLF between them (RFC 2045 §6.8). */
function cutLinesSize(base64: string): number {
  return base64.length + 2 * Math.max(0, Math.ceil(base64.length / LINE_CHARS) - 1);
}

/** Writes base64 text (ASCII) in lines of 76 characters, CRLF between them; returns the position after it. */
function writeCutLines(out: Buffer, pos: number, base64: string): number {
  for (let i = 0; i < base64.length; i += LINE_CHARS) {
    if (i > 0) pos += out.write('\r\n', pos, 'latin1');
    pos += out.write(base64.slice(i, i + LINE_CHARS), pos, 'latin1');
  }
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
    size +=
      typeof p === 'string'
        ? Buffer.byteLength(p, 'utf8')
        : 'base64' in p
          ? base64LinesSize(p.base64, sliceChars)
          : cutLinesSize(p.lines);
  const out = Buffer.allocUnsafeSlow(size);
  let pos = room;
  for (const p of pieces)
    pos =
      typeof p === 'string'
        ? pos + out.write(p, pos, 'utf8')
        : 'base64' in p
          ? writeBase64Lines(out, pos, p.base64, sliceChars)
          : writeCutLines(out, pos, p.lines);
  if (pos !== size) throw new Error(`rendered ${pos} octets into a buffer of ${size}`);
  return out;
}

/** A multipart entity (RFC 2046 §5.1.1): its Content-Type and each part between delimiter lines. */
function multipart(messageId: string, subtype: 'mixed' | 'alternative' | 'related', parts: Piece[][]): Piece[] {
  // One of each subtype at most per message, so the subtype is a unique label.
  const b = mimeBoundary(messageId, subtype);
  const out: Piece[] = [`Content-Type: multipart/${subtype}; boundary="${b}"\r\n\r\n`];
  parts.forEach((part, i) => out.push(i === 0 ? `--${b}\r\n` : `\r\n--${b}\r\n`, ...part));
  out.push(`\r\n--${b}--\r\n`);
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
 * An attachment's entity: base64 (RFC 2045 §6.8), the file name as the RFC 2231 `filename`
 * parameter of Content-Disposition (RFC 2183) and, for older clients that read only that, an
 * RFC 2047-encoded `name` on Content-Type, as most mail software writes it. An inline part (one
 * with a content id) has its Content-ID (RFC 2392) and `inline` disposition.
 */
function attachmentPart(a: DraftAttachment): Piece[] {
  const encodedName = isPlainText(a.filename) ? a.filename : encodeWords(a.filename, 'Q', 52);
  const name = `"${encodedName.replace(/(["\\])/g, '\\$1')}"`;
  const disposition = buildHeaderValue(a.contentId === null ? 'attachment' : 'inline', { filename: a.filename });
  const lines = [
    foldLines(`Content-Type: ${a.contentType}; name=${name}`, 76),
    'Content-Transfer-Encoding: base64',
    foldLines(`Content-Disposition: ${disposition}`, 76),
    ...(a.contentId === null ? [] : [`Content-ID: <${a.contentId}>`]),
  ];
  return [`${lines.join('\r\n')}\r\n\r\n`, { lines: a.content }];
}

/**
 * The body entity of a draft: text/plain alone, or multipart/alternative with the html; inline
 * attachments go with the html in multipart/related (RFC 2387), the others after all of it in
 * multipart/mixed (RFC 2046 §5.1.3). A mail client shows the html with its images and lists the
 * files:
 *
 *     mixed ─┬─ alternative ─┬─ text/plain
 *            │               └─ related ─┬─ text/html
 *            │                           └─ inline images (Content-ID)
 *            └─ attachments
 *
 * Each level is left out when it would hold one part. Without html there is nothing to be inline
 * in, so every file goes in mixed.
 */
function bodyEntity(draft: MessageDraft, text: string): Piece[] {
  const files = draft.attachments ?? [];
  const inline = draft.html === null ? [] : files.filter((a) => a.contentId !== null);
  const attached = draft.html === null ? files : files.filter((a) => a.contentId === null);
  let body: Piece[];
  if (draft.html === null) body = partPieces('text/plain', text);
  else {
    const html = partPieces('text/html', draft.html);
    body = multipart(draft.messageId, 'alternative', [
      partPieces('text/plain', text),
      inline.length === 0 ? html : multipart(draft.messageId, 'related', [html, ...inline.map(attachmentPart)]),
    ]);
  }
  return attached.length === 0 ? body : multipart(draft.messageId, 'mixed', [body, ...attached.map(attachmentPart)]);
}

/**
 * Renders a draft to an RFC 5322 message: multipart/alternative when there is HTML, with the
 * attachments around it (bodyEntity). Written from nodemailer's header and quoted-printable
 * encoders rather than its streaming MailComposer, which measured at about 1 ms per message — a
 * third of the delivery engine's budget (bench/deliver.ts). Tests parse the result back with
 * mailparser. With `room`, the message starts that many bytes into the returned buffer
 * (joinPieces). A Bcc header is never written: blind copies are recipients of the delivery only
 * (RFC 5322 §3.6.3, the first way it describes). The same draft always renders to the same bytes
 * (see mimeBoundary), which is what lets GET /v1/messages/{id}/content give back the source as delivered.
 */
export function renderMime(draft: MessageDraft, room = 0): Buffer {
  const text = draft.text ?? (draft.html !== null ? textFromHtml(draft.html) : '');
  const lines = [
    header('From', mailbox(draft.from)),
    header('To', draft.to.map(mailbox).join(', ')),
    ...(draft.cc && draft.cc.length > 0 ? [header('Cc', draft.cc.map(mailbox).join(', '))] : []),
    ...(draft.replyTo && draft.replyTo.length > 0 ? [header('Reply-To', draft.replyTo.map(mailbox).join(', '))] : []),
    header('Subject', draft.subject, true),
    `Message-ID: ${draft.messageId}`,
    `Date: ${draft.date}`,
    'MIME-Version: 1.0',
    ...draft.headers.map(([name, value]) => header(name, value)),
  ];
  const body = bodyEntity(draft, text);
  // A single part ends with a line break of its own; a multipart's close delimiter brings one.
  const end = typeof body[0] === 'string' && body[0].startsWith('Content-Type: multipart/') ? [] : ['\r\n'];
  return joinPieces([`${lines.join('\r\n')}\r\n`, ...body, ...end], SLICE_CHARS, room);
}
