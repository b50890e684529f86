import type { Transaction } from 'kysely';
import type { Config } from '../config/schema.js';
import type { Ids } from '../core/ids.js';
import type { EventName } from '../core/event-names.js';
import { newEvent } from '../events/event-record.js';
import { writeEvents, type NewEvent } from '../events/write-events.js';
import { completeJobs, rescheduleJobs } from '../queue/finish-jobs.js';
import type { Database, MessageSignatureTable } from '../storage/database.js';
import { insertChunked } from '../storage/insert-chunked.js';
import { compileOnce } from '../storage/compile-once.js';
import type { GroupResult } from './deliver-group.js';
import { nextRetry } from './retry-schedule.js';
import { outcomeHost, destinationProvider } from './destination-provider.js';
import type { Provider } from './providers.js';

/** Recipient statuses after an attempt (recipients.status). */
export type RecipientStatus = 'queued' | 'sending' | 'deferred' | 'delivered' | 'failed' | 'rejected';

interface Plan {
  events: NewEvent[];
  status: Map<RecipientStatus, string[]>;
  complete: string[];
  /** Keyed by run time and error, so each job keeps its own last error (a deferred recipient's `last_reply`, docs/api.md). */
  retry: Map<string, { at: number; ids: string[]; error: string; provider: string | null }>;
  /** One row per signed group: what GET /v1/messages/{id}/content needs to give the source back. */
  signatures: MessageSignatureTable[];
  /** Retried jobs that waited under a hold: their queue lifetime starts later by the time held. */
  unheld: string[];
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
  // The worker's configured provider table (POSTHORN_PROVIDERS), the one its pacing, holds and
  // metrics use, so the queue's `provider` column names the same provider they do.
  providerOf: (host: string) => Provider = destinationProvider,
): Plan {
  const plan: Plan = { events: [], status: new Map(), complete: [], retry: new Map(), signatures: [], unheld: [] };
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
    // The selectors this copy was signed with, so a DKIM rotation can be followed message by message
    // (docs/delivery.md): a retry after a switch is signed with the new key.
    const signedWith = {
      dkim_selector: m.dkim.selector,
      ...(m.dkim.ed25519 ? { dkim_ed25519_selector: m.dkim.ed25519.selector } : {}),
    };
    group.items.forEach((item, i) => {
      const o = outcomes[i]!;
      // accepted-by-mta once per recipient, when the engine first took and signed it (a scheduled
      // recipient's first attempt too: it was never taken before its send time).
      if (signedAt !== null && (item.status === 'queued' || item.status === 'scheduled')) {
        // The session's TLS, when this first attempt reached a server (docs/delivery.md, Transport security).
        const tls = o.details.tls;
        const details =
          typeof tls === 'object' && tls !== null
            ? { dkim: 'signed', ...signedWith, tls }
            : { dkim: 'signed', ...signedWith };
        plan.events.push(event('accepted-by-mta', item.address, signedAt, details));
      }
      switch (o.kind) {
        case 'delivered':
          plan.events.push(
            event('delivered', item.address, now, signedAt !== null ? { ...o.details, ...signedWith } : o.details),
          );
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
          // Time spent under a hold (docs/delivery.md, Holds) is not queue lifetime.
          const heldAt = item.job.held_at ?? null;
          const heldFor = heldAt === null ? 0 : Math.max(0, now - Number(heldAt));
          let next = nextRetry({
            attempts,
            firstAttemptAt: Number(item.job.created_at) + heldFor,
            now,
            schedule: cfg.retrySchedule,
            maxLifetime: cfg.maxQueueLifetime,
          });
          // A reply's own "try again in N", or a provider suspension, pushes the retry later, within the queue lifetime.
          if (next.kind === 'retry' && o.notBefore !== undefined && o.notBefore > next.at)
            next =
              o.notBefore > Number(item.job.created_at) + heldFor + cfg.maxQueueLifetime
                ? { kind: 'give_up' }
                : { kind: 'retry', at: o.notBefore };
          if (next.kind === 'retry') {
            // The provider of the MX host tried, so the queue can be listed and retried by provider.
            const host = outcomeHost(o.details);
            const provider = host === undefined || host === 'sandbox' ? null : providerOf(host);
            const key = `${next.at}\0${o.error}\0${provider ?? ''}`;
            const slot = plan.retry.get(key) ?? { at: next.at, ids: [], error: o.error, provider };
            slot.ids.push(item.job.id);
            plan.retry.set(key, slot);
            if (heldAt !== null) plan.unheld.push(item.job.id);
            const unsigned = item.status === 'scheduled' ? 'queued' : (item.status as RecipientStatus);
            push(plan.status, signedAt !== null ? 'deferred' : unsigned, item.recipientId);
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

/** Recipients' new status, compiled once per number of ids (compile-once.ts): every group commit runs it. */
const setStatus = compileOnce((db, [status, now, ids]: [RecipientStatus, number, string[]]) =>
  db.updateTable('recipients').set({ status, updated_at: now }).where('id', 'in', ids),
);

/** Recipients per status update, well under the bound-parameter limits of SQLite and PostgreSQL. */
const CHUNK = 1000;

/** Writes a plan in the caller's transaction; jobs are finished only while this worker still holds them. */
export async function writeOutcomes(
  trx: Transaction<Database>,
  plan: Plan,
  workerId: string,
  now: number,
): Promise<void> {
  await writeEvents(trx, plan.events);
  for (const [status, ids] of plan.status) {
    for (let i = 0; i < ids.length; i += CHUNK) await setStatus(trx, [status, now, ids.slice(i, i + CHUNK)]);
  }
  await insertChunked(trx, 'message_signatures', plan.signatures);
  await completeJobs(trx, plan.complete, workerId);
  if (plan.unheld.length > 0)
    await trx
      .updateTable('jobs')
      .set((eb) => ({ created_at: eb('created_at', '+', eb(eb.val(now), '-', eb.ref('held_at'))), held_at: null }))
      .where('id', 'in', plan.unheld)
      .where('held_at', 'is not', null)
      .where('locked_by', '=', workerId)
      .execute();
  for (const slot of plan.retry.values())
    await rescheduleJobs(trx, slot.ids, workerId, slot.at, slot.error, slot.provider);
}
