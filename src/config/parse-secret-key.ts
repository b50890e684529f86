import { readFileSync } from 'node:fs';

/**
 * The values of POSTHORN_SECRETS_KEY, POSTHORN_SECRETS_KEY_FILE and POSTHORN_SECRETS_OLD_KEYS
 * (docs/config.md). The keyring made of them is secrets/keyring.ts; the parsing is here, with
 * the other configuration parsers, so the configuration needs nothing from secrets/.
 */

/** AES-256-GCM takes a 32-byte key. */
export const SECRET_KEY_BYTES = 32;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** POSTHORN_SECRETS_KEY: standard base64 of exactly 32 bytes (`openssl rand -base64 32`). */
export function parseSecretKey(text: string): Buffer {
  const t = text.trim();
  const bytes = BASE64.test(t) ? Buffer.from(t, 'base64') : null;
  if (bytes === null || bytes.length !== SECRET_KEY_BYTES) {
    throw new Error(
      `expected the base64 of ${SECRET_KEY_BYTES} random bytes (make one with: openssl rand -base64 32)` +
        `${bytes === null ? ', got text that is not base64' : `, got ${bytes.length} bytes`}`,
    );
  }
  return bytes;
}

/**
 * POSTHORN_SECRETS_KEY_FILE: a file holding the key, as base64 text (a trailing newline is fine)
 * or as exactly 32 raw bytes (`head -c 32 /dev/urandom`). Read once at start-up.
 */
export function readSecretKeyFile(path: string): Buffer {
  let raw: Buffer;
  try {
    raw = readFileSync(path.trim());
  } catch (err) {
    throw new Error(`cannot read ${path.trim()}: ${(err as Error).message}`);
  }
  // 32 raw bytes can never be the base64 of 32 bytes (that is 44 characters), so the two forms cannot be confused.
  if (raw.length === SECRET_KEY_BYTES) return raw;
  try {
    return parseSecretKey(raw.toString('latin1'));
  } catch (err) {
    throw new Error(`${path.trim()}: ${(err as Error).message}, or exactly ${SECRET_KEY_BYTES} raw bytes`);
  }
}

/** POSTHORN_SECRETS_OLD_KEYS: comma-separated base64 keys, kept only to open values sealed before a rotation. */
export function parseSecretKeyList(text: string): Buffer[] {
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return parts.map((p, i) => {
    try {
      return parseSecretKey(p);
    } catch (err) {
      throw new Error(`key ${i + 1}: ${(err as Error).message}`);
    }
  });
}
