import type { DnsResolver } from '../core/dns-resolver.js';
import { checkResult, type CheckResult } from './check-result.js';
import { lookupFailed, lookupTxt } from './dns-lookup.js';
import type { DomainRecord } from './dns-records.js';
import { countSpfLookups } from './spf-lookups.js';
import { normalizeHost } from './normalize-host.js';
import { isSpfRecord, spfTerms } from './spf-terms.js';

/** RFC 7208 §4.6.4: evaluating more DNS-querying terms than this is a permerror. */
const LOOKUP_LIMIT = 10;

/**
 * Checks that the domain publishes exactly one SPF record (RFC 7208 §4.5) that includes
 * `spfIncludeHost` without a fail qualifier and stays within the 10-lookup limit (RFC 7208 §4.6.4).
 * `found` is every TXT record at the domain, so a near-miss (`v=spf 1`) is visible.
 */
export async function checkSpf(
  resolver: DnsResolver,
  record: DomainRecord,
  spfIncludeHost: string,
): Promise<CheckResult> {
  const answer = await lookupTxt(resolver, record.name);
  if (!answer.ok) return checkResult(record.value, [], lookupFailed(answer.code));
  const found = answer.records;
  const spf = found.filter(isSpfRecord);
  if (spf.length === 0) {
    return checkResult(record.value, found, `No SPF record at ${record.name}; add TXT "${record.value}".`);
  }
  if (spf.length > 1) {
    const problem =
      `${record.name} has ${spf.length} SPF records; receivers treat that as a permanent error ` +
      `(RFC 7208 §4.5). Merge them into one record that has include:${normalizeHost(spfIncludeHost)}.`;
    return checkResult(record.value, found, problem);
  }
  const includeProblem = findIncludeProblem(spf[0], spfIncludeHost);
  if (includeProblem) return checkResult(record.value, found, includeProblem);
  const { count, notes } = await countSpfLookups(resolver, record.name, spf[0]);
  if (count <= LOOKUP_LIMIT) return checkResult(record.value, found, undefined, notes);
  const over = `SPF needs ${count} DNS lookups, over the ${LOOKUP_LIMIT}-lookup limit (RFC 7208 §4.6.4)`;
  const problem = `${over}; receivers treat it as a permanent error. Remove includes you no longer use.`;
  return checkResult(record.value, found, problem, [over, ...notes]);
}

/** Why the record does not authorise our include host, or undefined when it does. */
function findIncludeProblem(spf: string, spfIncludeHost: string): string | undefined {
  const host = normalizeHost(spfIncludeHost);
  const terms = spfTerms(spf);
  const index = terms.findIndex(
    (t) => t.kind === 'mechanism' && t.name === 'include' && normalizeHost(t.value) === host,
  );
  if (index < 0) return `The SPF record does not have include:${host}; add it before the final "all".`;
  if (terms[index].qualifier === '-') {
    return `The SPF record has -include:${host}, which fails our mail; use include:${host}.`;
  }
  // RFC 7208 §5.1: mechanisms after "all" are never tested.
  const allIndex = terms.findIndex((t) => t.kind === 'mechanism' && t.name === 'all');
  if (allIndex >= 0 && allIndex < index) {
    return `include:${host} comes after "all" in the SPF record, so receivers never reach it; move it before.`;
  }
  return undefined;
}
