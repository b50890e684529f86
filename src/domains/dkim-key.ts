import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';

const generateKeyPairAsync = promisify(generateKeyPair);

/** A DKIM signing key: the private key for the signer, the public key as DKIM's `p=` carries it. */
export interface DkimKey {
  privateKeyPem: string;
  publicKeyB64: string;
}

/**
 * Generates a 2048-bit RSA DKIM key off the event loop (node:crypto's async keygen). The private
 * key is PKCS#8 PEM; the public key is base64 of the SubjectPublicKeyInfo DER, which is what the
 * `p=` tag of a DKIM key record holds (RFC 6376 §3.6.1). 2048 bits because RFC 8301 §3.2 says
 * signers SHOULD use at least that, and it still fits a TXT record split into 255-byte strings.
 */
export async function generateDkimKey(): Promise<DkimKey> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { privateKeyPem: privateKey, publicKeyB64: publicKey.toString('base64') };
}

/**
 * A DKIM selector for a key made at `now` (epoch ms): `ph` + UTC yyyymm, e.g. `ph202611`.
 * Selectors are DNS labels (RFC 6376 §3.1), so only lower-case letters and digits are used.
 */
export function newSelector(now: number): string {
  const date = new Date(now);
  const month = String(date.getUTCMonth() + 1).padStart(2, '0');
  return `ph${date.getUTCFullYear()}${month}`;
}

/**
 * The selector of a rotation's new key made at `now`: `ph` + UTC yyyymmdd (e.g. `ph20261126`),
 * with `-2`, `-3`, … when that one is taken by a selector the domain still has (signing, pending,
 * retired or Ed25519), so a record in use is never replaced. The day form cannot meet the month form
 * of newSelector (`ph202611`) or the Ed25519 one (`ph202611e`).
 */
export function rotationSelector(now: number, taken: readonly (string | null)[]): string {
  const date = new Date(now);
  const base = `ph${date.getUTCFullYear()}${String(date.getUTCMonth() + 1).padStart(2, '0')}${String(date.getUTCDate()).padStart(2, '0')}`;
  const used = new Set(taken.filter((s): s is string => s !== null));
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}
