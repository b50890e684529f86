import type { Kysely, Transaction } from 'kysely';
import type { Ids } from '../core/ids.js';
import { recordNotice } from '../notices/record-notice.js';
import type { Database } from '../storage/database.js';

/** The complaint-rate policy (the acceptable use policy allows 0.1%: docs/inbound.md, Complaint rate). */
export const COMPLAINT_RATE = {
  /** The rolling window the rate is computed over. */
  windowMs: 30 * 86_400_000,
  /** The acceptable use policy's limit. */
  threshold: 0.001,
  /** A notice is raised above this, before the limit is reached. */
  warningAt: 0.0008,
  /**
   * No notice below this many deliveries in the window: one complaint on 300 messages is 0.33%,
   * which says nothing about a sender yet. The rate itself is always shown.
   */
  minDelivered: 1000,
  /** At most one notice per domain in this time (domains.complaint_warned_at). */
  noticeEveryMs: 86_400_000,
} as const;

/** A domain's (or an account's) rolling complaint rate, as `domain show`, GET /v1/domain and GET /v1/usage print it. */
export interface ComplaintRate {
  complaints: number;
  delivered: number;
  /** complaints / delivered; null when nothing was delivered in the window. */
  rate: number | null;
  threshold: number;
  warning_at: number;
  window_days: number;
  min_delivered: number;
}

/**
 * The rolling 30-day complaint rate of a domain: `complained` events over `delivered` events in the
 * window ending at `now`, both one per recipient (from the events table).
 */
export async function complaintRate(
  db: Kysely<Database> | Transaction<Database>,
  domainId: string,
  now: number,
): Promise<ComplaintRate> {
  return rateOver(db, 'domain_id', domainId, now);
}

/**
 * The same rolling 30-day rate over every domain of an account (GET /v1/usage, docs/api.md): the
 * acceptable use policy's limit applies to each domain, and this shows the account's overall figure.
 */
export async function accountComplaintRate(
  db: Kysely<Database> | Transaction<Database>,
  accountId: string,
  now: number,
): Promise<ComplaintRate> {
  return rateOver(db, 'account_id', accountId, now);
}

async function rateOver(
  db: Kysely<Database> | Transaction<Database>,
  column: 'domain_id' | 'account_id',
  id: string,
  now: number,
): Promise<ComplaintRate> {
  // The occurred_at bounds also let PostgreSQL skip every monthly partition outside the window.
  const rows = await db
    .selectFrom('events')
    .select(['event', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where(column, '=', id)
    .where('event', 'in', ['complained', 'delivered'])
    .where('occurred_at', '>', now - COMPLAINT_RATE.windowMs)
    .where('occurred_at', '<=', now)
    .groupBy('event')
    .execute();
  // Number(): PostgreSQL's count() is a BIGINT and comes back as a string.
  const count = (name: string): number => Number(rows.find((r) => r.event === name)?.n ?? 0);
  const complaints = count('complained');
  const delivered = count('delivered');
  return {
    complaints,
    delivered,
    rate: delivered === 0 ? null : complaints / delivered,
    threshold: COMPLAINT_RATE.threshold,
    warning_at: COMPLAINT_RATE.warningAt,
    window_days: COMPLAINT_RATE.windowMs / 86_400_000,
    min_delivered: COMPLAINT_RATE.minDelivered,
  };
}

/**
 * After a complaint: when the domain's rate is above the warning level with enough deliveries to
 * mean something, records one `domain.complaint_rate` notice, at most once a day per domain. The
 * conditional update of complaint_warned_at is the claim, so two nodes never both warn.
 * Returns true when a notice was recorded.
 */
export async function warnOnComplaintRate(
  db: Kysely<Database>,
  ids: Ids,
  domainId: string,
  now: number,
): Promise<boolean> {
  const rate = await complaintRate(db, domainId, now);
  if (rate.rate === null || rate.rate <= COMPLAINT_RATE.warningAt || rate.delivered < COMPLAINT_RATE.minDelivered)
    return false;
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable('domains')
      .set({ complaint_warned_at: now })
      .where('id', '=', domainId)
      .where((eb) =>
        eb.or([
          eb('complaint_warned_at', 'is', null),
          eb('complaint_warned_at', '<=', now - COMPLAINT_RATE.noticeEveryMs),
        ]),
      )
      .returning(['account_id', 'name'])
      .executeTakeFirst();
    if (!claimed) return false;
    const percent = ((rate.rate ?? 0) * 100).toFixed(3);
    await recordNotice(trx, ids, now, {
      accountId: claimed.account_id,
      domainId,
      kind: 'domain.complaint_rate',
      message:
        `${claimed.name}: complaint rate ${percent}% over the last 30 days (${rate.complaints} complaints, ${rate.delivered} delivered) ` +
        `is above the ${COMPLAINT_RATE.warningAt * 100}% warning level; the acceptable use policy allows ${COMPLAINT_RATE.threshold * 100}%`,
      details: { domain: claimed.name, ...rate },
    });
    return true;
  });
}
