import type { DnsResolver } from '../core/dns-resolver.js';
import { checkResult, type CheckResult } from './check-result.js';
import { dnsLookup, lookupFailed, lookupTxt } from './dns-lookup.js';
import type { DomainRecord } from './dns-records.js';
import { normalizeHost } from './normalize-host.js';

/**
 * Checks that `bounce.<domain>` is a CNAME to the bounce host (case and trailing dots ignored).
 * `found` holds the CNAME targets; when there is none, the name's other records as "A 192.0.2.1".
 */
export async function checkReturnPath(resolver: DnsResolver, record: DomainRecord): Promise<CheckResult> {
  const answer = await dnsLookup(() => resolver.resolveCname(record.name));
  if (!answer.ok) return checkResult(record.value, [], lookupFailed(answer.code));
  const targets = answer.records;
  const bounceHost = normalizeHost(record.value);
  if (targets.some((target) => normalizeHost(target) === bounceHost))
    return checkResult(record.value, targets, undefined);
  if (targets.length > 0) {
    const problem = `${record.name} is a CNAME to ${targets.join(', ')}, not to ${bounceHost}; point it at ${bounceHost}.`;
    return checkResult(record.value, targets, problem);
  }
  const others = await otherRecords(resolver, record.name);
  const problem =
    others.length > 0
      ? `${record.name} has ${others.join(', ')} but no CNAME; replace them with a CNAME to ${record.value}.`
      : `No CNAME at ${record.name}; add a CNAME to ${record.value}.`;
  return checkResult(record.value, others, problem);
}

/** The A and TXT records at a name without a CNAME, so the customer sees what is in the way. */
async function otherRecords(resolver: DnsResolver, name: string): Promise<string[]> {
  const [a, txt] = await Promise.all([dnsLookup(() => resolver.resolve4(name)), lookupTxt(resolver, name)]);
  // Best effort: a failed lookup here only makes the explanation shorter.
  return [
    ...(a.ok ? a.records.map((address) => `A ${address}`) : []),
    ...(txt.ok ? txt.records.map((value) => `TXT "${value}"`) : []),
  ];
}
