import type { Deps } from '../../deps.js';
import { resolverLookup } from '../smtp/resolver-lookup.js';
import { fetchStsPolicy } from './fetch-sts-policy.js';
import { parseStsPolicy, parseStsRecord, type StsMode, type StsPolicy } from './sts-policy.js';
import { trustedCas } from './trust-store.js';
import { compileOnce } from '../../storage/compile-once.js';

/** The cached policy row, read once per delivery attempt; compiled once (storage/compile-once.ts). */
const cachedPolicy = compileOnce((db, [domain]: [string]) =>
  db.selectFrom('mta_sts_policies').selectAll().where('domain', '=', domain),
);

/** A recipient domain's MTA-STS state at delivery time. */
export type StsLookup =
  | { kind: 'none' }
  | { kind: 'policy'; id: string; policy: StsPolicy; cached: boolean }
  /** The domain announces a policy but it could not be had, and none is cached: delivery goes on without one (RFC 8461 §5). */
  | { kind: 'fetch-error'; reason: string };

type StsDeps = Pick<Deps, 'db' | 'clock' | 'resolver' | 'config' | 'log'>;

/** NXDOMAIN and NODATA: the domain publishes no `_mta-sts` record. */
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA']);

/**
 * The MTA-STS policy for mail to `domain` (RFC 8461 §5): the cached one while its `max_age` lasts
 * and the TXT id is unchanged; otherwise fetched again and stored. When the TXT lookup or the
 * fetch fails, a cached policy that has not expired is used as it is (§5.1: a failed refresh must
 * not drop a policy), so an attacker who blocks the policy host cannot turn enforcement off.
 */
export async function lookupStsPolicy(deps: StsDeps, domain: string): Promise<StsLookup> {
  const now = deps.clock.now();
  const name = domain.toLowerCase();
  const [row] = (await cachedPolicy(deps.db, [name])).rows;
  const cached =
    row !== undefined && Number(row.expires_at) > now
      ? {
          kind: 'policy' as const,
          id: row.policy_id,
          cached: true,
          policy: {
            mode: row.mode as StsMode,
            mx: JSON.parse(row.mx) as string[],
            maxAge: Number(row.max_age),
            lines: row.policy_text.split(/\r?\n/).filter((l) => l !== ''),
          },
        }
      : null;
  let id: string | null;
  try {
    id = parseStsRecord(await deps.resolver.resolveTxt(`_mta-sts.${name}`));
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== undefined && NO_RECORD.has(code)) id = null;
    else {
      deps.log.info({ domain: name, err: (err as Error).message }, 'MTA-STS record lookup failed');
      return cached ?? { kind: 'none' };
    }
  }
  // §3.1: without a record the cached policy still holds until it expires (§5).
  if (id === null) return cached ?? { kind: 'none' };
  if (cached !== null && cached.id === id) return cached;
  let policy: StsPolicy;
  let text: string;
  try {
    text = await fetchStsPolicy(name, {
      port: deps.config.mtaStsPort,
      ca: trustedCas(deps.config.tlsCaFile),
      lookup: resolverLookup(deps.resolver),
    });
    policy = parseStsPolicy(text);
  } catch (err) {
    const reason = (err as Error).message;
    deps.log.info({ domain: name, err: reason, cached: cached !== null }, 'MTA-STS policy fetch failed');
    return cached ?? { kind: 'fetch-error', reason };
  }
  const fetchedAt = deps.clock.now();
  const values = {
    policy_id: id,
    mode: policy.mode,
    mx: JSON.stringify(policy.mx),
    max_age: policy.maxAge,
    policy_text: policy.lines.join('\n'),
    fetched_at: fetchedAt,
    expires_at: fetchedAt + policy.maxAge * 1000,
  };
  await deps.db
    .insertInto('mta_sts_policies')
    .values({ domain: name, ...values })
    .onConflict((oc) => oc.column('domain').doUpdateSet(values))
    .execute();
  return { kind: 'policy', id, policy, cached: false };
}
