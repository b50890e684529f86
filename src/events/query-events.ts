import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Deps } from '../deps.js';
import type { Database } from '../storage/database.js';
import { toEventRecord, type EventRecord } from './event-record.js';
import type { EventsFilter } from './parse-events-query.js';

/** The GET /v1/events response body (docs/api.md, `GET /v1/events`). */
export interface EventsPage {
  /** Events matching the filter, not the number returned. */
  total: number;
  limit: number;
  offset: number;
  events: EventRecord[];
}

/**
 * One page of a domain's events, newest first with ties broken by id descending (ids are
 * time-ordered ULIDs, so the order is total and paging neither repeats nor skips), plus the count
 * of every matching event. Both queries share one filter expression.
 */
export async function queryEvents(deps: Pick<Deps, 'db'>, domainId: string, filter: EventsFilter): Promise<EventsPage> {
  const where = matching(domainId, filter);
  // Two statements may see different snapshots while events arrive; that is accepted: a live
  // filter shifts anyway, and clients pin `end` for a stable set (docs/api.md).
  const [rows, count] = await Promise.all([
    deps.db
      .selectFrom('events')
      .selectAll()
      .where(where)
      .orderBy('occurred_at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    deps.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll().as('n'))
      .where(where)
      .executeTakeFirstOrThrow(),
  ]);
  return { total: Number(count.n), limit: filter.limit, offset: filter.offset, events: rows.map(toEventRecord) };
}

/** The WHERE clause: the key's domain only, then each filter the query set (start/end inclusive). */
function matching(
  domainId: string,
  filter: EventsFilter,
): (eb: ExpressionBuilder<Database, 'events'>) => Expression<SqlBool> {
  return (eb) => {
    const conditions: Expression<SqlBool>[] = [eb('domain_id', '=', domainId)];
    if (filter.event !== undefined) conditions.push(eb('event', '=', filter.event));
    if (filter.messageId !== undefined) conditions.push(eb('message_id', '=', filter.messageId));
    if (filter.start !== undefined) conditions.push(eb('occurred_at', '>=', filter.start));
    if (filter.end !== undefined) conditions.push(eb('occurred_at', '<=', filter.end));
    return eb.and(conditions);
  };
}
