import { createHash } from 'node:crypto';
import type { Config } from '../config/schema.js';

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
