/**
 * A small MIME walker for inbound reports (src/feedback/parse-report.ts): enough of RFC 2045/2046
 * to find the parts of a multipart/report (RFC 6522) and the original message inside it. Bodies
 * are kept as latin1 strings (one char per byte) until a text part is read, so nothing is lost
 * before the charset is known.
 */

/** One header field, name in lower case, value unfolded (RFC 5322 §2.2.3); split-message.ts keeps the raw text instead. */
export interface MimeHeader {
  name: string;
  value: string;
}

/** A parsed entity: its headers, content type, and either child parts or a decoded body. */
export interface MimePart {
  headers: MimeHeader[];
  type: string;
  params: Record<string, string>;
  /** Decoded body bytes as a latin1 string (empty for multiparts). */
  body: string;
  parts: MimePart[];
}

/** Nesting beyond this is treated as an opaque body: reports nest two or three levels, not more. */
const MAX_DEPTH = 8;

/** Bytes of a report that are read at all: the report's own text comes first, the returned copy after it. */
export const MAX_REPORT_BYTES = 2 * 1024 * 1024;

/** Splits an entity at its first empty line into header block and body. */
function splitEntity(raw: string): { head: string; body: string } {
  // A part that opens with an empty line has no headers at all (RFC 2046 §5.1.1).
  const empty = /^\r?\n/.exec(raw);
  if (empty) return { head: '', body: raw.slice(empty[0].length) };
  const m = /\r?\n\r?\n/.exec(raw);
  if (!m) return /^[\x21-\x39\x3b-\x7e]+:/.test(raw) ? { head: raw, body: '' } : { head: '', body: raw };
  return { head: raw.slice(0, m.index), body: raw.slice(m.index + m[0].length) };
}

/** Parses a header block; lines that are neither fields nor continuations are skipped. */
export function parseHeaders(head: string): MimeHeader[] {
  const fields: MimeHeader[] = [];
  for (const line of head.split(/\r?\n/)) {
    const last = fields[fields.length - 1];
    if (/^[ \t]/.test(line) && last) {
      last.value = `${last.value} ${line.trim()}`.trim();
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    fields.push({ name: line.slice(0, colon).trim().toLowerCase(), value: line.slice(colon + 1).trim() });
  }
  return fields;
}

/** The first value of a header, or null. */
export function header(fields: readonly MimeHeader[], name: string): string | null {
  return fields.find((f) => f.name === name)?.value ?? null;
}

/** Content-Type (RFC 2045 §5.1): lower-cased type/subtype and parameters; text/plain when absent (RFC 2045 §5.2). */
export function parseContentType(value: string | null): { type: string; params: Record<string, string> } {
  if (value === null) return { type: 'text/plain', params: {} };
  const [first = '', ...rest] = value.split(';');
  const params: Record<string, string> = {};
  const re = /([\w!#$%&'*+.^`|~-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)/g;
  for (const m of rest.join(';').matchAll(re)) {
    const raw = m[2] ?? '';
    params[(m[1] as string).toLowerCase()] = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
  }
  const type = first.trim().toLowerCase();
  return { type: /^[\w.+-]+\/[\w.+-]+$/.test(type) ? type : 'text/plain', params };
}

function decodeTransfer(body: string, encoding: string | null): string {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64').toString('latin1');
    case 'quoted-printable':
      return body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    default:
      return body;
  }
}

/** Multipart body parts between `--boundary` delimiter lines (RFC 2046 §5.1.1); preamble and epilogue dropped. */
function splitMultipart(body: string, boundary: string): string[] {
  const chunks: string[] = [];
  let current: string[] | null = null;
  for (const line of body.split(/\r?\n/)) {
    const trimmed = line.trimEnd();
    if (trimmed === `--${boundary}--`) break;
    if (trimmed === `--${boundary}`) {
      if (current) chunks.push(current.join('\n'));
      current = [];
      continue;
    }
    current?.push(line);
  }
  if (current) chunks.push(current.join('\n'));
  return chunks;
}

function parseEntity(raw: string, depth: number, defaultType = 'text/plain'): MimePart {
  const { head, body } = splitEntity(raw);
  const headers = parseHeaders(head);
  const ct = header(headers, 'content-type');
  const { type, params } = ct === null ? { type: defaultType, params: {} } : parseContentType(ct);
  const part: MimePart = { headers, type, params, body: '', parts: [] };
  // A boundary parameter folded without indentation lands on a line of its own; it is still the boundary.
  if (type.startsWith('multipart/') && !params.boundary) {
    const loose = /^\s*boundary\s*=\s*"?([^"\r\n;]+)"?/im.exec(head)?.[1];
    if (loose) params.boundary = loose;
  }
  if (depth < MAX_DEPTH && type.startsWith('multipart/') && params.boundary) {
    // RFC 2046 §5.1.5: parts of multipart/digest default to message/rfc822.
    const childDefault = type === 'multipart/digest' ? 'message/rfc822' : 'text/plain';
    part.parts = splitMultipart(body, params.boundary).map((chunk) => parseEntity(chunk, depth + 1, childDefault));
    if (part.parts.length > 0) return part;
    // A multipart whose boundary never appears: its body is read as plain text, not lost.
    part.type = 'text/plain';
  }
  part.body = decodeTransfer(body, header(headers, 'content-transfer-encoding'));
  if (depth < MAX_DEPTH && (type === 'message/rfc822' || type === 'message/global')) {
    part.parts = [parseEntity(part.body, depth + 1)];
  }
  return part;
}

/** Parses a whole message. Never throws: what cannot be read becomes a text/plain leaf. */
export function parseMime(raw: Buffer): MimePart {
  // Reports are a few kilobytes; only the first MAX_REPORT_BYTES are read, so a hostile report
  // costs bounded time and memory (docs/bounces.md, Limits).
  return parseEntity(raw.subarray(0, MAX_REPORT_BYTES).toString('latin1'), 0);
}

/** A body as text in its declared charset; utf-8 when none is declared or it is unknown. */
export function bodyText(part: MimePart): string {
  const bytes = Buffer.from(part.body, 'latin1');
  // ISO-2022-JP (RFC 1468) text is recognisable by its escape sequences: Japanese servers often put
  // it in parts that declare no charset, such as a delivery-status Diagnostic-Code.
  const charset =
    part.params.charset ?? (part.body.includes('\x1b$B') || part.body.includes('\x1b$@') ? 'iso-2022-jp' : 'utf-8');
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
