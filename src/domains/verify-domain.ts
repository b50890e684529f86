import type { DnsResolver } from '../core/dns-resolver.js';
import type { CheckResult } from './check-result.js';
import { checkDkim } from './check-dkim.js';
import { checkDmarc } from './check-dmarc.js';
import { checkReturnPath } from './check-return-path.js';
import { checkSpf } from './check-spf.js';
import { domainRecords, type DomainRecord, type RecordPurpose } from './dns-records.js';

export type { CheckResult } from './check-result.js';

/** The result of each of the four record checks, by purpose. */
export type DomainChecks = Record<RecordPurpose, CheckResult>;

/** `domains.last_checks`: the four checks, and the Ed25519 record's when that signing was on. */
export type StoredChecks = DomainChecks & { dkim_ed25519?: CheckResult };

/** What to verify: the domain, its current DKIM key, and the service hosts it must point at. */
export interface VerifyDomainInput {
  domain: string;
  selector: string;
  publicKeyB64: string;
  spfIncludeHost: string;
  bounceHost: string;
}

/**
 * Checks the four records a sending domain needs (all four must match to verify)
 * concurrently through `resolver`. Never throws: DNS failures are reported per check.
 */
export async function verifyDomain(resolver: DnsResolver, input: VerifyDomainInput): Promise<DomainChecks> {
  const { spfIncludeHost, bounceHost } = input;
  const records = domainRecords(input.domain, input.selector, input.publicKeyB64, { spfIncludeHost, bounceHost });
  const record = Object.fromEntries(records.map((r) => [r.purpose, r])) as Record<RecordPurpose, DomainRecord>;
  const [spf, dkim, returnPath, dmarc] = await Promise.all([
    checkSpf(resolver, record.spf, spfIncludeHost),
    checkDkim(resolver, record.dkim, input.publicKeyB64),
    checkReturnPath(resolver, record.return_path),
    checkDmarc(resolver, record.dmarc),
  ]);
  return { spf, dkim, return_path: returnPath, dmarc };
}
