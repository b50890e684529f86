import type { Transaction } from 'kysely';
import type { Config } from '../config/schema.js';
import type { Ids } from '../core/ids.js';
import type { EventName } from '../core/event-names.js';
import { newEvent } from '../events/event-record.js';
import { writeEvents, type NewEvent } from '../events/write-events.js';
import { completeJobs, rescheduleJobs } from '../queue/finish-jobs.js';
import type { Database, MessageSignatureTable } from '../storage/database.js';
import { insertChunked } from '../storage/insert-chunked.js';
import type { GroupResult } from './deliver-group.js';
import { nextRetry } from './retry-schedule.js';

/** Recipient statuses after an attempt (recipients.status). */
export type RecipientStatus = 'queued' | 'sending' | 'deferred' | 'delivered' | 'failed' | 'rejected';

interface Plan {
  events: NewEvent[];
  status: Map<RecipientStatus, string[]>;
  complete: string[];
  /** Keyed by run time and error, so each job keeps its own last error (a deferred recipient's `last_reply`, docs/api.md). */
  retry: Map<string, { at: number; ids: string[]; error: string }>;
  /** One row per signed group: what GET /v1/messages/{id}/content needs to give the source back. */
  signatures: MessageSignatureTable[];
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Turns attempt outcomes into what is written: events (through the one writer), recipient statuses
 * and queue changes. Deferrals are retried on the schedule until the queue lifetime ends, then
 * become `failed` (only the outcome is an event, not each attempt, so the event log stays
 * readable).
 */
export function planOutcomes(
  results: GroupResult[],
  cfg: Pick<Config, 'retrySchedule' | 'maxQueueLifetime'>,
  ids: Ids,
  now: number,
): Plan {
  const plan: Plan = { events: [], status: new Map(), complete: [], retry: new Map(), signatures: [] };
  for (const { group, signedAt, signature, outcomes } of results) {
    const m = group.message;
    if (signedAt !== null && signature)
      plan.signatures.push({
        id: ids.next('sig', signedAt),
        message_id: m.id,
        recipient_ids: JSON.stringify(group.items.map((i) => i.recipientId)),
        signed_at: signedAt,
        fields: signature.fields,
        digest: signature.digest,
      });
    const event = (
      name: EventName,
      recipient: string,
      at: number,
      details: Record<string, unknown>,
      suppress?: 'hard_bounce',
    ): NewEvent => newEvent(ids, m, { event: name, recipient, at, details, suppress });
    group.items.forEach((item, i) => {
      const o = outcomes[i]!;
      // accepted-by-mta once per recipient, when the engine first took and signed it.
      if (signedAt !== null && item.status === 'queued')
        plan.events.push(event('accepted-by-mta', item.address, signedAt, { dkim: 'signed' }));
      switch (o.kind) {
        case 'delivered':
          plan.events.push(event('delivered', item.address, now, o.details));
          push(plan.status, 'delivered', item.recipientId);
          plan.complete.push(item.job.id);
          return;
        case 'failed':
          plan.events.push(event('failed', item.address, now, o.details, o.suppress ? 'hard_bounce' : undefined));
          push(plan.status, 'failed', item.recipientId);
          plan.complete.push(item.job.id);
          return;
        case 'rejected':
          plan.events.push(event('rejected-by-mta', item.address, now, o.details));
          push(plan.status, 'rejected', item.recipientId);
          plan.complete.push(item.job.id);
          return;
        case 'deferred': {
          const attempts = item.job.attempts + 1;
          let next = nextRetry({
            attempts,
            firstAttemptAt: item.job.created_at,
            now,
            schedule: cfg.retrySchedule,
            maxLifetime: cfg.maxQueueLifetime,
          });
          // A reply's own "try again in N", or a provider suspension, pushes the retry later, within the queue lifetime.
          if (next.kind === 'retry' && o.notBefore !== undefined && o.notBefore > next.at)
            next =
              o.notBefore > Number(item.job.created_at) + cfg.maxQueueLifetime
                ? { kind: 'give_up' }
                : { kind: 'retry', at: o.notBefore };
          if (next.kind === 'retry') {
            const key = `${next.at}\0${o.error}`;
            const slot = plan.retry.get(key) ?? { at: next.at, ids: [], error: o.error };
            slot.ids.push(item.job.id);
            plan.retry.set(key, slot);
            push(plan.status, signedAt !== null ? 'deferred' : (item.status as RecipientStatus), item.recipientId);
            return;
          }
          plan.events.push(
            event('failed', item.address, now, {
              ...o.details,
              bounce_class: 'soft',
              // Retried for the whole queue lifetime: the taxonomy calls that `expired` (docs/bounces.md).
              bounce_reason: 'expired',
              reason: `gave up after ${attempts} attempts: ${o.error}`,
            }),
          );
          push(plan.status, 'failed', item.recipientId);
          plan.complete.push(item.job.id);
        }
      }
    });
  }
  return plan;
}

/** Writes a plan in the caller's transaction; jobs are finished only while this worker still holds them. */
export async function writeOutcomes(
  trx: Transaction<Database>,
  plan: Plan,
  workerId: string,
  now: number,
): Promise<void> {
  await writeEvents(trx, plan.events);
  for (const [status, ids] of plan.status) {
    await trx.updateTable('recipients').set({ status, updated_at: now }).where('id', 'in', ids).execute();
  }
  await insertChunked(trx, 'message_signatures', plan.signatures);
  await completeJobs(trx, plan.complete, workerId);
  for (const slot of plan.retry.values()) await rescheduleJobs(trx, slot.ids, workerId, slot.at, slot.error);
}
