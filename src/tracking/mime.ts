import { TextDecoder } from 'node:util';
import { parseHeaderValue, qpEncode, qpWrap } from '../mime/nodemailer-lib.js';
import { rewriteHtml, type HtmlTracking } from './html.js';

/**
 * Open and click tracking inside a relayed message's own MIME (the relay keeps a message's bytes): only
 * text/html leaf parts are rewritten, never one inside an attached message (message/*) nor one
 * marked as an attachment; every byte outside a rewritten part is unchanged. The message is
 * handled as a latin1 string (one char per byte) with CRLF line ends (the relay's data guard).
 */

const MAX_DEPTH = 20;
/** RFC 5322 §2.1.1: a line is at most 998 octets before CRLF. */
const MAX_LINE = 998;
/** Charsets in which bytes below 0x80 are not ASCII, so tags cannot be found byte-wise. */
const NOT_ASCII_COMPATIBLE = /^(utf-?16|utf-?32|ucs-?2|utf-?7|unicode)/i;

interface Field {
  name: string;
  value: string;
  start: number;
  end: number;
}

/** The header fields of an entity (unfolded values, offsets of each field incl. its CRLF) and where its body starts. */
function splitEntity(s: string): { fields: Field[]; bodyStart: number } {
  if (s.startsWith('\r\n')) return { fields: [], bodyStart: 2 };
  const end = s.indexOf('\r\n\r\n');
  const headEnd = end === -1 ? s.length : end + 2;
  const fields: Field[] = [];
  const re = /([^\r\n]*)\r\n((?:[ \t][^\r\n]*\r\n)*)/y;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (re.lastIndex < headEnd && (m = re.exec(s)) !== null) {
    const text = (m[1] as string) + (m[2] as string).replace(/\r\n/g, '');
    const colon = text.indexOf(':');
    if (colon > 0)
      fields.push({
        name: text.slice(0, colon).trim().toLowerCase(),
        value: text.slice(colon + 1).trim(),
        start: m.index,
        end: re.lastIndex,
      });
  }
  return { fields, bodyStart: end === -1 ? s.length : end + 4 };
}

const field = (fields: Field[], name: string): Field | undefined => fields.find((f) => f.name === name);

/** The parts of a multipart body: offsets of each part's content between its delimiter lines (RFC 2046 §5.1.1). */
function multipartParts(body: string, boundary: string): { start: number; end: number }[] {
  const parts: { start: number; end: number }[] = [];
  const delimiter = `--${boundary}`;
  let from = body.startsWith(delimiter) ? 0 : -1;
  let at = from === 0 ? 0 : body.indexOf(`\r\n${delimiter}`);
  if (at === -1) return [];
  let contentStart = -1;
  while (at !== -1) {
    const lineStart = from === 0 && at === 0 ? 0 : at + 2;
    from = -1;
    const afterName = lineStart + delimiter.length;
    const lineEnd = body.indexOf('\r\n', afterName);
    const rest = body.slice(afterName, lineEnd === -1 ? body.length : lineEnd);
    const close = rest.startsWith('--');
    if (close || /^[ \t]*$/.test(rest)) {
      if (contentStart !== -1) parts.push({ start: contentStart, end: at });
      if (close || lineEnd === -1) return parts;
      contentStart = lineEnd + 2;
    }
    at = body.indexOf(`\r\n${delimiter}`, afterName);
  }
  return parts;
}

function decodeQp(s: string): string {
  return s
    .replace(/=[ \t]*\r\n/g, '')
    .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function base64Lines(bytes: Buffer): string {
  return (bytes.toString('base64').match(/.{1,76}/g) ?? []).join('\r\n');
}

/** Turns a latin1 byte string of `charset` into text, or null when the charset is unknown. */
function charsetDecoder(charset: string | undefined): ((raw: string) => string) | null {
  const name = (charset ?? 'us-ascii').trim().toLowerCase();
  if (NOT_ASCII_COMPATIBLE.test(name)) return null;
  if (name === 'iso-8859-1' || name === 'latin1') return (raw) => raw;
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(name === 'us-ascii' || name === 'ascii' ? 'utf-8' : name);
  } catch {
    return null;
  }
  return (raw) => decoder.decode(Buffer.from(raw, 'latin1'));
}

interface State {
  tracking: HtmlTracking;
  pixelPlaced: boolean;
}

