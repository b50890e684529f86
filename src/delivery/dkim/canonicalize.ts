/**
 * DKIM "relaxed" canonicalization (RFC 6376 §3.4.2 header, §3.4.4 body).
 *
 * Headers are handled as latin1 strings: one byte per char, so 8-bit header bytes survive the
 * round trip to a Buffer unchanged. A body that is already canonical but for trailing empty lines
 * (the usual QP/base64 output) is hashed in place; any other is rewritten byte by byte into a
 * scratch buffer reused between calls (each worker thread has its own module instance).
 */
import { createHash } from 'node:crypto';
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
  return relaxedLines(body).lines;
}

/**
 * relaxedBody, and how many empty lines it dropped at the end: relaxedBodyHash needs them when
 * more of the body follows, since they are empty lines at the end only if nothing else does.
 */
function relaxedLines(body: Buffer): { lines: Buffer; trailingEmpty: number } {
  const end = alreadyRelaxedEnd(body);
  if (end !== -1) return { lines: body.subarray(0, end), trailingEmpty: (body.length - end) / 2 };
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
  // Past `keep` there are only the CRLFs of empty lines.
  return { lines: out.subarray(0, keep), trailingEmpty: (o - keep) / 2 };
}

/** Bytes of body canonicalized and hashed at a time by relaxedBodyHash (cut after a line end). */
const BODY_CHUNK_BYTES = 256 * 1024;
const CRLF = Buffer.from('\r\n', 'latin1');

/**
 * The SHA-256 of the relaxed body (RFC 6376 §3.7, bh=), in base64. The body is canonicalized in
 * chunks that each end just after a line feed, so no chunk splits a line and no copy larger than a
 * chunk is made: a 40 MB message is not held a second time as a latin1 string or a canonical copy.
 * Empty lines at the end of a chunk are held back and hashed only when more content follows.
 */
export function relaxedBodyHash(body: Buffer, chunkBytes = BODY_CHUNK_BYTES): string {
  if (!Number.isInteger(chunkBytes) || chunkBytes < 1) throw new Error('the chunk is at least one byte');
  const hash = createHash('sha256');
  let heldEmpty = 0;
  for (let start = 0; start < body.length;) {
    const lf = start + chunkBytes >= body.length ? -1 : body.indexOf(LF, start + chunkBytes - 1);
    const end = lf === -1 ? body.length : lf + 1;
    const { lines, trailingEmpty } = relaxedLines(body.subarray(start, end));
    if (lines.length > 0) {
      for (; heldEmpty > 0; heldEmpty--) hash.update(CRLF);
      hash.update(lines);
      heldEmpty = trailingEmpty;
    } else {
      heldEmpty += trailingEmpty;
    }
    start = end;
  }
  return hash.digest('base64');
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
