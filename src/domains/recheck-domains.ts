import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import { checkDomain } from './check-domain.js';

/**
 * Re-checks every live, non-sandbox domain whose last check is older than the re-check interval
 * (POSTHORN_DOMAIN_RECHECK_INTERVAL, daily by default), a few at a time. Pending domains are
 * included, so a domain becomes verified by itself once its records are published. A domain whose
 * DKIM rotation is pending is due every POSTHORN_DKIM_PENDING_CHECK_INTERVAL, and the check moves
 * signing to the new key once its record is found (check-domain.ts). Returns how many were checked.
 */
export async function recheckDueDomains(
  deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'resolver' | 'config' | 'log'>,
  batch = 50,
): Promise<number> {
  const dueBefore = deps.clock.now() - deps.config.domainRecheckInterval;
  const pendingDueBefore = deps.clock.now() - deps.config.dkimPendingCheckInterval;
  const due = await deps.db
    .selectFrom('domains')
    .selectAll()
    .where('sandbox', '=', 0)
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('checked_at', 'is', null),
        eb('checked_at', '<=', dueBefore),
        // A pending DKIM rotation is checked more often, so signing switches soon after its record is published.
        eb.and([eb('dkim_pending_selector', 'is not', null), eb('checked_at', '<=', pendingDueBefore)]),
      ]),
    )
    // Never-checked first on both databases (they order NULLs differently).
    .orderBy(sql`coalesce(checked_at, 0)`)
    .limit(batch)
    .execute();
  for (const domain of due) {
    try {
      const out = await checkDomain(deps, domain);
      if (out.domain.status !== domain.status)
        deps.log.info({ domain: domain.name, from: domain.status, to: out.domain.status }, 'domain status changed');
    } catch (err) {
      deps.log.error({ err, domain: domain.name }, 'domain re-check failed');
    }
  }
  return due.length;
}
