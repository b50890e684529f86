import type { Selectable } from 'kysely';
import type { Deps } from '../deps.js';
import type { WebhookDeliveryTable } from '../storage/database.js';
import { skipLocked } from '../storage/skip-locked.js';

/** A claimed outbox row. */
export type ClaimedDelivery = Selectable<WebhookDeliveryTable>;

/**
 * Claims up to `limit` due pending deliveries of active endpoints, other than `skipEndpoints`
 * (those this dispatcher already keeps busy), for `workerId`. As with delivery
 * jobs (queue/claim-jobs.ts), the claim moves next_attempt_at to the end of the lease, so the rows
 * of a dispatcher that crashed become due again by themselves; recording the attempt replaces it.
 * PostgreSQL nodes claim disjoint rows with FOR UPDATE SKIP LOCKED.
 */
export async function claimDeliveries(
  deps: Pick<Deps, 'db' | 'dialect' | 'clock'>,
  workerId: string,
  limit: number,
  leaseMs: number,
  skipEndpoints: readonly string[] = [],
): Promise<ClaimedDelivery[]> {
  const now = deps.clock.now();
  return deps.db
    .updateTable('webhook_deliveries')
    .set({ locked_by: workerId, locked_until: now + leaseMs, next_attempt_at: now + leaseMs })
    .where('id', 'in', (eb) =>
      skipLocked(
        eb
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('state', '=', 'pending')
          .where('next_attempt_at', '<=', now)
          // A disabled endpoint's rows wait (parked) for `webhook set` to re-enable it.
          .where('endpoint_id', 'in', (sub) =>
            sub.selectFrom('webhook_endpoints').select('id').where('status', '=', 'active'),
          )
          .$if(skipEndpoints.length > 0, (qb) => qb.where('endpoint_id', 'not in', skipEndpoints))
          .orderBy('next_attempt_at')
          .limit(limit),
        deps.dialect,
      ),
    )
    .returningAll()
    .execute();
}

/** Gives back the pending rows `workerId` still holds, due at `now` (a stopping dispatcher). */
export async function releaseDeliveries(deps: Pick<Deps, 'db'>, workerId: string, now: number): Promise<number> {
  const res = await deps.db
    .updateTable('webhook_deliveries')
    .set({ locked_by: null, locked_until: null, next_attempt_at: now })
    .where('locked_by', '=', workerId)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Ids per statement, well under the bound-parameter limits of SQLite and PostgreSQL. */
const CHUNK = 1000;

/** Extends the lease of the pending rows `workerId` still holds among `ids` to `until`; a row another dispatcher took stays theirs. */
export async function renewDeliveries(
  deps: Pick<Deps, 'db'>,
  ids: string[],
  workerId: string,
  until: number,
): Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK) {
    await deps.db
      .updateTable('webhook_deliveries')
      .set({ locked_until: until, next_attempt_at: until })
      .where('id', 'in', ids.slice(i, i + CHUNK))
      .where('locked_by', '=', workerId)
      .where('state', '=', 'pending')
      .execute();
  }
}
