import { Transform, type TransformCallback } from 'node:stream';

/**
 * Line-level checks on the message data of a DATA command, as smtp-server hands it over.
 *
 * What smtp-server passes (dist/esm/smtp-stream.js, 3.21): the bytes between the 354 reply and the
 * terminating `CRLF.CRLF`, dot-unstuffed (a leading `..` after an LF loses one dot), including the
 * CRLF that ends the last line, and otherwise exactly as received: line endings are NOT normalized.
 * It ends DATA only on the exact `CRLF.CRLF`, so `LF.CRLF` or `CR.CRLF` reach us as content. Kept,
 * such bytes would end the message early at a lenient next hop and let a client inject a second,
 * spoofed message (SMTP smuggling, CVE-2023-51764 class). So every CR or LF that is not part of a
 * CRLF pair is refused, whatever follows it, and the whole DATA stream is still read to its end
 * before the one reply (RFC 5321 §4.1.1.4: the reply to DATA comes after the end of mail data).
 */

const CR = 0x0d;
const LF = 0x0a;
/** RFC 5321 §4.5.3.1.6: a text line is at most 1000 octets including the CRLF. */
export const MAX_LINE_OCTETS = 998;

export const DATA_REFUSALS = {
  // RFC 5321 §2.3.8: CR and LF must only occur together as CRLF; a lone LF is not a line end.
  // 550 with 5.6.11 is Exchange Online's reply to bare line feeds (SMTPSEND.BareLinefeedsAreIllegal):
  // X.6 is the media subject of RFC 3463 §3.7.
  bare_lf: {
    code: 550,
    enhanced: '5.6.11',
    message: 'bare LF not allowed: lines must end in CRLF (RFC 5321 §2.3.8, SMTP smuggling protection)',
  },
  // The same RFC 5321 §2.3.8 rule for a CR that is not followed by LF.
  bare_cr: {
    code: 550,
    enhanced: '5.6.11',
    message: 'bare CR not allowed: CR must be followed by LF (RFC 5321 §2.3.8, SMTP smuggling protection)',
  },
  // RFC 5321 §4.5.3.1.6 and RFC 5322 §2.1.1: 998 octets plus CRLF. X.6.0 "other media error"
  // (RFC 3463 §3.7): the fix is a content transfer encoding (quoted-printable, base64) for the part.
  line_too_long: {
    code: 550,
    enhanced: '5.6.0',
    message: `line longer than ${MAX_LINE_OCTETS} octets plus CRLF (RFC 5321 §4.5.3.1.6); encode the part as quoted-printable or base64`,
  },
  // RFC 5321 §4.2.2 552 "exceeded storage allocation"; RFC 3463 §3.4 X.3.4 "message too big for system".
  too_big: { code: 552, enhanced: '5.3.4', message: 'message exceeds the maximum size' },
} as const;

export type DataRefusalReason = keyof typeof DATA_REFUSALS;

export type DataVerdict =
  { ok: true } | { ok: false; reason: DataRefusalReason; code: 550 | 552; enhanced: string; message: string };

/** What the guard keeps between chunks. */
interface GuardState {
  /** Octets of the current line seen so far, a trailing CR included. */
  lineOctets: number;
  /** The previous chunk ended in CR: the next byte must be LF. */
  pendingCr: boolean;
  total: number;
  refused: DataRefusalReason | null;
}

/**
 * Scans one chunk, carrying the state across chunk boundaries (a CR at the end of one chunk and
 * an LF at the start of the next are one CRLF). Native indexOf finds the CRs and LFs, so a 5 MB
 * message costs a few milliseconds. Returns the first refusal found, or null.
 */
function scan(s: GuardState, buf: Buffer): DataRefusalReason | null {
  const n = buf.length;
  if (n === 0) return null;
  let i = 0;
  if (s.pendingCr) {
    if (buf[0] !== LF) return 'bare_cr';
    s.pendingCr = false;
    s.lineOctets = 0; // the CR counted in lineOctets was checked when the line ended
    i = 1;
  }
  let nextCr = buf.indexOf(CR, i);
  while (i < n) {
    const lf = buf.indexOf(LF, i);
    const end = lf === -1 ? n : lf;
    // Every CR before `end` must sit right before this LF, or be the chunk's last byte (its LF may come next).
    while (nextCr !== -1 && nextCr < end) {
      const paired = lf === -1 ? nextCr === n - 1 : nextCr === lf - 1;
      if (!paired) return 'bare_cr';
      nextCr = buf.indexOf(CR, nextCr + 1);
    }
    if (lf === -1) {
      s.lineOctets += n - i;
      s.pendingCr = buf[n - 1] === CR;
      if (s.lineOctets - (s.pendingCr ? 1 : 0) > MAX_LINE_OCTETS) return 'line_too_long';
      return null;
    }
    const crBefore = lf > 0 ? buf[lf - 1] === CR : false;
    if (!crBefore) return 'bare_lf';
    if (s.lineOctets + (lf - i) - 1 > MAX_LINE_OCTETS) return 'line_too_long';
    s.lineOctets = 0;
    i = lf + 1;
  }
  return null;
}

/**
 * A pass-through Transform for the DATA stream that records the first bare CR, bare LF, over-long
 * line or (with `maxBytes`) oversize; `verdict()` after the stream ends gives the reply to send.
 */
export function createDataGuard(opts: { maxBytes?: number } = {}): { transform: Transform; verdict(): DataVerdict } {
  const state: GuardState = { lineOctets: 0, pendingCr: false, total: 0, refused: null };
  const maxBytes = opts.maxBytes ?? Infinity;
  const transform = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
      state.total += chunk.length;
      if (state.refused === null && state.total > maxBytes) state.refused = 'too_big';
      if (state.refused === null) state.refused = scan(state, chunk);
      done(null, chunk);
    },
    flush(done: TransformCallback) {
      // Data that ends in a lone CR: nothing can pair with it any more.
      if (state.refused === null && state.pendingCr) state.refused = 'bare_cr';
      done();
    },
  });
  return {
    transform,
    verdict(): DataVerdict {
      if (state.refused === null) return { ok: true };
      return { ok: false, reason: state.refused, ...DATA_REFUSALS[state.refused] };
    },
  };
}
