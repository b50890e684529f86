import type { Deps } from '../deps.js';
import { SCHEDULER_ACTOR, type Actor } from '../core/actor.js';
import { recordAudit } from '../audit/audit-log.js';
import type { DomainStatus, DomainTable } from '../storage/database.js';
import { recordNotice, type NoticeKind } from '../notices/record-notice.js';
import { verifyDomain, type DomainChecks, type StoredChecks } from './verify-domain.js';
import { checkDkim } from './check-dkim.js';
import { isLookupFailure } from './dns-lookup.js';
import { ed25519Record } from './dns-records.js';
import { pendingDkimRecord, switchAuditTarget, switchColumns } from './dkim-rotation.js';
import type { CheckResult } from './check-result.js';

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
 * never decides the status (see dns-records.ts, ed25519Record). A pending DKIM rotation's record is
 * checked too: once found, signing moves to its key in the same update (`domain.dkim_switch`,
 * dkim-rotation.ts); while it is missing past POSTHORN_DKIM_PENDING_NOTICE_AFTER, a
 * `domain.dkim_pending` notice is raised once.
 * `actor`: a person asked for this check (`domain verify`, POST /v1/domains/{domain}/verify), so it
 * is audited (`domain.verify`); the scheduler's re-checks are not.
 */
export async function checkDomain(
  deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'resolver' | 'config' | 'log'>,
  domain: DomainTable,
  opts: { actor?: Actor } = {},
): Promise<DomainCheckOutcome> {
  const ed25519 = ed25519Record(domain);
  const pending = pendingDkimRecord(domain);
  const [currentChecks, ed25519Check, pendingCheck] = await Promise.all([
    verifyDomain(deps.resolver, {
      domain: domain.name,
      selector: domain.dkim_selector,
      publicKeyB64: domain.dkim_public_key,
      spfIncludeHost: deps.config.spfIncludeHost,
      bounceHost: deps.config.bounceHost,
    }),
    ed25519 === null ? null : checkDkim(deps.resolver, ed25519, domain.ed25519_public_key ?? '', 'ed25519'),
    pending === null ? null : checkDkim(deps.resolver, pending, domain.dkim_pending_public_key ?? ''),
  ]);
  const now = deps.clock.now();
  // A rotation's new record is found: signing moves to it in this same update, and its check is the
  // DKIM check from now on (docs/delivery.md). The old record may be gone already.
  const rotation = pendingCheck?.ok === true ? switchColumns(deps, domain, now) : null;
  const checks: DomainChecks =
    rotation !== null && pendingCheck !== null ? { ...currentChecks, dkim: pendingCheck } : currentChecks;
  const stored: StoredChecks = ed25519Check === null ? checks : { ...checks, dkim_ed25519: ed25519Check };
  const ok = Object.values(checks).every((c) => c.ok);
  const inconclusive = !ok && Object.values(checks).every((c) => c.ok || isLookupFailure(c.problem));
  const next = inconclusive
    ? { status: domain.status, failingSince: domain.failing_since }
    : nextStatus(domain, ok, now, deps.config.domainGracePeriod);
  const pendingNotice = rotation === null ? pendingNoticeFor(deps, domain, pendingCheck, now) : null;
  const pendingColumns =
    rotation !== null
      ? rotation
      : pendingCheck !== null
        ? {
            dkim_pending_check: JSON.stringify(pendingCheck),
            ...(pendingNotice ? { dkim_pending_warned_at: now } : {}),
          }
        : {};
  const updated: DomainTable = {
    ...domain,
    ...pendingColumns,
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
        ...pendingColumns,
        status: updated.status,
        failing_since: updated.failing_since,
        checked_at: now,
        last_checks: updated.last_checks,
        verified_at: updated.verified_at,
      })
      .where('id', '=', domain.id)
      .where('status', '=', domain.status)
      // The pending key as read: a switch by a racing checker happens once, and is audited once.
      .$if(domain.dkim_pending_selector !== null, (q) =>
        q.where('dkim_pending_selector', '=', domain.dkim_pending_selector),
      )
      .executeTakeFirst();
    const applied = Number(res.numUpdatedRows) > 0;
    if (notice && applied) {
      await recordNotice(trx, deps.ids, now, {
        accountId: domain.account_id,
        domainId: domain.id,
        ...notice,
        details: { domain: domain.name, checks },
      });
    }
    if (pendingNotice && applied && pending !== null) {
      await recordNotice(trx, deps.ids, now, {
        accountId: domain.account_id,
        domainId: domain.id,
        kind: 'domain.dkim_pending',
        message: pendingNotice,
        details: { domain: domain.name, selector: domain.dkim_pending_selector, record: pending, check: pendingCheck },
      });
    }
    if (rotation !== null && applied)
      await recordAudit(trx, deps, {
        accountId: domain.account_id,
        actor: opts.actor ?? SCHEDULER_ACTOR,
        action: 'domain.dkim_switch',
        target: switchAuditTarget(domain, rotation.dkim_retired_until ?? now),
      });
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

/**
 * The sentence of the `domain.dkim_pending` notice, once a rotation's record has not been found for
 * POSTHORN_DKIM_PENDING_NOTICE_AFTER; null before that, after it was raised once, and while the
 * resolver does not answer (that says nothing about the record).
 */
function pendingNoticeFor(
  deps: Pick<Deps, 'config'>,
  domain: DomainTable,
  check: CheckResult | null,
  now: number,
): string | null {
  if (check === null || check.ok || domain.dkim_pending_since === null || domain.dkim_pending_warned_at !== null)
    return null;
  if (isLookupFailure(check.problem)) return null;
  if (now - Number(domain.dkim_pending_since) < deps.config.dkimPendingNoticeAfter) return null;
  const days = Math.floor((now - Number(domain.dkim_pending_since)) / 86_400_000);
  return `The new DKIM record of ${domain.name} (${domain.dkim_pending_selector ?? ''}._domainkey.${domain.name}) is still not found after ${days} ${days === 1 ? 'day' : 'days'}; mail is signed with the old key until it is published. ${check.problem ?? ''}`.trim();
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
