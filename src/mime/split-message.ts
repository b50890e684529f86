/**
 * The header block and body of a raw message, as DKIM signing (src/delivery/dkim/canonicalize.ts),
 * the relay's submission parser and the tracking checks read it.
 *
 * Headers are handled as latin1 strings: one byte per char, so 8-bit header bytes survive the
 * round trip to a Buffer unchanged.
 */

const CR = 0x0d;
const LF = 0x0a;

/** One header field as it appears in the message, continuation lines included, without its final line break. */
export interface HeaderField {
  /** Lower-cased field name. */
  name: string;
  /** The whole field, `Name: value` with folds, latin1. */
  text: string;
}

/** Where the header block ends and the body starts in a raw message. */
export interface MessageSplit {
  fields: HeaderField[];
  bodyStart: number;
}

/** Splits a raw message into header fields and the offset of its body (after the first empty line). */
export function splitMessage(raw: Buffer): MessageSplit {
  // Find the empty line that ends the header block; accept CRLF and bare LF line ends.
  let pos = 0;
  let headerEnd = raw.length;
  let bodyStart = raw.length;
  while (pos < raw.length) {
    const nl = raw.indexOf(LF, pos);
    if (nl === -1) break;
    const lineLength = nl - pos;
    if (lineLength === 0 || (lineLength === 1 && raw[pos] === CR)) {
      headerEnd = pos;
      bodyStart = nl + 1;
      break;
    }
    pos = nl + 1;
  }
  const block = raw.toString('latin1', 0, headerEnd);
  const fields: HeaderField[] = [];
  // A field ends at a line break not followed by WSP (RFC 5322 §2.2.3 folding).
  for (const text of block.split(/\r?\n(?![ \t])/)) {
    if (text === '' || text === '\r') continue;
    const colon = text.indexOf(':');
    if (colon <= 0) continue; // not a header field (e.g. an mbox "From " line): never signed
    fields.push({ name: trimWsp(text.slice(0, colon)).toLowerCase(), text: text.replace(/\r$/, '') });
  }
  return { fields, bodyStart };
}

/**
 * Trims SP and HTAB only (RFC 6376 WSP). String#trim would also eat U+00A0, which in a latin1
 * string is the byte 0xA0: the second byte of UTF-8 "à" in a raw 8-bit header.
 */
export function trimWsp(s: string): string {
  return s.replace(/^[ \t]+|[ \t]+$/g, '');
}
