/**
 * The first control character of `text` as `U+XXXX at position N`, or null. Control characters are
 * C0 (U+0000–U+001F), DEL and C1 (U+0080–U+009F), Unicode's Cc category; a horizontal tab is allowed
 * when `allowTab` is set (it is whitespace in an unstructured header, RFC 5322 §2.2.1). A raw control
 * character in a header or a display name is not text any reader shows, and some terminals and
 * clients act on it (RFC 5322 §3.2.3 atext and §3.2.4 qtext exclude them).
 */
export function controlCharacter(text: string, allowTab = true): string | null {
  const re = allowTab ? /[^\P{Cc}\t]/u : /\p{Cc}/u;
  const m = re.exec(text);
  if (!m) return null;
  return `U+${(m[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')} at position ${m.index + 1}`;
}

// With the u flag a surrogate pair is one code point, so only a lone surrogate is category Cs.
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The field path of the first string in `value` (parsed from JSON) that holds a lone surrogate such
 * as `"\ud800"`, or null. JSON allows such escapes (RFC 8259 §8.2), but they are no character and
 * cannot be encoded as UTF-8: left in, they would become U+FFFD on the way out, a silent change to
 * what the caller sent. Only `maxDepth` levels are looked at: deeper values are of a shape the
 * caller's own checks refuse anyway, and a walk of arbitrary depth could exhaust the stack.
 */
export function loneSurrogatePath(value: unknown, path: string, maxDepth = 3): string | null {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path : null;
  if (maxDepth === 0 || value === null || typeof value !== 'object') return null;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [`[${i}]`, v])
    : Object.entries(value).map(([k, v]) => [`.${k}`, v]);
  for (const [key, item] of entries) {
    if (LONE_SURROGATE.test(key)) return `${path}${key}`;
    const found = loneSurrogatePath(item, `${path}${key}`, maxDepth - 1);
    if (found !== null) return found;
  }
  return null;
}
