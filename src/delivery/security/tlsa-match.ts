import { createHash, X509Certificate } from 'node:crypto';
import type { TlsaRecord } from './tlsa-query.js';

/** The result of checking a server's certificate chain against its TLSA records. */
export type DaneVerdict = { ok: true; usage: number } | { ok: false; reason: string };

/**
 * The records an SMTP client may use (RFC 7672 §3.1.3): DANE-TA(2) and DANE-EE(3), with a known
 * selector (0 full certificate, 1 SubjectPublicKeyInfo) and matching type (0 exact, 1 SHA-256,
 * 2 SHA-512). PKIX-TA(0) and PKIX-EE(1) are not for SMTP: there is no agreed set of CAs for MX hosts.
 */
export function usableTlsa(records: readonly TlsaRecord[]): TlsaRecord[] {
  return records.filter((r) => (r.usage === 2 || r.usage === 3) && r.selector <= 1 && r.matchingType <= 2);
}

/** The part of `der` that `selector` names, digested as `matchingType` says (RFC 6698 §2.1.2, §2.1.3). */
function associated(der: Buffer, selector: number, matchingType: number): Buffer {
  const data =
    selector === 0 ? der : (new X509Certificate(der).publicKey.export({ type: 'spki', format: 'der' }) as Buffer);
  if (matchingType === 1) return createHash('sha256').update(data).digest();
  if (matchingType === 2) return createHash('sha512').update(data).digest();
  return data;
}

function matches(record: TlsaRecord, der: Buffer): boolean {
  try {
    return associated(der, record.selector, record.matchingType).equals(record.data);
  } catch {
    return false; // a certificate Node cannot parse matches nothing
  }
}

/**
 * Checks a server's chain (DER, leaf first) against usable TLSA records (RFC 7672 §3.1): a DANE-EE
 * record matching the leaf authenticates it with no name or date check (§3.1.1); a DANE-TA record
 * matching a certificate of the chain authenticates the leaf when each certificate up to it is
 * signed by the next and the leaf is valid for one of `names` (the MX host, §3.2.2).
 */
export function matchTlsa(
  records: readonly TlsaRecord[],
  chain: readonly Buffer[],
  names: readonly string[],
): DaneVerdict {
  const usable = usableTlsa(records);
  if (usable.length === 0) return { ok: false, reason: 'no usable TLSA record (usages 2 and 3 only)' };
  const leaf = chain[0];
  if (leaf === undefined) return { ok: false, reason: 'the server presented no certificate' };
  if (usable.some((r) => r.usage === 3 && matches(r, leaf))) return { ok: true, usage: 3 };
  for (const record of usable.filter((r) => r.usage === 2)) {
    const anchor = chain.findIndex((der) => matches(record, der));
    if (anchor < 0) continue;
    if (!signedUpTo(chain, anchor))
      return { ok: false, reason: 'the certificate chain does not lead to the DANE-TA trust anchor' };
    const cert = new X509Certificate(leaf);
    if (!names.some((n) => cert.checkHost(n) !== undefined))
      return { ok: false, reason: `the certificate is not valid for ${names.join(' or ')}` };
    return { ok: true, usage: 2 };
  }
  return { ok: false, reason: 'no TLSA record matches the certificate chain' };
}

/** Each certificate from the leaf up to `anchor` is issued and signed by the next one. */
function signedUpTo(chain: readonly Buffer[], anchor: number): boolean {
  try {
    for (let i = 0; i < anchor; i++) {
      const cert = new X509Certificate(chain[i]!);
      const issuer = new X509Certificate(chain[i + 1]!);
      if (!cert.checkIssued(issuer) || !cert.verify(issuer.publicKey)) return false;
    }
    return true;
  } catch {
    return false;
  }
}
