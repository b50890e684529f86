/**
 * The pieces of nodemailer's `lib/` that Posthorn uses, in one place. They are not nodemailer's
 * documented API (that is its transports and `SMTPConnection`, which src/delivery/smtp/ imports
 * directly), and CONTRIBUTING.md says not to reach into a library's internals; these are kept
 * because no maintained library does them as well: RFC 2047 encoded-words and header folding,
 * quoted-printable with soft line breaks (RFC 2045 §6.7), an address-list parser that knows group
 * syntax and quoted commas (RFC 5322 §3.4), and the DATA stream's dot-stuffing (RFC 5321 §4.5.2).
 *
 * Every other file imports them from here, so an upgrade of nodemailer has one file to look at,
 * and test/unit/mime/nodemailer-lib.test.ts pins what each gives for known input: a change in
 * nodemailer that would change the mail Posthorn writes fails that test first.
 */
import addressparser from 'nodemailer/lib/addressparser/index.js';
import mimeFuncs from 'nodemailer/lib/mime-funcs/index.js';
import qp from 'nodemailer/lib/qp/index.js';
import DataStream from 'nodemailer/lib/smtp-connection/data-stream.js';

// mime-funcs' functions call each other through `this`: each is called on its module, not detached.

/** True when `value` is printable ASCII that needs no encoding in a header. */
export function isPlainText(value: string): boolean {
  return mimeFuncs.isPlainText(value);
}

/** True when some line of `str` is longer than `lineLength`. */
export function hasLongerLines(str: string, lineLength: number): boolean {
  return mimeFuncs.hasLongerLines(str, lineLength);
}

/** The whole of `data` as RFC 2047 encoded-words (UTF-8), each at most `maxLength` long. */
export function encodeWord(data: string, encoding: 'Q' | 'B', maxLength: number): string {
  return mimeFuncs.encodeWord(data, encoding, maxLength);
}

/** `value` with only its non-ASCII words turned into RFC 2047 encoded-words. */
export function encodeWords(value: string, encoding: 'Q' | 'B', maxLength: number): string {
  return mimeFuncs.encodeWords(value, encoding, maxLength);
}

/** A header line folded at whitespace into lines of at most `lineLength` (RFC 5322 §2.2.3), joined by CRLF. */
export function foldLines(str: string, lineLength: number): string {
  return mimeFuncs.foldLines(str, lineLength);
}

/** A structured header value (`text/html; charset=utf-8`): the value and its parameters, names lower-cased. */
export function parseHeaderValue(str: string): { value: string; params: Record<string, string> } {
  const parsed = mimeFuncs.parseHeaderValue(str);
  return { value: String(parsed.value ?? ''), params: parsed.params as Record<string, string> };
}

/**
 * The media type a file name's extension stands for (`report.pdf` → application/pdf), or
 * application/octet-stream for an unknown one: nodemailer's table, which its own composer uses for
 * attachments given without a type.
 */
export function detectMimeType(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return String(mimeFuncs.detectMimeType(dot === -1 ? '' : filename.slice(dot + 1).toLowerCase()));
}

/**
 * A structured header value from its value and parameters (`attachment; filename="a b.pdf"`): a
 * parameter with non-ASCII or over 75 characters is written in RFC 2231 §3–4 form
 * (`filename*0*=utf-8''…`, continuations of at most 50 characters), others quoted as RFC 2045 §5.1 asks.
 */
export function buildHeaderValue(value: string, params: Record<string, string>): string {
  return mimeFuncs.buildHeaderValue({ value, params });
}

/** Quoted-printable of `data` (RFC 2045 §6.7), without line breaks: wrap with qpWrap. */
export function qpEncode(data: Buffer | string): string {
  return qp.encode(data);
}

/** Quoted-printable text cut into lines of at most `lineLength` with soft line breaks (`=` CRLF). */
export function qpWrap(encoded: string, lineLength: number): string {
  return qp.wrap(encoded, lineLength);
}

/** The mailboxes of an address list, groups flattened (an empty group gives none). */
export function parseAddressList(value: string): { name: string; address: string }[] {
  return addressparser(value, { flatten: true });
}

/**
 * The stream `SMTPConnection.send()` pipes the message into after DATA's 354: it dot-stuffs lines
 * that start with `.` and ends the data with `CRLF . CRLF`. src/delivery/smtp/smtp-session.ts writes
 * the message into it itself, so it needs the class to recognise it.
 */
export { DataStream };
