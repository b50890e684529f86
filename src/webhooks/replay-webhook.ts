import type { Deps } from '../deps.js';
import type { Actor } from '../core/actor.js';
import { EVENT_NAMES, isEventName } from '../core/event-names.js';
import { RefusedError } from '../core/refused-error.js';
import { recordAudit } from '../audit/audit-log.js';
import { toEventRecord } from '../events/event-record.js';
import { parseTimeBound } from '../events/parse-events-query.js';
import { webhookPayload } from '../events/webhook-payload.js';
import type { WebhookDeliveryTable } from '../storage/database.js';
import { insertChunked } from '../storage/insert-chunked.js';
import { PARKED_AT } from './disable-endpoint.js';
import { findEndpoint, type WebhookDomain } from './find-endpoint.js';

/**
 * The most events one replay queues. Replay writes its outbox rows in one transaction while the
 * caller waits, so a request stays a few megabytes and a second or two; a longer outage is replayed
 * in several windows (the refusal names the `end` that fits).
 */
export const MAX_REPLAY_EVENTS = 10_000;
/** The longest window one replay covers: a month; a longer outage is replayed in several requests. */
export const MAX_REPLAY_DAYS = 31;
const MAX_REPLAY_MS = MAX_REPLAY_DAYS * 86_400_000;

/** What to replay: GET /v1/events's `start` and `end` (inclusive, the same forms) and an optional event name. */
export interface ReplayWindow {
  start: string;
  end: string;
  event?: string;
}

/** What `posthorn webhook replay` and `POST …/webhook/replay` report. */
export interface ReplayWebhookResult {
  domain: string;
  /** Outbox rows written: one per stored event in the window. */
  queued: number;
}

function invalid(field: string, message: string): RefusedError {
  return new RefusedError('invalid', message, { field });
}

/**
 * Queues the domain's stored events of a time window to its webhook again (docs/webhooks.md,
 * Replaying events), each with its ORIGINAL event id as `webhook-id` and the same body it had (the
 * event record, rebuilt from the stored row exactly as the event writer built it), so a receiver
 * that already has an event recognises it and drops the copy. Every stored event in the window is
 * queued, including one whose first delivery is still pending: deduplicating on webhook-id is the
 * receiver's rule in any case (Standard Webhooks). The copies are new outbox rows, posted by the
 * dispatcher with its retries; a disabled endpoint's copies wait, parked, like its other pending
 * deliveries, until `webhook set` re-enables it. Notices are not replayed (they stay listed by
 * `posthorn notice list`). Records `webhook.replay` in the audit log in the same transaction.
 */
export async function replayWebhook(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  domain: WebhookDomain,
  window: ReplayWindow,
  actor: Actor,
): Promise<ReplayWebhookResult> {
  const start = parseTimeBound(window.start, 'start');
  if (typeof start === 'string') throw invalid('start', `start ${start}`);
  const end = parseTimeBound(window.end, 'end');
  if (typeof end === 'string') throw invalid('end', `end ${end}`);
  if (end < start) throw invalid('end', 'end must not be before start');
  if (end - start > MAX_REPLAY_MS)
    throw invalid(
      'end',
      `a replay covers at most ${MAX_REPLAY_DAYS} days; end must be at most ${new Date(start + MAX_REPLAY_MS).toISOString()} for this start (replay a longer span in several windows)`,
    );
  const event = window.event;
  if (event !== undefined && !isEventName(event))
    throw invalid('event', `event must be one of ${EVENT_NAMES.join(', ')}, got ${JSON.stringify(event)}`);
  const endpoint = await findEndpoint(deps, domain);

  const rows = await deps.db
    .selectFrom('events')
    .selectAll()
    .where('domain_id', '=', domain.id)
    .where('occurred_at', '>=', start)
    .where('occurred_at', '<=', end)
    .$if(event !== undefined, (q) => q.where('event', '=', event!))
    .orderBy('occurred_at')
    .orderBy('id')
    .limit(MAX_REPLAY_EVENTS + 1)
    .execute();
  if (rows.length > MAX_REPLAY_EVENTS) {
    const first = Number(rows[MAX_REPLAY_EVENTS]!.occurred_at);
    throw invalid(
      'end',
      `the window holds more than ${MAX_REPLAY_EVENTS} events, the most one replay queues; end at or before ${new Date(first - 1).toISOString()} and replay the rest from there`,
    );
  }

  const now = deps.clock.now();
  // Copies for a disabled endpoint wait with its other pending deliveries (disable-endpoint.ts).
  const due = endpoint.status === 'active' ? now : PARKED_AT;
  const deliveries: WebhookDeliveryTable[] = rows.map((row) => ({
    // A new outbox row (the first delivery's id is derived from the event id and may still exist);
    // the event id it carries is the original, which is what the receiver sees.
    id: deps.ids.next('whd', now),
    endpoint_id: endpoint.id,
    event_id: row.id,
    event: row.event,
    payload: webhookPayload(toEventRecord(row)),
    state: 'pending',
    attempts: 0,
    next_attempt_at: due,
    locked_by: null,
    locked_until: null,
    created_at: now,
    finished_at: null,
  }));
  await deps.db.transaction().execute(async (trx) => {
    await insertChunked(trx, 'webhook_deliveries', deliveries);
    await recordAudit(trx, deps, {
      accountId: domain.account_id,
      actor,
      action: 'webhook.replay',
      target: `${domain.name}: events from ${new Date(start).toISOString()} to ${new Date(end).toISOString()}${event !== undefined ? ` named ${event}` : ''}, ${deliveries.length} queued`,
    });
  });
  return { domain: domain.name, queued: deliveries.length };
}
