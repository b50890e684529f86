/**
 * The labels of the delivery metrics (docs/observability.md): the class of a deferral, a few fixed
 * values, so a Prometheus series never exists per reply text. The other label, the mailbox
 * provider, is delivery/providers.ts's (`providerOf`, and the configured table's `of`): it decides
 * delivery limits too, and metrics/ must not import delivery/, which imports it.
 */

/** What a deferred outcome's details say (deliver-group.ts builds them). */
interface DeferralFacts {
  enhanced_status?: unknown;
  response?: unknown;
  hosts_tried?: unknown;
  reason?: unknown;
  tls?: unknown;
}

/**
 * The class of a deferral: the enhanced status code's class and subject (RFC 3463 §3: `4.2.x`
 * mailbox, `4.7.x` security or policy, such as greylisting and rate limits) when the server gave
 * one; `4xx` for a reply without it; `timeout` or `connection` when no server took the message to
 * the end of DATA; `dns` when the route could not be resolved; `tls` when an enforced MTA-STS or
 * DANE policy refused every host; `signing` and `internal` for Posthorn's own faults.
 */
export function deferralClass(details: DeferralFacts, error: string): string {
  // An enforced MTA-STS or DANE policy turned every host down (delivery/security/tls-outcome.ts).
  const tls = details.tls as { mode?: unknown; validated?: unknown } | null | undefined;
  if (typeof tls === 'object' && tls !== null && tls.mode === 'enforce' && tls.validated === false) return 'tls';
  if (typeof details.enhanced_status === 'string') {
    const m = /^([245])\.(\d{1,3})\./.exec(details.enhanced_status);
    if (m) return `${m[1]}.${m[2]}.x`;
  }
  if (typeof details.response === 'string') {
    const m = /^([245])\d\d/.exec(details.response);
    return m ? `${m[1]}xx` : 'other';
  }
  if (Array.isArray(details.hosts_tried)) return /timed? ?out/i.test(error) ? 'timeout' : 'connection';
  if (error.startsWith('signing failed')) return 'signing';
  if (error.startsWith('internal error')) return 'internal';
  if (error === 'no reply for this recipient') return 'connection';
  // resolve-route.ts's deferrals: the recipient domain's MX or address lookups failed for now.
  return 'dns';
}
