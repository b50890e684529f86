import type { Deps } from '../deps.js';
import { dropExpiredEventPartitions } from '../storage/event-partitions.js';

/** Events are kept 120 days on every plan (docs/api.md), then purged. */
export const EVENT_RETENTION_MS = 120 * 86_400_000;

/**
 * A rate-limit row whose theoretical arrival time has passed means the same as no row (GCRA);
 * the minute of slack keeps the purge from racing keys that are still in use.
 */
export const RATE_LIMIT_IDLE_MS = 60_000;

/** Rows per statement: each batch commits on its own, so a large purge never holds one long transaction. */
export const PURGE_BATCH_SIZE = 5_000;

/** How many rows each part of the purge removed (bodies: messages whose MIME was cleared). */
export interface PurgeCounts {
  /** Monthly event partitions dropped whole (PostgreSQL); their rows are not counted in `events`. */
  eventPartitions: number;
  events: number;
  bodies: number;
  /** Signature rows of signed copies (message_signatures), kept as long as bodies. */
  signatures: number;
  idempotencyKeys: number;
  rateLimits: number;
  /** Dedupe keys of feedback (feedback_keys) whose events are gone. */
  feedbackKeys: number;
  /** Processed inbound reports (they carry copies of messages: body retention applies). */
  inboundReports: number;
  /** Finished webhook deliveries (delivered or given up) and attempt-log rows. */
  webhookDeliveries: number;
  webhookAttempts: number;
}

/**
 * Removes what retention no longer allows, as of `deps.clock.now()`: events older than 120 days,
 * message bodies older than `config.bodyRetention` (the message row and its events stay) with the
 * signatures of their signed copies,
 * expired idempotency keys (kept 24 hours), idle rate-limit rows, feedback dedupe keys as old
 * as the events they guard, and — like bodies, since they hold message copies and payloads —
 * processed inbound reports, finished webhook deliveries and the webhook delivery log. Safe to run on several
 * nodes at once. Deletes go through `WHERE key IN (SELECT … LIMIT n)` because neither SQLite
 * (without a compile option) nor PostgreSQL supports `DELETE … LIMIT`.
 */
