/**
 * The labels of the delivery metrics (docs/observability.md): the mailbox provider a recipient's
 * mail went to, and the class of a deferral. Both are few fixed values, so a Prometheus series
 * never exists per domain or per reply text.
 */

/** Every provider label, for the queue's `--provider` filter and holds (docs/delivery-queue.md). */
export const PROVIDER_NAMES = ['gmail', 'outlook', 'yahoo', 'other'] as const;
export type Provider = (typeof PROVIDER_NAMES)[number];

/** MX host name suffixes of the large providers (their published MX records), and their own mail domains. */
const PROVIDERS: readonly { provider: Exclude<Provider, 'other'>; suffixes: readonly string[] }[] = [
  { provider: 'gmail', suffixes: ['google.com', 'googlemail.com', 'gmail.com'] },
  {
    provider: 'outlook',
    suffixes: ['outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'office365.com', 'microsoft.com'],
  },
  { provider: 'yahoo', suffixes: ['yahoodns.net', 'yahoo.com', 'ymail.com', 'aol.com'] },
];

/** The provider behind `host` (an MX host name, or the recipient domain when no MX answered): by name suffix. */
export function providerOf(host: string | null | undefined): Provider {
  if (!host) return 'other';
  // Events name a host on another port than 25 as `host:port` (smtp-transport.ts).
  const name = host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  for (const { provider, suffixes } of PROVIDERS) {
    if (suffixes.some((s) => name === s || name.endsWith(`.${s}`))) return provider;
  }
  return 'other';
}

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
