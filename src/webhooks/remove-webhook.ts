import type { Deps } from '../deps.js';
import type { Actor } from '../core/actor.js';
import { recordAudit } from '../audit/audit-log.js';
import { findEndpoint, type WebhookDomain } from './find-endpoint.js';

/** What `posthorn webhook remove` reports. */
export interface RemoveWebhookResult {
  domain: string;
  removed: true;
  /** Deliveries that had not been made yet and never will be. */
  dropped_pending: number;
}

/**
 * Removes the domain's webhook with its outbox and delivery log (`posthorn webhook remove`,
 * `DELETE …/webhook`). Pending deliveries are dropped, not kept for a future endpoint: a new
 * `webhook set` starts with the next event. A POST in flight at that moment may still arrive; its
 * result is not recorded. Records `webhook.remove` in the audit log with the change.
 */
export async function removeWebhook(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  domain: WebhookDomain,
  actor: Actor,
): Promise<RemoveWebhookResult> {
  const endpoint = await findEndpoint(deps, domain);
  return deps.db.transaction().execute(async (trx) => {
    const pending = await trx
      .deleteFrom('webhook_deliveries')
      .where('endpoint_id', '=', endpoint.id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', endpoint.id).execute();
    await trx.deleteFrom('webhook_attempts').where('endpoint_id', '=', endpoint.id).execute();
    await trx.deleteFrom('webhook_endpoints').where('id', '=', endpoint.id).execute();
    await recordAudit(trx, deps, {
      accountId: domain.account_id,
      actor,
      action: 'webhook.remove',
      target: domain.name,
    });
    return { domain: domain.name, removed: true, dropped_pending: Number(pending.numDeletedRows) };
  });
}
