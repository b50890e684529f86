import type { Transaction } from 'kysely';
import type { Database, SuppressionReason } from '../storage/database.js';
import { insertChunked } from '../storage/insert-chunked.js';
import { enqueueWebhooks } from '../outbox/enqueue-webhooks.js';
import { toEventRecord, toEventRow, type NewEvent } from './event-record.js';
import { webhookPayload } from './webhook-payload.js';

export type { NewEvent } from './event-record.js';

/** Which suppression reason an event implies by itself (docs/api.md, Suppression); `failed` suppresses only when the bounce says so. */
function impliedSuppression(e: NewEvent): SuppressionReason | undefined {
  if (e.suppress === false) return undefined;
  switch (e.event) {
    case 'complained':
      return 'complaint';
    case 'unsubscribed':
      return 'unsubscribed';
    case 'failed':
      return e.suppress;
    default:
      return undefined;
  }
}

/**
 * The one place events are stored (CONTRIBUTING.md, Conventions): inside the caller's transaction
 * (the type demands one) it inserts the events, applies their side effects — suppression on a hard
 * `failed`, `complained`, `unsubscribed` — and writes a webhook outbox row for each event whose
 * domain has an active endpoint, so an event is stored and queued for its webhook together or not
 * at all.
 */
export async function writeEvents(db: Transaction<Database>, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map(toEventRow);
  await insertChunked(db, 'events', rows);
  // The body is the record GET /v1/events returns for the same row (docs/webhooks.md), fixed now so
  // every attempt sends, and signs, the same bytes.
  await enqueueWebhooks(
    db,
    rows.map((row) => ({
      domainId: row.domain_id,
      id: row.id,
      event: row.event,
      payload: () => webhookPayload(toEventRecord(row)),
      at: row.occurred_at,
    })),
  );
  for (const e of events) {
    const reason = impliedSuppression(e);
    if (reason === undefined) continue;
    await db
      .insertInto('suppressions')
      .values({
        account_id: e.accountId,
        address: e.recipient.toLowerCase(),
        reason,
        message_id: e.messageId,
        // The sending domain's name, so the list (and its export) says which domain's mail led
        // to it; read in the same statement, as events carry the domain's id only.
        domain: db.selectFrom('domains').select('name').where('id', '=', e.domainId),
        // The failed event's reason (docs/bounces.md), kept with the entry so the list says why.
        bounce_reason:
          reason === 'hard_bounce' && typeof e.details.bounce_reason === 'string' ? e.details.bounce_reason : null,
        created_at: e.occurredAt,
      })
      .onConflict((oc) => oc.columns(['account_id', 'address']).doNothing())
      .execute();
  }
}