/** A rewritten html leaf entity (headers and body), or null to leave it as it is. */
function rewriteHtmlPart(
  entity: string,
  fields: Field[],
  bodyStart: number,
  params: Record<string, string>,
  state: State,
): string | null {
  const disposition = field(fields, 'content-disposition');
  if (disposition && /^attachment\b/i.test(disposition.value)) return null;
  const decodeText = charsetDecoder(params.charset);
  if (decodeText === null) return null;
  const cteField = field(fields, 'content-transfer-encoding');
  const cte = (cteField?.value ?? '7bit').toLowerCase();
  const body = entity.slice(bodyStart);
  let decoded: string;
  if (cte === 'quoted-printable') decoded = decodeQp(body);
  else if (cte === 'base64') decoded = Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64').toString('latin1');
  else if (cte === '7bit' || cte === '8bit' || cte === 'binary') decoded = body;
  else return null;
  const rewritten = rewriteHtml(decoded, {
    ...state.tracking,
    pixelUrl: state.pixelPlaced ? null : state.tracking.pixelUrl,
    decodeText,
  });
  if (rewritten === decoded) return null;
  if (state.tracking.pixelUrl !== null) state.pixelPlaced = true;
  const head = entity.slice(0, bodyStart);
  if (cte === 'quoted-printable') return head + qpBody(rewritten);
  if (cte === 'base64')
    return head + base64Lines(Buffer.from(rewritten, 'latin1')) + (body.endsWith('\r\n') ? '\r\n' : '');
  if (!rewritten.split('\r\n').some((line) => line.length > MAX_LINE)) return head + rewritten;
  // A long tracked URL can push a line over 998 octets: the part becomes quoted-printable.
  const cteLine = 'Content-Transfer-Encoding: quoted-printable\r\n';
  const newHead = cteField
    ? head.slice(0, cteField.start) + cteLine + head.slice(cteField.end)
    : head.slice(0, -2) + cteLine + head.slice(-2);
  return newHead + qpBody(rewritten);
}

/**
 * Quoted-printable for a rewritten html body. A decoded quoted-printable part may hold a bare CR or
 * LF (`=0D`), which nodemailer's encoder would write out raw: every line break becomes CRLF first
 * (the same to HTML), so no bare CR or LF goes out (RFC 5321 §2.3.8, SMTP smuggling).
 */
function qpBody(text: string): string {
  return qpWrap(qpEncode(Buffer.from(text.replace(/\r\n|\r|\n/g, '\r\n'), 'latin1')), 76);
}

function rewriteEntity(entity: string, depth: number, state: State): string {
  const { fields, bodyStart } = splitEntity(entity);
  const ct = field(fields, 'content-type');
  const parsed = ct ? parseHeaderValue(ct.value) : { value: 'text/plain', params: {} as Record<string, string> };
  const type = (parsed.value || 'text/plain').toLowerCase();
  const params = parsed.params;
  if (type === 'text/html') return rewriteHtmlPart(entity, fields, bodyStart, params, state) ?? entity;
  if (!type.startsWith('multipart/') || depth >= MAX_DEPTH || !params.boundary) return entity;
  const body = entity.slice(bodyStart);
  let out = '';
  let pos = 0;
  for (const p of multipartParts(body, params.boundary)) {
    out += body.slice(pos, p.start) + rewriteEntity(body.slice(p.start, p.end), depth + 1, state);
    pos = p.end;
  }
  return entity.slice(0, bodyStart) + out + body.slice(pos);
}

/**
 * The message (latin1) with its html parts tracked as `tracking` says: the pixel in the first html
 * part that is not an attachment, links rewritten in all of them.
 */
export function trackMimeHtml(message: string, tracking: HtmlTracking): string {
  return rewriteEntity(message, 0, { tracking, pixelPlaced: false });
}

/** The decoded html bodies (latin1 byte strings) of a message, found as trackMimeHtml finds them. */
export function htmlBodies(message: string): string[] {
  const out: string[] = [];
  const walk = (entity: string, depth: number): void => {
    const { fields, bodyStart } = splitEntity(entity);
    const ct = field(fields, 'content-type');
    const parsed = ct ? parseHeaderValue(ct.value) : { value: 'text/plain', params: {} as Record<string, string> };
    const type = (parsed.value || 'text/plain').toLowerCase();
    const params = parsed.params;
    const body = entity.slice(bodyStart);
    if (type === 'text/html') {
      const cte = (field(fields, 'content-transfer-encoding')?.value ?? '7bit').toLowerCase();
      out.push(
        cte === 'quoted-printable'
          ? decodeQp(body)
          : cte === 'base64'
            ? Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64').toString('latin1')
            : body,
      );
    } else if (type.startsWith('multipart/') && depth < MAX_DEPTH && params.boundary) {
      for (const p of multipartParts(body, params.boundary)) walk(body.slice(p.start, p.end), depth + 1);
    }
  };
  walk(message, 0);
  return out;
}
