/**
 * Reading a header field's value as text: the field arrives as a latin1 string (one char per byte,
 * as splitMessage gives it) so raw bytes survive; these helpers turn it into what a person reads.
 */

/** The value of a `Name: value` field: unfolded (RFC 5322 §2.2.3), raw 8-bit read as UTF-8 (RFC 6532 §3.2), WSP-trimmed. */
export function fieldValue(fieldText: string): string {
  const colon = fieldText.indexOf(':');
  const value = fieldText.slice(colon + 1).replace(/\r?\n(?=[ \t])/g, '');
  const utf8 = /[\x80-\xff]/.test(value) ? Buffer.from(value, 'latin1').toString('utf8') : value;
  return utf8.replace(/^[ \t]+|[ \t]+$/g, '');
}

// RFC 2047 §2 encoded-word, with the RFC 2231 §5 `*language` suffix on the charset allowed.
const ENCODED_WORD = /=\?([^?\s*]+)(?:\*[^?\s]*)?\?([BbQq])\?([^?\s]*)\?=/g;

function wordBytes(encoding: string, text: string): Buffer {
  if (encoding === 'B' || encoding === 'b') return Buffer.from(text, 'base64');
  // RFC 2047 §4.2: "_" is a space, "=XX" a hex octet.
  const latin1 = text
    .replace(/_/g, ' ')
    .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(latin1, 'latin1');
}

function decodeRun(charset: string, bytes: Buffer[], original: string): string {
  try {
    return new TextDecoder(charset.toLowerCase()).decode(Buffer.concat(bytes));
  } catch {
    return original; // an unknown charset: RFC 2047 §6.2 lets the words be shown as they are
  }
}

/**
 * Decodes RFC 2047 encoded-words. Adjacent words with only whitespace between them are joined and
 * the whitespace dropped (RFC 2047 §6.2); their octets are joined before decoding, because encoders
 * may split one multi-byte character across two words.
 */
export function decodeEncodedWords(text: string): string {
  if (!text.includes('=?')) return text;
  let out = '';
  let last = 0;
  let run: { charset: string; bytes: Buffer[]; original: string } | null = null;
  for (const m of text.matchAll(ENCODED_WORD)) {
    const [word, charset = '', encoding = '', payload = ''] = m;
    const between = text.slice(last, m.index);
    const adjacent = run !== null && /^[ \t]*$/.test(between);
    if (run !== null && adjacent && run.charset.toLowerCase() === charset.toLowerCase()) {
      run.bytes.push(wordBytes(encoding, payload));
      run.original += between + word;
    } else {
      if (run !== null) out += decodeRun(run.charset, run.bytes, run.original);
      if (!adjacent) out += between;
      run = { charset, bytes: [wordBytes(encoding, payload)], original: word };
    }
    last = m.index + word.length;
  }
  if (run !== null) out += decodeRun(run.charset, run.bytes, run.original);
  return out + text.slice(last);
}
