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
}
