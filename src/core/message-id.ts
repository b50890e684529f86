// Crockford base32 without I, L, O, U; a ULID's first character is at most 7 (48-bit time).
const MESSAGE_ID = /^(?:msg_)?([0-7][0-9A-HJKMNP-TV-Z]{25})$/i;

/**
 * A message id as a client may give it (docs/api.md): with or without `msg_`, in any case, as
 * stored (`msg_` and an upper-case ULID, as ulidx makes them); null when it cannot be one.
 */
export function normalizeMessageId(text: string): string | null {
  const m = MESSAGE_ID.exec(text);
  return m ? `msg_${(m[1] as string).toUpperCase()}` : null;
}
