/**
 * How deep a send body may nest arrays and objects. A send request needs three levels (the body,
 * `to` or `headers`, nothing below); 32 leaves room without letting a body of brackets cost the
 * parser (and any recursive walk after it) seconds and stack.
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * The byte offset at which `raw` first nests deeper than `max` arrays/objects, or -1 when it
 * never does. Run on the bytes before JSON.parse, so a body of a million `[` is refused after
 * `max + 1` of them. Brackets inside strings do not count; a backslash escapes the next byte
 * (RFC 8259 §7). The scan is byte-wise: in UTF-8 every byte of a multi-byte character is >= 0x80,
 * so none is mistaken for a quote, backslash or bracket. It checks depth only, never validity;
 * JSON.parse does that next. Hand-written: the JSON parsers on npm that limit depth (e.g. for
 * streaming) parse the whole body in JavaScript, far slower than this scan plus JSON.parse.
 */
export function jsonDepthExceeded(raw: Uint8Array, max: number = MAX_JSON_DEPTH): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const b = raw[i]!;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > max) return i;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) {
      depth--;
    }
  }
  return -1;
}
