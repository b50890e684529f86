/**
 * Parsed DKIM private keys, cached per key id: parsing a PEM costs more
 * than an RSA-2048 signature, so it is done once per key per thread, not once per message.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';

export const DKIM_ALGORITHMS = ['rsa-sha256', 'ed25519-sha256'] as const;
export type DkimAlgorithm = (typeof DKIM_ALGORITHMS)[number];

/** One signing key of a domain: `id` names it in the cache, so a rotated key needs a new id. */
export interface DkimKey {
  id: string;
  domain: string;
  selector: string;
  algorithm: DkimAlgorithm;
  privateKeyPem: string;
}

const KEY_TYPE: Record<DkimAlgorithm, string> = { 'rsa-sha256': 'rsa', 'ed25519-sha256': 'ed25519' };

interface Entry {
  pem: string;
  algorithm: DkimAlgorithm;
  keyObject: KeyObject;
}

/** Parses each key's PEM once per id into a KeyObject; least recently used entries go past `maxEntries`. */
export class KeyCache {
  readonly #entries = new Map<string, Entry>();

  constructor(readonly maxEntries = 10_000) {}

  get size(): number {
    return this.#entries.size;
  }

  /** The key's KeyObject; throws an Error naming the key when its PEM does not parse or fits another algorithm. */
  get(key: DkimKey): KeyObject {
    const hit = this.#entries.get(key.id);
    // Comparing the PEM as well keeps a key whose id was reused with new material from signing with the old one.
    if (hit !== undefined && hit.pem === key.privateKeyPem && hit.algorithm === key.algorithm) {
      this.#entries.delete(key.id); // re-insert: Map order is the LRU order
      this.#entries.set(key.id, hit);
      return hit.keyObject;
    }
    const keyObject = parse(key);
    this.#entries.delete(key.id);
    this.#entries.set(key.id, { pem: key.privateKeyPem, algorithm: key.algorithm, keyObject });
    if (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
    return keyObject;
  }
}

function parse(key: DkimKey): KeyObject {
  const label = `DKIM key ${key.id} (${key.selector}._domainkey.${key.domain})`;
  let keyObject: KeyObject;
  try {
    keyObject = createPrivateKey({ key: key.privateKeyPem, format: 'pem' });
  } catch (err) {
    throw new Error(`${label}: cannot parse the private key PEM: ${(err as Error).message}`);
  }
  const expected = KEY_TYPE[key.algorithm];
  if (expected === undefined) throw new Error(`${label}: unsupported algorithm ${String(key.algorithm)}`);
  if (keyObject.asymmetricKeyType !== expected) {
    throw new Error(`${label}: a ${keyObject.asymmetricKeyType ?? 'unknown'} key cannot sign ${key.algorithm}`);
  }
  return keyObject;
}
