import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Tokens in tracking and unsubscribe URLs: base64url of
 * `kind (1 byte) | recipient ULID (16 bytes) | payload | HMAC-SHA256 truncated to 16 bytes`.
 * The kind byte keeps an open token from working as an unsubscribe token; the payload is the
 * original URL of a click (UTF-8), so a click needs no database row to be redirected and a
 * tampered URL fails the MAC (no open redirect). 128-bit MACs: a forgery needs ~2^128 tries.
 */
export const TOKEN_KINDS = { open: 0x6f, click: 0x63, unsubscribe: 0x75 } as const;
export type TokenKind = keyof typeof TOKEN_KINDS;

const MAC_BYTES = 16;
const ULID_BYTES = 16;
const DOMAIN = Buffer.from('posthorn-tracking-v1\0');
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const RECIPIENT_ID = /^rcp_[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

/** A ULID's 26 Crockford base32 characters as its 128 bits. */
function ulidBytes(ulid: string): Buffer {
  let n = 0n;
  for (const ch of ulid) n = (n << 5n) | BigInt(CROCKFORD.indexOf(ch));
  const out = Buffer.alloc(ULID_BYTES);
  for (let i = ULID_BYTES - 1; i >= 0; i--) {
    out[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  return out;
}

function ulidText(bytes: Buffer): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let s = '';
  for (let i = 0; i < 26; i++) {
    s = CROCKFORD[Number(n & 31n)] + s;
    n >>= 5n;
  }
  return s;
}

function mac(secret: Buffer, body: Buffer): Buffer {
  return createHmac('sha256', secret).update(DOMAIN).update(body).digest().subarray(0, MAC_BYTES);
}

/** A token of `kind` for recipient `rcp_…`, carrying `payload` (the click's URL). */
export function makeToken(secret: Buffer, kind: TokenKind, recipientId: string, payload = ''): string {
  if (!RECIPIENT_ID.test(recipientId)) throw new Error(`not a recipient id: ${recipientId}`);
  const body = Buffer.concat([
    Buffer.from([TOKEN_KINDS[kind]]),
    ulidBytes(recipientId.slice(4)),
    Buffer.from(payload, 'utf8'),
  ]);
  return Buffer.concat([body, mac(secret, body)]).toString('base64url');
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a token of `kind`: the recipient id and payload, or null when it is malformed, of another
 * kind, or its MAC does not verify (compared in constant time).
 */
export function readToken(
  secret: Buffer,
  kind: TokenKind,
  token: string,
): { recipientId: string; payload: string } | null {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) return null;
  const raw = Buffer.from(token, 'base64url');
  // Only the canonical spelling: no second token string for the same bytes.
  if (raw.length < 1 + ULID_BYTES + MAC_BYTES || raw.toString('base64url') !== token) return null;
  const body = raw.subarray(0, raw.length - MAC_BYTES);
  const given = raw.subarray(raw.length - MAC_BYTES);
  if (!timingSafeEqual(mac(secret, body), given)) return null;
  if (body[0] !== TOKEN_KINDS[kind]) return null;
  let payload: string;
  try {
    payload = utf8.decode(body.subarray(1 + ULID_BYTES));
  } catch {
    return null;
  }
  return { recipientId: `rcp_${ulidText(body.subarray(1, 1 + ULID_BYTES))}`, payload };
}
