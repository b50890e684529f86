import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Config } from '../config/schema.js';
import { ConfigError } from '../config/load.js';
import { keyringOf, type Keyring, type SecretKey } from './keyring.js';

/**
 * Sealed values start with this versioned prefix, then the key id and the base64url of
 * IV (12 bytes) ‖ ciphertext ‖ GCM tag (16 bytes). No plaintext secret Posthorn stores can start
 * with it (PEM keys start with `-----`, HMAC keys are hex, webhook secrets a JSON array), so
 * plaintext values from before a key was set and sealed ones live side by side.
 */
export const SEALED_PREFIX = 'phenc1:';
const KEY_ID_LENGTH = 16;
/** Length of `phenc1:<key id>`: the part of a stored value that says how it is sealed. */
export const SEALED_HEAD_LENGTH = SEALED_PREFIX.length + KEY_ID_LENGTH;
const IV_BYTES = 12; // NIST SP 800-38D §8.2: 96-bit random IVs
const TAG_BYTES = 16;
/** Opened values kept in memory, so hot paths (DKIM signing, webhook signing) never decrypt per message. */
const MEMO_ENTRIES = 4096;

/** True when `stored` was sealed (by any key). */
export function isSealed(stored: string): boolean {
  return stored.startsWith(SEALED_PREFIX);
}

/** The id of the key that sealed `stored`, or null for a plaintext value. */
export function sealedKeyId(stored: string): string | null {
  return isSealed(stored) ? stored.slice(SEALED_PREFIX.length, SEALED_HEAD_LENGTH) : null;
}

/**
 * Seals and opens the secrets Posthorn keeps in its database (AES-256-GCM, node:crypto). Each
 * value is bound to where it is stored (`context`, e.g. `domains.dkim_private_key:dom_…`, as GCM
 * additional data), so a sealed value copied into another row or column does not open. Without a
 * current key, `seal` stores plaintext, as before keys existed.
 */
export class SecretBox {
  readonly #memo = new Map<string, string>();
  #decryptions = 0;

  constructor(readonly keyring: Keyring) {}

  /** True when new values are sealed (a current key is set). */
  get sealing(): boolean {
    return this.keyring.current !== null;
  }

  /** How many values this box has decrypted (not answered from its memo); tests and benchmarks read it. */
  get decryptions(): number {
    return this.#decryptions;
  }

  /** The value to store for `plaintext` at `context`. */
  seal(plaintext: string, context: string): string {
    const key = this.keyring.current;
    if (key === null) return plaintext;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([iv, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${SEALED_PREFIX}${key.id}:${body.toString('base64url')}`;
  }

  /**
   * The plaintext of a stored value (plaintext values pass through). Throws a ConfigError naming
   * the variable when the key that sealed it is not configured, and an Error when it does not open.
   */
  open(stored: string, context: string): string {
    if (!isSealed(stored)) return stored;
    const memoKey = `${context}\0${stored}`;
    const hit = this.#memo.get(memoKey);
    if (hit !== undefined) return hit;
    const plaintext = this.#decrypt(stored, context);
    this.#decryptions++;
    if (this.#memo.size >= MEMO_ENTRIES) this.#memo.delete(this.#memo.keys().next().value as string);
    this.#memo.set(memoKey, plaintext);
    return plaintext;
  }

  /** The key a sealed value needs, or undefined when the keyring lacks it. */
  keyFor(id: string): SecretKey | undefined {
    return this.keyring.current?.id === id ? this.keyring.current : this.keyring.old.find((k) => k.id === id);
  }

  #decrypt(stored: string, context: string): string {
    const id = sealedKeyId(stored) as string;
    const key = this.keyFor(id);
    if (key === undefined) throw missingKeyError(this.keyring, id, `a secret (${context.split(':')[0]})`);
    const body = Buffer.from(stored.slice(SEALED_HEAD_LENGTH + 1), 'base64url');
    if (stored[SEALED_HEAD_LENGTH] !== ':' || body.length < IV_BYTES + TAG_BYTES)
      throw new Error(`${context}: the stored secret is damaged (not a sealed value)`);
    const decipher = createDecipheriv('aes-256-gcm', key.key, body.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new Error(
        `${context}: the stored secret does not open with key ${id} (damaged, or copied from another row)`,
      );
    }
  }
}

/** The error for values sealed with a key the configuration does not have; it names the variable to set. */
export function missingKeyError(keyring: Keyring, id: string, what: string): ConfigError {
  if (keyring.current === null) {
    return new ConfigError(
      `POSTHORN_SECRETS_KEY: not set, but the database holds ${what} encrypted with key ${id}; ` +
        'set POSTHORN_SECRETS_KEY (or POSTHORN_SECRETS_KEY_FILE) to that key',
    );
  }
  return new ConfigError(
    `${keyring.currentSource ?? 'POSTHORN_SECRETS_KEY'}: the database holds ${what} encrypted with key ${id}, ` +
      `but the configured key is ${keyring.current.id} and POSTHORN_SECRETS_OLD_KEYS has ${keyring.old.length === 0 ? 'none' : keyring.old.map((k) => k.id).join(', ')}; ` +
      'set the key they were encrypted with (after a rotation, put the previous key in POSTHORN_SECRETS_OLD_KEYS)',
  );
}

const boxes = new WeakMap<object, SecretBox>();

/**
 * The SecretBox of a configuration, made once per (frozen) config object, so every part of a
 * process shares one memo of opened values.
 */
export function secretBox(config: Readonly<Config>): SecretBox {
  let box = boxes.get(config);
  if (box === undefined) {
    box = new SecretBox(keyringOf(config));
    boxes.set(config, box);
  }
  return box;
}
