import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import { accountComplaintRate, type ComplaintRate } from '../feedback/complaint-rate.js';

const DAY = 86_400_000;

/** The events counted per day, each under its column of a day's usage. */
const COUNTED = {
  'accepted-by-system': 'accepted',
  delivered: 'delivered',
  failed: 'failed',
  complained: 'complained',
  opened: 'opened',
  clicked: 'clicked',
} as const;

type Counted = (typeof COUNTED)[keyof typeof COUNTED];

/** One UTC day of an account's usage: how many events of each kind happened on it. */
export type DayUsage = { date: string } & Record<Counted, number>;

/** An account's usage in one calendar month, UTC (docs/api.md, `GET /v1/usage`). */
export interface MonthUsage {
  month: string;
  /** Recipients accepted in the month: the count the monthly quota is held against. */
  accepted: number;
  quota: number | null;
  days: DayUsage[];
  complaint_rate: ComplaintRate;
}

/**
 * The `YYYY-MM` of `now`, UTC: the key of the volume table (written as the send pipeline writes it,
 * `src/send/submit.ts`), so the month read here is the month the quota counted in.
 */
export function monthOf(now: number): string {
  return new Date(now).toISOString().slice(0, 7);
}

/** The UTC month `YYYY-MM` as `[from, to)` in epoch ms. setUTCFullYear, unlike Date.UTC, keeps years below 100 as given. */
export function monthBounds(month: string): { from: number; to: number } {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const d = new Date(0);
  const from = d.setUTCFullYear(year, mon - 1, 1);
  const to = d.setUTCFullYear(year, mon, 1);
  return { from, to };
}

/**
 * An account's usage in `month` (`YYYY-MM`): the month's accepted recipients from the volume table
 * (the quota's own count), its quota, one row per UTC day up to today (every day of a past month,
 * none of a month to come) with the day's events by kind, and the account's rolling 30-day
 * complaint rate as of now. Events past retention (120 days) are gone, so an old month's days
 * count zero while its `accepted` remains.
 */
export async function monthUsage(
  deps: Pick<Deps, 'db' | 'clock'>,
  accountId: string,
  month: string,
): Promise<MonthUsage> {
  const now = deps.clock.now();
  const { from, to } = monthBounds(month);
  const dayCount = now < from ? 0 : Math.min(Math.round((to - from) / DAY), Math.floor((now - from) / DAY) + 1);
  const days: DayUsage[] = Array.from({ length: dayCount }, (_, i) => ({
    date: new Date(from + i * DAY).toISOString().slice(0, 10),
    accepted: 0,
    delivered: 0,
    failed: 0,
    complained: 0,
    opened: 0,
    clicked: 0,
  }));
  if (dayCount > 0) {
    // Bounded on occurred_at, so PostgreSQL reads only the month's partition of events
    // (docs/architecture.md); CAST because SQLite binds the numbers as REAL. Grouped by the alias:
    // the same expression written twice would carry two sets of parameters, which PostgreSQL does
    // not take for one.
    const day = sql<number>`cast((occurred_at - ${from}) / ${DAY} as integer)`;
    const rows = await deps.db
      .selectFrom('events')
      .select([day.as('day'), 'event', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('account_id', '=', accountId)
      .where('event', 'in', Object.keys(COUNTED))
      .where('occurred_at', '>=', from)
      .where('occurred_at', '<', Math.min(to, from + dayCount * DAY))
      .groupBy([sql.ref('day'), 'event'])
      .execute();
    for (const r of rows) {
      const target = days[Number(r.day)];
      // Number(): PostgreSQL's count() is a BIGINT and comes back as a string.
      if (target !== undefined) target[COUNTED[r.event as keyof typeof COUNTED]] += Number(r.n);
    }
  }
  const [volume, account] = await Promise.all([
    deps.db
      .selectFrom('volume')
      .select('count')
      .where('account_id', '=', accountId)
      .where('month', '=', month)
      .executeTakeFirst(),
    deps.db.selectFrom('accounts').select('monthly_quota').where('id', '=', accountId).executeTakeFirstOrThrow(),
  ]);
  return {
    month,
    accepted: Number(volume?.count ?? 0),
    quota: account.monthly_quota === null ? null : Number(account.monthly_quota),
    days,
    complaint_rate: await accountComplaintRate(deps.db, accountId, now),
  };
}
