import type { Deps } from '../deps.js';
import type { DomainStatus, DomainTable } from '../storage/database.js';
import { recordNotice } from '../notices/record-notice.js';
import { verifyDomain, type DomainChecks } from './verify-domain.js';

/** The outcome of checking a domain's four records now, and the status it moved to. */
export interface DomainCheckOutcome {
  domain: DomainTable;
  checks: DomainChecks;
  ok: boolean;
}

/**
 * The status after a check (decisions §15): all four records pass → verified; a verified domain
 * whose records stop matching → warning (sends continue, a notice is raised at once); still failing
 * after the grace period → unverified (sends get 403). Pending and unverified domains stay so.
 */
export function nextStatus(d: Pick<DomainTable, 'status' | 'failing_since'>, ok: boolean, now: number, graceMs: number): { status: DomainStatus; failingSince: number | null } {
  if (ok) return { status: 'verified', failingSince: null };
  switch (d.status) {
    case 'pending':
    case 'unverified':
      return { status: d.status, failingSince: null };
    case 'verified':
      return { status: 'warning', failingSince: now };
    case 'warning': {
      const since = d.failing_since ?? now;
      return now - since >= graceMs ? { status: 'unverified', failingSince: null } : { status: 'warning', failingSince: since };
    }
  }
}

function failedPurposes(checks: DomainChecks): string[] {
  return Object.entries(checks).filter(([, c]) => !c.ok).map(([p, c]) => `${p}: ${c.problem ?? 'does not match'}`);
}

/** Checks a domain's records with real DNS, stores the result and applies decisions §15. */
export async function checkDomain(deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'resolver' | 'config'>, domain: DomainTable): Promise<DomainCheckOutcome> {
  const checks = await verifyDomain(deps.resolver, {
    domain: domain.name, selector: domain.dkim_selector, publicKeyB64: domain.dkim_public_key,
    spfIncludeHost: deps.config.spfIncludeHost, bounceHost: deps.config.bounceHost,
  });
  const ok = Object.values(checks).every((c) => c.ok);
  const now = deps.clock.now();
  const next = nextStatus(domain, ok, now, deps.config.domainGracePeriod);
  const updated: DomainTable = {
    ...domain, status: next.status, failing_since: next.failingSince, checked_at: now, last_checks: JSON.stringify(checks),
    verified_at: next.status === 'verified' && domain.status !== 'verified' && domain.status !== 'warning' ? now : domain.verified_at,
  };
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable('domains').set({
      status: updated.status, failing_since: updated.failing_since, checked_at: now, last_checks: updated.last_checks, verified_at: updated.verified_at,
    }).where('id', '=', domain.id).execute();
    const base = { accountId: domain.account_id, domainId: domain.id };
    if (domain.status === 'verified' && next.status === 'warning') {
      await recordNotice(trx, deps.ids, now, { ...base, kind: 'domain.warning',
        message: `DNS records of ${domain.name} stopped matching; sending continues, and the domain becomes unverified if they still fail after the grace period. ${failedPurposes(checks).join('; ')}`,
        details: { domain: domain.name, checks } });
    } else if (domain.status === 'warning' && next.status === 'unverified') {
      await recordNotice(trx, deps.ids, now, { ...base, kind: 'domain.unverified',
        message: `DNS records of ${domain.name} kept failing for the grace period; the domain is unverified and sends are refused with 403. ${failedPurposes(checks).join('; ')}`,
        details: { domain: domain.name, checks } });
    } else if (domain.status === 'warning' && next.status === 'verified') {
      await recordNotice(trx, deps.ids, now, { ...base, kind: 'domain.recovered', message: `DNS records of ${domain.name} match again.`, details: { domain: domain.name } });
    }
  });
  return { domain: updated, checks, ok };
}
