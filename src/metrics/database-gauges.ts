import type { Kysely } from 'kysely';
import type { Clock } from '../core/clock.js';
import type { Database } from '../storage/database.js';
import type { Metrics } from './metrics.js';

/**
 * The gauges read from the database on each scrape: the delivery queue (depth, oldest due job) and
 * the webhook backlog, and the delivery holds in force. One aggregate query each, on the indexes the workers claim by (jobs_due on
 * kind and run_at, webhook_deliveries_due), so a scrape costs two index scans. They describe the
 * shared database, so every process reports the same values: the dashboard takes their max.
 */
export function watchDatabaseGauges(deps: { db: Kysely<Database>; clock: Clock; metrics: Metrics }): () => void {
  const { db, metrics } = deps;
  return metrics.onScrape(async () => {
    const now = deps.clock.now();
    const [jobs, hooks, holds] = await Promise.all([
      db
        .selectFrom('jobs')
        .where('kind', '=', 'deliver')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('total'),
          eb.fn.sum<number | string | null>(eb.case().when('run_at', '<=', now).then(1).else(0).end()).as('due'),
          eb.fn.min<number | null>('run_at').as('oldest'),
        ])
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('webhook_deliveries')
        .where('state', '=', 'pending')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('total'),
          eb.fn.min<number | null>('next_attempt_at').as('oldest'),
        ])
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('delivery_holds')
        .where((eb) => eb.or([eb('until', 'is', null), eb('until', '>', now)]))
        .select((eb) => ['scope', eb.fn.countAll<number | string>().as('n')])
        .groupBy('scope')
        .execute(),
    ]);
    const total = Number(jobs.total);
    const due = Number(jobs.due ?? 0);
    metrics.queueDepth.set({ state: 'due' }, due);
    metrics.queueDepth.set({ state: 'scheduled' }, total - due);
    metrics.queueOldestDue.set(ageSeconds(jobs.oldest, now));
    metrics.webhookBacklog.set(Number(hooks.total));
    metrics.webhookOldestDue.set(ageSeconds(hooks.oldest, now));
    for (const scope of ['domain', 'provider'] as const)
      metrics.deliveryHolds.set({ scope }, Number(holds.find((h) => h.scope === scope)?.n ?? 0));
  });
}

/** Seconds since `oldest` (epoch ms) when it is due already, else 0. */
function ageSeconds(oldest: number | string | null, now: number): number {
  if (oldest === null) return 0;
  return Math.max(0, (now - Number(oldest)) / 1000);
}
