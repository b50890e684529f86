// The producer side of the webhook queue: the event writer (events/write-events.ts) and the notice
// writer (notices/record-notice.ts) add rows here in their own transactions, and the webhooks role
// (webhooks/) claims and posts them. It sits below all three and imports only storage, so events and
// notices need nothing of webhooks/ (docs/architecture.md, Layers and conventions).
import type { Kysely, Transaction } from 'kysely';
import type { Database, WebhookDeliveryTable } from '../storage/database.js';
import { insertChunked } from '../storage/insert-chunked.js';
import { compileOnce } from '../storage/compile-once.js';

/** Compiled once per number of domains: every group commit of events asks (compile-once.ts). */
const activeEndpoints = compileOnce((db, [domainIds]: [string[]]) =>
  db
    .selectFrom('webhook_endpoints')
    .select(['id', 'domain_id'])
    .where('domain_id', 'in', domainIds)
    .where('status', '=', 'active'),
);

/** One thing to post to a domain's webhook: an event or a notice, with its signed-over body fixed now. */
export interface OutboxItem {
  domainId: string;
  /** The `webhook-id` (the event's or notice's id). */
  id: string;
  event: string;
  /** The exact JSON body every attempt sends; built only for items that have an endpoint. */
  payload: () => string;
  /** Due from then on: when it happened. */
  at: number;
}

/**
 * Writes the outbox rows (in the transaction that stores the events or notice, so each commits
 * together with its webhook) for the items whose domain has an active endpoint; items of other domains are
 * skipped. One query finds the endpoints of every domain in the batch, so a group commit of
 * thousands of events costs one extra SELECT and one multi-row INSERT. Nothing is cached: an
 * endpoint set a moment ago must get the next event.
 */
export async function enqueueWebhooks(
  db: Kysely<Database> | Transaction<Database>,
  items: readonly OutboxItem[],
): Promise<number> {
  if (items.length === 0) return 0;
  const domainIds = [...new Set(items.map((i) => i.domainId))];
  const { rows: endpoints } = await activeEndpoints(db, [domainIds]);
  if (endpoints.length === 0) return 0;
  const byDomain = new Map(endpoints.map((e) => [e.domain_id, e.id]));
  const rows: WebhookDeliveryTable[] = [];
  for (const item of items) {
    const endpointId = byDomain.get(item.domainId);
    if (endpointId === undefined) continue;
    rows.push({
      id: deliveryId(item.id),
      endpoint_id: endpointId,
      event_id: item.id,
      event: item.event,
      payload: item.payload(),
      state: 'pending',
      attempts: 0,
      next_attempt_at: item.at,
      locked_by: null,
      locked_until: null,
      created_at: item.at,
      finished_at: null,
    });
  }
  await insertChunked(db, 'webhook_deliveries', rows);
  return rows.length;
}

/**
 * `whd_` + the id part of the event (or notice) id: a domain has one endpoint, so an event has at
 * most one delivery, and deriving the id keeps the event writer's signature free of an id source.
 */
export function deliveryId(eventId: string): string {
  return `whd_${eventId.slice(eventId.indexOf('_') + 1)}`;
}
