import type { Deps } from '../deps.js';
import type { Actor } from '../core/actor.js';
import { RefusedError } from '../core/refused-error.js';
import { newEvent } from '../events/event-record.js';
import { writeEvents } from '../events/write-events.js';
import { findMessage, type MessageScope } from '../messages/message-view.js';
import { auditQueue, queueDomain, queueProvider, type QueueScope } from './queue-scope.js';
import { providerNames } from '../delivery/providers.js';

/** What `queue retry` makes due: one message's jobs, or every job to a recipient domain or provider. */
export type RetryTarget = { messageId: string } | { domain: string } | { provider: string };

type QueueDeps = Pick<Deps, 'db' | 'clock' | 'ids' | 'metrics' | 'config'>;

/**
 * Makes the target's waiting jobs due now (`POST /v1/queue/{id}/retry`, `POST /v1/queue/retry`,
 * `posthorn queue retry`): deferred ones skip the rest of their wait, held ones are looked at again
 * (and pushed back again while their hold lasts). A scheduled message is not sent before its time,
 * and a job in an attempt now is left to it. Returns how many jobs were made due.
 */
export async function retryQueue(
  deps: QueueDeps,
  scope: QueueScope,
  target: RetryTarget,
  actor: Actor,
): Promise<{ retried: number }> {
  const now = deps.clock.now();
  let messageAccount: string | null = null;
  let messageId: string | null = null;
  if ('messageId' in target) {
    const head = await findMessage(deps, 'any' in scope ? { any: true } : scope, target.messageId);
    messageAccount = head.accountId;
    messageId = head.id;
  }
  const domain = 'domain' in target ? queueDomain(target.domain) : null;
  const provider = 'provider' in target ? queueProvider(target.provider, providerNames(deps.config)) : null;
  const label = messageId ?? (domain !== null ? `domain:${domain}` : `provider:${provider}`);
  return deps.db.transaction().execute(async (trx) => {
    let pick = trx
      .selectFrom('jobs as j')
      .innerJoin('messages as m', 'm.id', 'j.message_id')
      .innerJoin('recipients as r', 'r.id', 'j.recipient_id')
      .select(['j.id', 'm.account_id'])
      .where('j.kind', '=', 'deliver')
      .where('j.run_at', '>', now)
      .where((eb) => eb.or([eb('j.locked_by', 'is', null), eb('j.locked_until', '<=', now)]))
      .where((eb) => eb.or([eb('m.send_at', 'is', null), eb('m.send_at', '<=', now)]));
    if (messageId !== null) pick = pick.where('j.message_id', '=', messageId);
    if (domain !== null) pick = pick.where('r.domain', '=', domain);
    if (provider !== null) pick = pick.where('j.provider', '=', provider);
    if ('accountId' in scope) pick = pick.where('m.account_id', '=', scope.accountId);
    const rows = await pick.execute();
    for (let i = 0; i < rows.length; i += 1000) {
      await trx
        .updateTable('jobs')
        .set({ run_at: now, held: null })
        .where(
          'id',
          'in',
          rows.slice(i, i + 1000).map((r) => r.id),
        )
        // Only jobs no worker holds now: a lease that ended belongs to nobody (docs/architecture.md, Lease).
        .where((eb) => eb.or([eb('locked_by', 'is', null), eb('locked_until', '<=', now)]))
        .execute();
    }
    const accounts = messageAccount !== null ? [messageAccount] : rows.map((r) => r.account_id);
    if ('accountId' in scope) accounts.push(scope.accountId);
    await auditQueue(trx, deps, accounts, actor, 'queue.retry', `${label} (${rows.length})`);
    deps.metrics.queueActions.inc({ action: 'retry' }, rows.length);
    return { retried: rows.length };
  });
}

/**
 * Cancels what is still pending of a message (`POST /v1/messages/{id}/cancel`,
 * `POST /v1/queue/{id}/cancel`, `posthorn queue cancel`): its jobs are removed and each such
 * recipient ends `failed` with `details.reason = "cancelled"` (no suppression: the address did
 * nothing wrong), in one transaction. A recipient in a delivery attempt right now is left to it.
 * Refused with `conflict` when nothing is pending any more.
 */
export async function cancelMessage(
  deps: QueueDeps,
  scope: MessageScope,
  idText: string,
  actor: Actor,
  action = 'queue.cancel',
): Promise<{ cancelled: number }> {
  const head = await findMessage(deps, scope, idText);
  const now = deps.clock.now();
  const cancelled = await deps.db.transaction().execute(async (trx) => {
    const gone = await trx
      .deleteFrom('jobs')
      .where('message_id', '=', head.id)
      .where('kind', '=', 'deliver')
      // A job in an attempt now is left to it; a lease that ended belongs to nobody.
      .where((eb) => eb.or([eb('locked_by', 'is', null), eb('locked_until', '<=', now)]))
      .returning(['recipient_id'])
      .execute();
    if (gone.length === 0)
      throw new RefusedError(
        'conflict',
        `nothing of ${head.id} is pending any more: each recipient was delivered, failed, or is in a delivery attempt right now`,
        { field: 'id' },
      );
    const ids = gone.map((g) => g.recipient_id);
    const recipients = await trx.selectFrom('recipients').select(['id', 'address']).where('id', 'in', ids).execute();
    await writeEvents(
      trx,
      recipients.map((r) =>
        newEvent(deps.ids, head, {
          event: 'failed',
          recipient: r.address,
          at: now,
          details: { reason: 'cancelled' },
          suppress: false,
        }),
      ),
    );
    await trx.updateTable('recipients').set({ status: 'failed', updated_at: now }).where('id', 'in', ids).execute();
    await auditQueue(trx, deps, [head.accountId], actor, action, `${head.id} (${ids.length})`);
    return ids.length;
  });
  deps.metrics.queueActions.inc({ action: 'cancel' }, cancelled);
  return { cancelled };
}
