import type { Deps } from '../deps.js';
import type { Actor } from '../core/actor.js';
import { recordAudit } from '../audit/audit-log.js';
import type { DomainStatus, DomainTable } from '../storage/database.js';
import { recordNotice, type NoticeKind } from '../notices/record-notice.js';
import { verifyDomain, type DomainChecks, type StoredChecks } from './verify-domain.js';
import { checkDkim } from './check-dkim.js';
import { isLookupFailure } from './dns-lookup.js';
import { ed25519Record } from './dns-records.js';

/** The outcome of checking a domain's four records now, and the status it moved to. */
export interface DomainCheckOutcome {
  domain: DomainTable;
  checks: DomainChecks;
  ok: boolean;
}

/**
 * The status after a check: all four records pass → verified; a verified domain
 * whose records stop matching → warning (sends continue, a notice is raised at once); still failing
 * after the grace period → unverified (sends get 403). Pending and unverified domains stay so.
 */
export function nextStatus(
  d: Pick<DomainTable, 'status' | 'failing_since'>,
  ok: boolean,
  now: number,
  graceMs: number,
): { status: DomainStatus; failingSince: number | null } {
  if (ok) return { status: 'verified', failingSince: null };
  switch (d.status) {
    case 'pending':
    case 'unverified':
      return { status: d.status, failingSince: null };
    case 'verified':
      return { status: 'warning', failingSince: now };
    case 'warning': {
      const since = d.failing_since ?? now;
      return now - since >= graceMs
        ? { status: 'unverified', failingSince: null }
        : { status: 'warning', failingSince: since };
    }
  }
}

function failedPurposes(checks: DomainChecks): string[] {
  return Object.entries(checks)
    .filter(([, c]) => !c.ok)
    .map(([p, c]) => `${p}: ${c.problem ?? 'does not match'}`);
}

/**
 * Checks a domain's records with real DNS, stores the result and applies `nextStatus`. When the
 * only failures are our resolver not answering (timeout, SERVFAIL), nothing is concluded: an
 * outage on the operator's side must not walk every domain towards unverified.
 * The update is conditional on the status read, so two checkers racing on one domain (several
 * scheduler nodes, or the scheduler and `domain verify`) raise each notice once.
 * The Ed25519 record, when that signing is on, is checked too and stored beside the four, but it
 * never decides the status (see dns-records.ts, ed25519Record).
 * `actor`: a person asked for this check (`domain verify`, POST /v1/domains/{domain}/verify), so it
 * is audited (`domain.verify`); the scheduler's re-checks are not.
 */
export async function checkDomain(
  deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'resolver' | 'config' | 'log'>,
  domain: DomainTable,
  opts: { actor?: Actor } = {},
): Promise<DomainCheckOutcome> {
  const ed25519 = ed25519Record(domain);
  const [checks, ed25519Check] = await Promise.all([
    verifyDomain(deps.resolver, {
      domain: domain.name,
      selector: domain.dkim_selector,
      publicKeyB64: domain.dkim_public_key,
      spfIncludeHost: deps.config.spfIncludeHost,
      bounceHost: deps.config.bounceHost,
    }),
    ed25519 === null ? null : checkDkim(deps.resolver, ed25519, domain.ed25519_public_key ?? '', 'ed25519'),
  ]);
  const stored: StoredChecks = ed25519Check === null ? checks : { ...checks, dkim_ed25519: ed25519Check };
  const ok = Object.values(checks).every((c) => c.ok);
  const inconclusive = !ok && Object.values(checks).every((c) => c.ok || isLookupFailure(c.problem));
  const now = deps.clock.now();
  const next = inconclusive
    ? { status: domain.status, failingSince: domain.failing_since }
    : nextStatus(domain, ok, now, deps.config.domainGracePeriod);
  const updated: DomainTable = {
    ...domain,
    status: next.status,
    failing_since: next.failingSince,
    checked_at: now,
    last_checks: JSON.stringify(stored),
    verified_at:
      next.status === 'verified' && domain.status !== 'verified' && domain.status !== 'warning'
        ? now
        : domain.verified_at,
  };
  if (inconclusive)
    deps.log.warn({ domain: domain.name, checks }, 'domain check inconclusive: the resolver did not answer');
  const notice = noticeFor(domain, next.status, checks);
  await deps.db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable('domains')
      .set({
        status: updated.status,
        failing_since: updated.failing_since,
        checked_at: now,
        last_checks: updated.last_checks,
        verified_at: updated.verified_at,
      })
      .where('id', '=', domain.id)
      .where('status', '=', domain.status)
      .executeTakeFirst();
    if (notice && Number(res.numUpdatedRows) > 0) {
      await recordNotice(trx, deps.ids, now, {
        accountId: domain.account_id,
        domainId: domain.id,
        ...notice,
        details: { domain: domain.name, checks },
      });
    }
    if (opts.actor)
      await recordAudit(trx, deps, {
        accountId: domain.account_id,
        actor: opts.actor,
        action: 'domain.verify',
        target: `${domain.name} (${updated.status})`,
      });
  });
  return { domain: updated, checks, ok };
}

/** The notice a status change raises, if any (a warning at once, so the operator can fix DNS within the grace period). */
function noticeFor(
  domain: DomainTable,
  next: DomainStatus,
  checks: DomainChecks,
): { kind: NoticeKind; message: string } | null {
  if (domain.status === 'verified' && next === 'warning') {
    return {
      kind: 'domain.warning',
      message: `DNS records of ${domain.name} stopped matching; sending continues, and the domain becomes unverified if they still fail after the grace period. ${failedPurposes(checks).join('; ')}`,
    };
  }
  if (domain.status === 'warning' && next === 'unverified') {
    return {
      kind: 'domain.unverified',
      message: `DNS records of ${domain.name} kept failing for the grace period; the domain is unverified and sends are refused with 403. ${failedPurposes(checks).join('; ')}`,
    };
  }
  if ((domain.status === 'warning' || domain.status === 'unverified') && next === 'verified') {
    return { kind: 'domain.recovered', message: `DNS records of ${domain.name} match again; the domain is verified.` };
  }
  return null;
}

/**
 * A check a person asked for (`domain verify`, POST /v1/domains/{domain}/verify), audited as
 * `domain.verify`. The sandbox domain needs no DNS (its mail never leaves the machine): null, and
 * nothing is checked.
 */
export async function verifyDomainNow(
  deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'resolver' | 'config' | 'log'>,
  domain: DomainTable,
  actor: Actor,
): Promise<DomainCheckOutcome | null> {
  if (domain.sandbox === 1) return null;
  return checkDomain(deps, domain, { actor });
}
