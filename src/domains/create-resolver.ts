import { promises as dns } from 'node:dns';
import type { DnsResolver } from '../core/dns-resolver.js';
import { queryTlsa } from '../delivery/security/tlsa-query.js';

/** Per-query knobs for the resolver; unset means c-ares' defaults. */
export interface ResolverOptions {
  /** Milliseconds before one attempt is abandoned. */
  timeoutMs?: number;
  /** Attempts per server before giving up. */
  tries?: number;
}

/**
 * A resolver over `servers` (POSTHORN_DNS_SERVERS entries: `ip`, `ip:port`, `[ipv6]:port`), or over
 * the system's resolvers when the list is empty. Throws on an entry that is not an IP address.
 */
export function createResolver(
  servers: string[],
  opts: ResolverOptions = {},
): DnsResolver & Pick<dns.Resolver, 'resolvePtr'> {
  const resolver = new dns.Resolver({
    ...(opts.timeoutMs !== undefined && { timeout: opts.timeoutMs }),
    ...(opts.tries !== undefined && { tries: opts.tries }),
  });
  const list = servers.map((server) => server.trim()).filter((server) => server !== '');
  if (list.length > 0) resolver.setServers(list);
  // Node's resolver hides the AD bit that DANE needs: TLSA goes through a small client of its own
  // to the same servers (delivery/security/tlsa-query.ts).
  return Object.assign(resolver, {
    resolveTlsa: (name: string) => queryTlsa(list, name, opts.timeoutMs),
  });
}
