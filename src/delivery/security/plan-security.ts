import { isIP } from 'node:net';
import type { Deps } from '../../deps.js';
import type { Destination } from '../transport.js';
import { mxMatches } from './sts-policy.js';
import { lookupStsPolicy } from './sts-store.js';
import { usableTlsa } from './tlsa-match.js';
import type { ReportPolicy, TlsOutcome } from './tls-outcome.js';

/** A result TLS-RPT counts that concerns no session (a policy that could not be had). */
export interface PolicyNote {
  report: ReportPolicy;
  resultType: string;
  reason: string;
}

export type SecurityPlan =
  | { kind: 'deliver'; destinations: Destination[]; notes: PolicyNote[] }
  /** The domain's MTA-STS policy allows none of its MX hosts (RFC 8461 §4.1): deferred, then failed with this reason. */
  | { kind: 'defer'; reason: string; tls: TlsOutcome; notes: PolicyNote[] };

type PlanDeps = Pick<Deps, 'db' | 'clock' | 'resolver' | 'config' | 'log'>;

/**
 * The transport-security policy of each MX host of `domain` (docs/delivery.md):
 * DANE where the resolver returns authenticated TLSA records for the host (RFC 7672; it takes
 * precedence over MTA-STS, RFC 8461 §2), else the domain's MTA-STS policy, else opportunistic TLS.
 * Under an enforced MTA-STS policy the hosts its `mx` patterns do not name are dropped (§4.1).
 */
export async function planSecurity(deps: PlanDeps, domain: string, destinations: Destination[]): Promise<SecurityPlan> {
  const notes: PolicyNote[] = [];
  const [sts, tlsa] = await Promise.all([
    lookupStsPolicy(deps, domain),
    Promise.all(destinations.map((d) => daneRecords(deps, d))),
  ]);
  if (sts.kind === 'fetch-error')
    notes.push({
      report: { policyType: 'no-policy-found', policyString: [], policyMx: [] },
      resultType: 'sts-policy-fetch-error',
      reason: sts.reason,
    });
  const policy = sts.kind === 'policy' && sts.policy.mode !== 'none' ? sts.policy : null;
  const stsReport: ReportPolicy | undefined = policy
    ? { policyType: 'sts', policyString: policy.lines, policyMx: policy.mx }
    : undefined;
  const planned: Destination[] = [];
  destinations.forEach((d, i) => {
    const records = tlsa[i];
    if (records !== undefined && records.length > 0) {
      const report: ReportPolicy = {
        policyType: 'tlsa',
        policyString: records.map((r) => `${r.usage} ${r.selector} ${r.matchingType} ${r.data.toString('hex')}`),
        policyMx: [d.host],
      };
      planned.push({ ...d, tls: { policy: 'dane', mode: 'enforce', tlsa: records, report } });
      return;
    }
    if (policy === null) return void planned.push(d);
    const listed = mxMatches(policy.mx, d.host);
    if (!listed && policy.mode === 'enforce') return;
    planned.push({
      ...d,
      tls: { policy: 'mta-sts', mode: policy.mode as 'enforce' | 'testing', mxMismatch: !listed, report: stsReport! },
    });
  });
  if (planned.length === 0 && policy !== null) {
    const reason = `the MTA-STS policy of ${domain} (mode enforce) names none of its MX hosts (${destinations.map((d) => d.host).join(', ')})`;
    notes.push({ report: stsReport!, resultType: 'validation-failure', reason });
    return {
      kind: 'defer',
      reason,
      tls: {
        version: null,
        cipher: null,
        policy: 'mta-sts',
        mode: 'enforce',
        validated: false,
        failure: reason,
        result_type: 'validation-failure',
      },
      notes,
    };
  }
  return { kind: 'deliver', destinations: planned, notes };
}

/**
 * The usable TLSA records of an MX host when the resolver authenticated them (RFC 7672 §2.2),
 * else undefined. TLSA is asked at the port mail goes to (RFC 6698 §3: `_25._tcp` on port 25).
 * An unauthenticated or failed lookup gives no DANE: the host is treated as any other.
 */
async function daneRecords(deps: PlanDeps, d: Destination) {
  if (deps.resolver.resolveTlsa === undefined || isIP(d.host) !== 0) return undefined;
  try {
    const answer = await deps.resolver.resolveTlsa(`_${d.port}._tcp.${d.host}`);
    if (!answer.authenticated) return undefined;
    return usableTlsa(answer.records);
  } catch (err) {
    deps.log.info({ host: d.host, err: (err as Error).message }, 'TLSA lookup failed');
    return undefined;
  }
}