export async function purgeRetention(
  deps: Pick<Deps, 'db' | 'dialect' | 'clock' | 'config'>,
  opts: { batchSize?: number } = {},
): Promise<PurgeCounts> {
  const { db } = deps;
  const now = deps.clock.now();
  const batch = opts.batchSize ?? PURGE_BATCH_SIZE;
  const eventCutoff = now - EVENT_RETENTION_MS;
  const bodyCutoff = now - deps.config.bodyRetention;
  // rate_limits.tat is in microseconds (rate-limit/db-rate-limiter.ts).
  const rateCutoff = (now - RATE_LIMIT_IDLE_MS) * 1000;

  // On PostgreSQL whole months go as a partition drop (cheap, no row-by-row delete); the batched
  // delete below then only trims the month the cutoff falls in (and rows that sat in the DEFAULT
  // partition).
  const eventPartitions = (await dropExpiredEventPartitions(db, deps.dialect, eventCutoff)).length;
  const events = await inBatches(
    batch,
    async () =>
      (
        await db
          .deleteFrom('events')
          .where('id', 'in', db.selectFrom('events').select('id').where('occurred_at', '<', eventCutoff).limit(batch))
          .executeTakeFirst()
      ).numDeletedRows,
  );

  // The body is both the stored draft (`content`) and its rendering (`mime`); both go.
  const bodies = await inBatches(
    batch,
    async () =>
      (
        await db
          .updateTable('messages')
          .set({ content: null, mime: null })
          .where(
            'id',
            'in',
            db
              .selectFrom('messages')
              .select('id')
              .where('created_at', '<', bodyCutoff)
              .where((eb) => eb.or([eb('content', 'is not', null), eb('mime', 'is not', null)]))
              // A body still waiting for delivery stays until its job is done, in case bodyRetention is set
              // shorter than maxQueueLifetime: delivery must never find its message gone.
              .where((eb) =>
                eb.not(
                  eb.exists(eb.selectFrom('jobs').select('jobs.id').whereRef('jobs.message_id', '=', 'messages.id')),
                ),
              )
              .limit(batch),
          )
          .executeTakeFirst()
      ).numUpdatedRows,
  );

  // Without its body a signature cannot give the source back (messages/message-source.ts): it goes
  // on the same schedule. A message still queued past the cutoff is signed again when next tried.
  const signatures = await inBatches(
    batch,
    async () =>
      (
        await db
          .deleteFrom('message_signatures')
          .where(
            'id',
            'in',
            db.selectFrom('message_signatures').select('id').where('signed_at', '<', bodyCutoff).limit(batch),
          )
          .executeTakeFirst()
      ).numDeletedRows,
  );

  const idempotencyKeys = await inBatches(
    batch,
    async () =>
      (
        await db
          .deleteFrom('idempotency_keys')
          .where((eb) =>
            eb(
              eb.refTuple('domain_id', 'key'),
              'in',
              eb
                .selectFrom('idempotency_keys')
                .select(['domain_id', 'key'])
                .where('expires_at', '<=', now)
                .limit(batch)
                .$asTuple('domain_id', 'key'),
            ),
          )
          .executeTakeFirst()
      ).numDeletedRows,
  );

  const rateLimits = await inBatches(
    batch,
    async () =>
      (
        await db
          .deleteFrom('rate_limits')
          .where('key', 'in', db.selectFrom('rate_limits').select('key').where('tat', '<', rateCutoff).limit(batch))
          .executeTakeFirst()
      ).numDeletedRows,
  );

  // A dedupe key outlives its event by nothing: once the event is purged, a repeat of its report
  // could only add an event nobody can compare it with.
  const feedbackKeys = await inBatches(
    batch,
    async () =>
      (
        await db
          .deleteFrom('feedback_keys')
          .where(
            'key',
            'in',
            db.selectFrom('feedback_keys').select('key').where('created_at', '<', eventCutoff).limit(batch),
          )
          .executeTakeFirst()
      ).numDeletedRows,
  );

  const inboundReports = await inBatches(
    batch,
    async () =>
      (
        await db
          .deleteFrom('inbound_reports')
          .where(
            'id',
            'in',
            db
              .selectFrom('inbound_reports')
              .select('id')
              .where('state', '=', 'processed')
              .where('received_at', '<', bodyCutoff)
              .limit(batch),
          )
          .executeTakeFirst()
      ).numDeletedRows,
  );

  // Pending deliveries are never purged (a disabled endpoint's wait for re-enabling): only finished ones.
  const webhookDeliveries = await inBatches(
    batch,
    async () =>
      (
        await db
          .deleteFrom('webhook_deliveries')
          .where(
            'id',
            'in',
            db
              .selectFrom('webhook_deliveries')
              .select('id')
              .where('state', '!=', 'pending')
              .where('created_at', '<', bodyCutoff)
              .limit(batch),
          )
          .executeTakeFirst()
      ).numDeletedRows,
  );

  const webhookAttempts = await inBatches(
    batch,
    async () =>
      (
        await db
          .deleteFrom('webhook_attempts')
          .where(
            'id',
            'in',
            db.selectFrom('webhook_attempts').select('id').where('attempted_at', '<', bodyCutoff).limit(batch),
          )
          .executeTakeFirst()
      ).numDeletedRows,
  );

  return {
    eventPartitions,
    events,
    bodies,
    signatures,
    idempotencyKeys,
    rateLimits,
    feedbackKeys,
    inboundReports,
    webhookDeliveries,
    webhookAttempts,
  };
}

/** Runs `step` until it affects fewer rows than a full batch; returns the total affected. */
async function inBatches(batch: number, step: () => Promise<bigint>): Promise<number> {
  let total = 0;
  for (;;) {
    const affected = Number(await step());
    total += affected;
    if (affected < batch) return total;
  }
}
