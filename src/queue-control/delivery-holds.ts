import type { Deps } from '../deps.js';
import { actorLabel, type Actor } from '../core/actor.js';
import { RefusedError } from '../core/refused-error.js';
import { holdId, type HoldScope } from '../queue/holds.js';
import type { DeliveryHoldTable } from '../storage/database.js';
import { auditQueue, queueDomain, queueProvider } from './queue-scope.js';
import { providerNames } from '../delivery/providers.js';

/** The furthest end a hold may be given; one meant to last longer is left open and resumed by hand. */
const MAX_HOLD_MS = 365 * 86_400_000;

/** A hold as the API and the CLI show it. */
export interface HoldView {
  scope: HoldScope;
  value: string;
  /** False for the operator's holds over every account's mail. */
  account_only: boolean;
  reason: string | null;
  created_at: string;
  /** When it ends by itself; null: until resumed. */
  until: string | null;
  actor: string;
}

/** Whose holds: one account's own (an account token or session), or the node's over every account (the CLI). */
export type HoldOwner = { accountId: string } | { node: true };

type HoldDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'metrics' | 'config'>;

function ownerId(owner: HoldOwner): string | null {
  return 'accountId' in owner ? owner.accountId : null;
}

/** The held value in its stored form, refused (naming `field`) when it is not a domain name or one of the configuration's providers. */
export function holdValue(
  config: Pick<Deps['config'], 'providers'>,
  scope: HoldScope,
  value: string,
  field: string = scope,
): string {
  return scope === 'domain' ? queueDomain(value, field) : queueProvider(value, providerNames(config), field);
}

function view(h: DeliveryHoldTable): HoldView {
  return {
    scope: h.scope,
    value: h.value,
    account_only: h.account_id !== null,
    reason: h.reason,
    created_at: new Date(Number(h.created_at)).toISOString(),
    until: h.until === null ? null : new Date(Number(h.until)).toISOString(),
    actor: h.actor,
  };
}

/**
 * Holds mail to a recipient domain or provider (`posthorn queue suspend`, `POST /v1/queue/holds`):
 * the delivery engine puts its jobs back unattempted until the hold is resumed or `until` passes
 * (docs/delivery.md, Holds). Suspending what is held already replaces the hold (new reason,
 * new end).
 */
export async function suspendDelivery(
  deps: HoldDeps,
  owner: HoldOwner,
  input: { scope: HoldScope; value: string; until?: number | undefined; reason?: string | undefined },
  actor: Actor,
): Promise<HoldView> {
  const value = holdValue(deps.config, input.scope, input.value);
  const now = deps.clock.now();
  if (input.until !== undefined && input.until <= now)
    throw new RefusedError('invalid', `until must be in the future, got ${new Date(input.until).toISOString()}`, {
      field: 'until',
    });
  if (input.until !== undefined && input.until - now > MAX_HOLD_MS)
    throw new RefusedError('invalid', 'until may be at most 365 days ahead; leave it out to hold until resumed', {
      field: 'until',
    });
  const reason = input.reason?.trim() ?? '';
  if (reason.length > 500 || /\p{Cc}/u.test(reason))
    throw new RefusedError('invalid', 'reason must be at most 500 characters, without control characters', {
      field: 'reason',
    });
  const row: DeliveryHoldTable = {
    id: holdId(input.scope, value, ownerId(owner)),
    scope: input.scope,
    value,
    account_id: ownerId(owner),
    reason: reason === '' ? null : reason,
    created_at: now,
    until: input.until ?? null,
    actor: actorLabel(actor),
  };
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('delivery_holds')
      .values(row)
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({ reason: row.reason, created_at: now, until: row.until, actor: row.actor }),
      )
      .execute();
    await auditQueue(
      trx,
      deps,
      'accountId' in owner ? [owner.accountId] : 'all',
      actor,
      'queue.suspend',
      `${input.scope}:${value}`,
    );
  });
  deps.metrics.queueActions.inc({ action: 'suspend' });
  return view(row);
}

/**
 * Ends a hold (`posthorn queue resume`, `DELETE /v1/queue/holds/{scope}/{value}`): the jobs it
 * pushed back are due at once. Refused with `not_found` when there is no such hold.
 */
export async function resumeDelivery(
  deps: HoldDeps,
  owner: HoldOwner,
  input: { scope: HoldScope; value: string },
  actor: Actor,
): Promise<{ released: number }> {
  const value = holdValue(deps.config, input.scope, input.value);
  const id = holdId(input.scope, value, ownerId(owner));
  const now = deps.clock.now();
  const released = await deps.db.transaction().execute(async (trx) => {
    const gone = await trx.deleteFrom('delivery_holds').where('id', '=', id).executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0)
      throw new RefusedError('not_found', `delivery to ${input.scope} ${value} is not suspended`, {
        field: input.scope,
      });
    const freed = await trx
      .updateTable('jobs')
      .set({ run_at: now, held: null })
      .where('held', '=', id)
      .where((eb) => eb.or([eb('locked_by', 'is', null), eb('locked_until', '<=', now)]))
      .executeTakeFirst();
    await auditQueue(
      trx,
      deps,
      'accountId' in owner ? [owner.accountId] : 'all',
      actor,
      'queue.resume',
      `${input.scope}:${value}`,
    );
    return Number(freed.numUpdatedRows);
  });
  deps.metrics.queueActions.inc({ action: 'resume' });
  return { released };
}

/** The holds in force that concern `owner`: an account sees its own and the operator's; the CLI sees all. */
export async function listHolds(deps: Pick<Deps, 'db' | 'clock'>, owner: HoldOwner): Promise<HoldView[]> {
  const now = deps.clock.now();
  let q = deps.db
    .selectFrom('delivery_holds')
    .selectAll()
    .where((eb) => eb.or([eb('until', 'is', null), eb('until', '>', now)]));
  if ('accountId' in owner)
    q = q.where((eb) => eb.or([eb('account_id', 'is', null), eb('account_id', '=', owner.accountId)]));
  const rows = await q.orderBy('scope').orderBy('value').orderBy('id').execute();
  return rows.map(view);
}
