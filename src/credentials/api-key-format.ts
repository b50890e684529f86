import { createHash } from 'node:crypto';

// At least 256 random bits, a `ph_` prefix and a short public part, so secret
// scanners can recognise a leaked key and listings can show which key is which.
const KEY_SHAPE = /^ph_([0-9a-f]{8})_([A-Za-z0-9_-]{43})$/;

/** Formats a key from 4 public bytes and 32 secret bytes: `ph_<8 hex>_<43 base64url>`. */
export function formatApiKey(publicBytes: Buffer, secretBytes: Buffer): { key: string; prefix: string } {
  const prefix = `ph_${publicBytes.toString('hex').slice(0, 8)}`;
  return { key: `${prefix}_${secretBytes.toString('base64url')}`, prefix };
}

/** True when `key` has the shape of a Posthorn API key (anything else cannot match a stored hash). */
export function looksLikeApiKey(key: string): boolean {
  return KEY_SHAPE.test(key);
}

/**
 * SHA-256 of the whole key. A fast hash is right here: the key carries 256 random bits, so there
 * is nothing to brute-force, and a lookup by hash needs no per-key salt (a slow hash is
 * needed only for SMTP passwords, which people may choose).
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
