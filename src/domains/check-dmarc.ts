import type { DnsResolver } from '../core/dns-resolver.js';
import { checkResult, type CheckResult } from './check-result.js';
import { lookupFailed, lookupTxt } from './dns-lookup.js';
import type { DomainRecord } from './dns-records.js';
import { isDmarcRecord, validateDmarc } from './dmarc-record.js';

/**
 * Checks that `_dmarc.<domain>` publishes exactly one DMARC record (RFC 7489 §6.6.3) and that it is
 * syntactically valid (RFC 7489 §6.3, §6.4). Any valid policy passes: customers tighten p= over
 * time.
 */
export async function checkDmarc(resolver: DnsResolver, record: DomainRecord): Promise<CheckResult> {
  const answer = await lookupTxt(resolver, record.name);
  if (!answer.ok) return checkResult(record.value, [], lookupFailed(answer.code));
  const found = answer.records;
  const dmarc = found.filter(isDmarcRecord);
  if (dmarc.length === 0) {
    return checkResult(record.value, found, `No DMARC record at ${record.name}; add TXT "${record.value}".`);
  }
  if (dmarc.length > 1) {
    const problem =
      `${record.name} has ${dmarc.length} DMARC records; receivers then apply no DMARC policy at all ` +
      '(RFC 7489 §6.6.3). Keep one.';
    return checkResult(record.value, found, problem);
  }
  const { errors, warnings } = validateDmarc(dmarc[0]);
  if (errors.length === 0) return checkResult(record.value, found, undefined, warnings);
  return checkResult(
    record.value,
    found,
    `The DMARC record at ${record.name} is invalid: ${errors.join('; ')}.`,
    warnings,
  );
}
