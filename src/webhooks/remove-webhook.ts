import type { Deps } from '../deps.js';
import { findEndpoint } from './find-endpoint.js';

/** What `posthorn webhook remove` reports. */
export interface RemoveWebhookResult {
  domain: string;
  removed: true;
  /** Deliveries that had not been made yet and never will be. */
  dropped_pending: number;
}

/**
 * Removes the domain's webhook with its outbox and delivery log. Pending deliveries are dropped,
 * not kept for a future endpoint: a new `webhook set` starts with the next event. A POST in flight
 * at that moment may still arrive; its result is not recorded.
 */
export async function removeWebhook(deps: Pick<Deps, 'db'>, domainName: string): Promise<RemoveWebhookResult> {
  const { domain, endpoint } = await findEndpoint(deps, domainName);
  return deps.db.transaction().execute(async (trx) => {
    const pending = await trx
      .deleteFrom('webhook_deliveries')
      .where('endpoint_id', '=', endpoint.id)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', endpoint.id).execute();
    await trx.deleteFrom('webhook_attempts').where('endpoint_id', '=', endpoint.id).execute();
    await trx.deleteFrom('webhook_endpoints').where('id', '=', endpoint.id).execute();
    return { domain: domain.name, removed: true, dropped_pending: Number(pending.numDeletedRows) };
  });
}
