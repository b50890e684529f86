/**
 * DKIM "relaxed" canonicalization (RFC 6376 §3.4.2 header, §3.4.4 body).
 *
 * Headers are handled as latin1 strings: one byte per char, so 8-bit header bytes survive the
 * round trip to a Buffer unchanged. A body that is already canonical but for trailing empty lines
 * (the usual QP/base64 output) is hashed in place; any other is rewritten byte by byte into a
 * scratch buffer reused between calls (each worker thread has its own module instance).
 */
import { trimWsp } from '../../mime/split-message.js';

const SP = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const LF = 0x0a;

/** RFC 6376 §3.4.2: lower-case name, unfold, collapse WSP, trim around the colon and the end; adds CRLF. */
export function relaxedHeader(text: string): string {
  const colon = text.indexOf(':');
  const name = trimWsp(text.slice(0, colon)).toLowerCase();
  const value = trimWsp(
    text
      .slice(colon + 1)
      .replace(/\r?\n/g, '')
      .replace(/[ \t]+/g, ' '),
  );
  return `${name}:${value}\r\n`;
}

let scratch = Buffer.allocUnsafe(64 * 1024);
/** Bodies larger than this get a one-off buffer instead of growing the retained scratch. */
const MAX_RETAINED_SCRATCH = 1024 * 1024;

/**
 * RFC 6376 §3.4.4: collapse WSP runs to one SP, drop WSP at line ends, drop empty lines at the end,
 * end a non-empty body with CRLF. Bare LF counts as a line end (it becomes CRLF on the wire).
 * The returned view is only valid until the next call.
 */
export function relaxedBody(body: Buffer): Buffer {
  const end = alreadyRelaxedEnd(body);
  if (end !== -1) return body.subarray(0, end);
  const needed = body.length * 2 + 2; // worst case: every byte a bare LF
  let out = scratch;
  if (needed > out.length) {
    out = Buffer.allocUnsafe(needed);
    if (needed <= MAX_RETAINED_SCRATCH) scratch = out;
  }
  let o = 0;
  let keep = 0; // output length up to the end of the last non-empty line
  let pendingWsp = false;
  let lineHasContent = false;
  const n = body.length;
  for (let i = 0; i < n; i++) {
    const b = body[i]!;
    if (b === SP || b === TAB) {
      pendingWsp = true;
    } else if (b === LF || (b === CR && i + 1 < n && body[i + 1] === LF)) {
      if (b === CR) i++;
      pendingWsp = false;
      out[o++] = CR;
      out[o++] = LF;
      if (lineHasContent) keep = o;
      lineHasContent = false;
    } else {
      if (pendingWsp) {
        out[o++] = SP;
        pendingWsp = false;
      }
      out[o++] = b;
      lineHasContent = true;
    }
  }
  if (lineHasContent) {
    // Last line without a line break: RFC 6376 §3.4.4 adds one.
    out[o++] = CR;
    out[o++] = LF;
    keep = o;
  }
  return out.subarray(0, keep);
}

const SPACE_THEN_SPACE_OR_CR = / [ \r]/;

/**
 * Fast path for the common body (CRLF lines, single spaces, no tabs, no trailing WSP, ending in
 * CRLF): its canonical form is itself minus trailing empty lines, found with native searches and
 * no copy. Returns that length, or -1 when the body needs the byte-by-byte pass.
 */
function alreadyRelaxedEnd(body: Buffer): number {
  const n = body.length;
  if (n < 2 || body[n - 1] !== LF || body[n - 2] !== CR) return -1;
  // Measured: a regex on the latin1 string beats Buffer#indexOf for two-byte needles, and
  // Buffer#indexOf beats everything for one byte.
  const text = body.toString('latin1');
  if (text.includes('\t') || SPACE_THEN_SPACE_OR_CR.test(text)) return -1;
  for (let lf = body.indexOf(LF); lf !== -1; lf = body.indexOf(LF, lf + 1)) {
    if (lf === 0 || body[lf - 1] !== CR) return -1; // a bare LF becomes CRLF: not the same bytes
  }
  let end = n;
  while (end >= 4 && body[end - 3] === LF && body[end - 4] === CR) end -= 2;
  return end === 2 ? 0 : end; // a body of empty lines only is empty
}
