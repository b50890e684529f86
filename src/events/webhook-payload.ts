import type { EventRecord } from './event-record.js';

/**
 * The JSON body of a webhook POST: one event, the same snake_case record GET /v1/events returns
 * (docs/webhooks.md, What is sent), so a consumer parses webhooks and polled events with one type.
 */
export function webhookPayload(record: EventRecord): string {
  // Fields listed one by one, in a fixed order: the body is signed, and a stray property on the
  // record object must not leak into what customers receive.
  const body: EventRecord = {
    id: record.id,
    event: record.event,
    occurred_at: record.occurred_at,
    message_id: record.message_id,
    from: record.from,
    to: record.to,
    subject: record.subject,
    tags: record.tags,
    metadata: record.metadata,
    details: record.details,
  };
  return JSON.stringify(body);
}
