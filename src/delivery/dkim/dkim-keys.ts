/**
 * Ed25519 DKIM keys (RFC 8463). RSA keys come from src/domains/dkim-key.ts; the Ed25519 record
 * differs in that p= holds the bare 32-byte public key, not a SubjectPublicKeyInfo.
 */
import { generateKeyPairSync } from 'node:crypto';

/** An Ed25519 DKIM key: PKCS#8 PEM for the signer, raw public key base64 for the p= tag. */
export interface Ed25519DkimKey {
  privateKeyPem: string;
  publicKeyB64: string;
}

/** The 12-byte DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410 §4); the key follows it. */
const ED25519_SPKI_PREFIX_LENGTH = 12;

/** Generates an Ed25519 key pair (fast enough to do synchronously: well under a millisecond). */
export function generateEd25519Key(): Ed25519DkimKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519', {
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  // RFC 8463 §4.2: p= is the base64 of the raw public key, which is the SPKI's last 32 bytes.
  const raw = publicKey.subarray(ED25519_SPKI_PREFIX_LENGTH);
  if (raw.length !== 32) throw new Error(`unexpected Ed25519 SPKI length ${publicKey.length}`);
  return { privateKeyPem: privateKey, publicKeyB64: raw.toString('base64') };
}

/** The TXT value to publish at `<selector>._domainkey.<domain>` for an Ed25519 key (RFC 8463 §4.2). */
export function ed25519DnsValue(publicKeyB64: string): string {
  return `v=DKIM1; k=ed25519; p=${publicKeyB64}`;
}
