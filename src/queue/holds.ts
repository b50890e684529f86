import type { Kysely, Transaction } from 'kysely';
import type { Database, DeliveryHoldTable } from '../storage/database.js';

type Db = Kysely<Database> | Transaction<Database>;

export const HOLD_SCOPES = ['domain', 'provider'] as const;
export type HoldScope = (typeof HOLD_SCOPES)[number];

/**
 * How long a job pushed back by a hold without an end waits before it is looked at again. Resuming
 * the hold makes its jobs due at once (`jobs.held`), so this only bounds how late a hold that
 * vanished some other way (expired `until`, a row deleted by hand) is noticed.
 */
export const HOLD_RECHECK_MS = 60_000;

/** The id of the hold on `scope`/`value` for `accountId` (null: every account). */
export function holdId(scope: HoldScope, value: string, accountId: string | null): string {
  return `${scope}:${value}:${accountId ?? '*'}`;
}

/** The holds in force at `now`, as the delivery engine reads them once per claimed batch. */
export class HoldSet {
  private readonly byKey: Map<string, DeliveryHoldTable>;

  constructor(holds: DeliveryHoldTable[]) {
    this.byKey = new Map(holds.map((h) => [h.id, h]));
  }

  get size(): number {
    return this.byKey.size;
  }

  /** The hold on mail of `accountId` to `scope`/`value`: the account's own, else the one over every account. */
  find(scope: HoldScope, value: string, accountId: string): DeliveryHoldTable | undefined {
    if (this.byKey.size === 0) return undefined;
    return this.byKey.get(holdId(scope, value, accountId)) ?? this.byKey.get(holdId(scope, value, null));
  }
}

/** Holds in force at `now` (no `until`, or `until` still ahead). */
export async function activeHolds(db: Db, now: number): Promise<HoldSet> {
  const rows = await db
    .selectFrom('delivery_holds')
    .selectAll()
    .where((eb) => eb.or([eb('until', 'is', null), eb('until', '>', now)]))
    .execute();
  return new HoldSet(
    rows.map((r) => ({ ...r, created_at: Number(r.created_at), until: r.until === null ? null : Number(r.until) })),
  );
}

/**
 * Puts jobs back unattempted because `hold` is in force: no attempt counted, the lease released,
 * due again when the hold ends by itself (or after HOLD_RECHECK_MS), or at once when it is resumed
 * (`jobs.held` names the hold). `held_at` keeps when it was first held, so the queue lifetime
 * does not run while a hold does (delivery/record-outcomes.ts). Only while `workerId` still holds them. A scheduled recipient whose
 * time has come reads `queued` from here on.
 */
export async function holdJobs(
  db: Db,
  ids: string[],
  recipientIds: string[],
  workerId: string,
  hold: DeliveryHoldTable,
  now: number,
): Promise<void> {
  if (ids.length === 0) return;
  const runAt = hold.until !== null ? Number(hold.until) : now + HOLD_RECHECK_MS;
  await db
    .updateTable('jobs')
    .set((eb) => ({
      run_at: runAt,
      locked_by: null,
      locked_until: null,
      held: hold.id,
      held_at: eb.fn.coalesce('held_at', eb.val(now)),
      // A provider hold was found from the route's MX host: the job's provider is known from here on.
      ...(hold.scope === 'provider' ? { provider: hold.value } : {}),
    }))
    .where('id', 'in', ids)
    .where('locked_by', '=', workerId)
    .execute();
  await db
    .updateTable('recipients')
    .set({ status: 'queued', updated_at: now })
    .where('id', 'in', recipientIds)
    .where('status', '=', 'scheduled')
    .execute();
}
