import type { DnsResolver } from '../core/dns-resolver.js';

/** A DNS answer as data: the records (empty when the name or type does not exist), or the error code. */
export type Lookup<T> = { ok: true; records: T[] } | { ok: false; code: string };

/** Codes that mean "asked and answered: nothing there" (NXDOMAIN, or NOERROR with no data). */
const NO_RECORD_CODES = new Set(['ENOTFOUND', 'ENODATA']);

/** Runs one resolver query and turns its rejection into data, so checks never throw. */
export async function dnsLookup<T>(query: () => Promise<T[]>): Promise<Lookup<T>> {
  try {
    return { ok: true, records: await query() };
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && NO_RECORD_CODES.has(code)) return { ok: true, records: [] };
    return { ok: false, code: typeof code === 'string' ? code : 'EUNKNOWN' };
  }
}

/**
 * TXT records at `name`, each with its character-strings joined without a separator, as
 * RFC 7208 §3.3 and RFC 6376 §3.6.2.2 both require.
 */
export async function lookupTxt(resolver: DnsResolver, name: string): Promise<Lookup<string>> {
  const answer = await dnsLookup(() => resolver.resolveTxt(name));
  return answer.ok ? { ok: true, records: answer.records.map((chunks) => chunks.join('')) } : answer;
}

const LOOKUP_FAILED = 'DNS lookup failed: ';

/** The sentence a check reports when it could not ask. */
export function lookupFailed(code: string): string {
  return `${LOOKUP_FAILED}${code}`;
}

/** True when a check's problem is that the resolver could not answer, not that a record is wrong. */
export function isLookupFailure(problem: string | undefined): boolean {
  return problem?.startsWith(LOOKUP_FAILED) === true;
}
