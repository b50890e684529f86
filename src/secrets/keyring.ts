import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Config } from '../config/schema.js';

/** AES-256-GCM takes a 32-byte key. */
export const SECRET_KEY_BYTES = 32;

/** One key of the keyring and the short id stored beside every value sealed with it. */
export interface SecretKey {
  id: string;
  key: Buffer;
}

/** The key new values are sealed with (null: stored as plaintext) and the older keys still opened. */
export interface Keyring {
  current: SecretKey | null;
  /** The variable the current key came from, named in errors. */
  currentSource: 'POSTHORN_SECRETS_KEY' | 'POSTHORN_SECRETS_KEY_FILE' | null;
  old: SecretKey[];
}

/**
 * A key's id: 16 hex digits of a SHA-256 over a fixed label and the key. Stored in the clear beside
 * each sealed value so the right key is found without trial decryption, and so a wrong key is
 * named at start-up; a hash of a 256-bit random key gives nothing away about it.
 */
export function keyId(key: Buffer): string {
  return createHash('sha256').update('posthorn secrets key id\0').update(key).digest('hex').slice(0, 16);
}

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

/** The keyring the configuration describes. */
export function keyringOf(config: Pick<Config, 'secretsKey' | 'secretsKeyFile' | 'secretsOldKeys'>): Keyring {
  const key = config.secretsKey ?? config.secretsKeyFile;
  const current = key === null ? null : { id: keyId(key), key };
  const currentSource =
    config.secretsKey !== null
      ? 'POSTHORN_SECRETS_KEY'
      : config.secretsKeyFile !== null
        ? 'POSTHORN_SECRETS_KEY_FILE'
        : null;
  const old = config.secretsOldKeys.map((k) => ({ id: keyId(k), key: k })).filter((k) => k.id !== current?.id);
  return { current, currentSource, old };
}
