import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { DnsResolver } from '../../core/dns-resolver.js';

/**
 * A `net.connect` lookup that asks the configured resolvers (POSTHORN_DNS_SERVERS) for an MX
 * host's addresses, as the MX lookup itself does, instead of the system's getaddrinfo. IPv4 and
 * IPv6 are both asked; with `all` (Node's happy-eyeballs connect) every address is returned.
 */
export function resolverLookup(resolver: DnsResolver): LookupFunction {
  return (hostname, options, callback) => {
    const settle = (results: PromiseSettledResult<string[]>[]) => {
      const [v4, v6] = results.map((r) => (r.status === 'fulfilled' ? r.value : []));
      const addresses: LookupAddress[] = [
        ...(v4 ?? []).map((address) => ({ address, family: 4 })),
        ...(v6 ?? []).map((address) => ({ address, family: 6 })),
      ];
      const wanted =
        options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
      if (wanted.length === 0) {
        const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult | undefined;
        const err = Object.assign(
          new Error(`no address for ${hostname}${failed ? `: ${(failed.reason as Error).message}` : ''}`),
          { code: 'ENOTFOUND', hostname },
        );
        callback(err, '', 4);
        return;
      }
      if (options.all) (callback as unknown as (err: null, addresses: LookupAddress[]) => void)(null, wanted);
      else callback(null, wanted[0]!.address, wanted[0]!.family);
    };
    void Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]).then(settle);
  };
}
