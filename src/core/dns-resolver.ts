/**
 * The DNS questions Posthorn asks, as an interface so tests can point it at a loopback server.
 * Node's `dns.promises.Resolver` satisfies it; errors carry Node's `code` (ENOTFOUND, ENODATA,
 * ESERVFAIL, ETIMEOUT, ...), which callers use to tell "no record" from "could not ask".
 */
export interface DnsResolver {
  resolveTxt(name: string): Promise<string[][]>;
  resolveCname(name: string): Promise<string[]>;
  resolveMx(name: string): Promise<{ exchange: string; priority: number }[]>;
  resolve4(name: string): Promise<string[]>;
  resolve6(name: string): Promise<string[]>;
  /**
   * TLSA records at `name` and whether the resolver authenticated them (the AD bit), for DANE
   * (RFC 7672). Optional: a resolver without it means no DANE.
   */
  resolveTlsa?(name: string): Promise<TlsaAnswer>;
}

/** One TLSA record (RFC 6698 §2.1). */
export interface TlsaRecord {
  usage: number;
  selector: number;
  matchingType: number;
  data: Buffer;
}

/** A TLSA answer and whether the resolver vouched for it with the AD bit (RFC 4035 §3.2.3). */
export interface TlsaAnswer {
  authenticated: boolean;
  records: TlsaRecord[];
}
