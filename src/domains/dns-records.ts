import { ed25519DnsValue } from '../delivery/dkim/dkim-keys.js';
import { normalizeHost } from './normalize-host.js';

/** The four records a sending domain publishes, in the order they are shown; a domain is verified only when all four match. */
export const RECORD_PURPOSES = ['spf', 'dkim', 'return_path', 'dmarc'] as const;

/** What a domain record is for. */
export type RecordPurpose = (typeof RECORD_PURPOSES)[number];

/** One DNS record the customer adds alongside their existing ones. */
export interface DomainRecord {
  purpose: RecordPurpose;
  type: 'TXT' | 'CNAME';
  name: string;
  value: string;
}

/** The service's own hosts that the customer's records point at (POSTHORN_SPF_INCLUDE_HOST, POSTHORN_BOUNCE_HOST, …: docs/config.md). */
export interface ServiceHosts {
  spfIncludeHost: string;
  bounceHost: string;
}

/** The records `domain` must publish to send with the DKIM key `publicKeyB64` under `selector`. */
export function domainRecords(
  domain: string,
  selector: string,
  publicKeyB64: string,
  hosts: ServiceHosts,
): DomainRecord[] {
  const name = normalizeHost(domain);
  return [
    // RFC 7208 §5.2: include: authorises our sending IPs; ~all (softfail) so a customer who
    // pastes this as their only SPF record does not hard-fail mail from other senders at once.
    { purpose: 'spf', type: 'TXT', name, value: `v=spf1 include:${normalizeHost(hosts.spfIncludeHost)} ~all` },
    // RFC 6376 §3.6.1 key record at <selector>._domainkey.<domain> (§3.6.2.1).
    {
      purpose: 'dkim',
      type: 'TXT',
      name: `${selector}._domainkey.${name}`,
      value: `v=DKIM1; k=rsa; p=${publicKeyB64}`,
    },
    // The envelope sender lives under bounce.<domain>, so SPF aligns (RFC 7489 §3.1.2) while
    // bounces still reach our inbound MX through the CNAME.
    { purpose: 'return_path', type: 'CNAME', name: `bounce.${name}`, value: normalizeHost(hosts.bounceHost) },
    // RFC 7489 §6.3. Start at p=none: receivers report but do not act, so a customer's other mail
    // streams are not quarantined before they are aligned too; tighten to quarantine/reject later.
    // Relaxed alignment (adkim=r; aspf=r) lets bounce.<domain> align with <domain>.
    { purpose: 'dmarc', type: 'TXT', name: `_dmarc.${name}`, value: 'v=DMARC1; p=none; adkim=r; aspf=r' },
  ];
}

/**
 * The optional fifth record: the Ed25519 key (RFC 8463 §4.2) at its own selector, while Ed25519
 * signing is on; null when it is off. It never decides verification (the RSA signature is always
 * there too, RFC 6376 §6.1), but it is checked with the four so its status can be shown.
 */
export function ed25519Record(d: {
  name: string;
  ed25519_selector: string | null;
  ed25519_public_key: string | null;
}): { purpose: 'dkim_ed25519'; type: 'TXT'; name: string; value: string } | null {
  if (d.ed25519_selector === null || d.ed25519_public_key === null) return null;
  return {
    purpose: 'dkim_ed25519',
    type: 'TXT',
    name: `${d.ed25519_selector}._domainkey.${normalizeHost(d.name)}`,
    value: ed25519DnsValue(d.ed25519_public_key),
  };
}
