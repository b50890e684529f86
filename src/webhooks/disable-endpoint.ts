import type { Kysely, Transaction } from 'kysely';
import type { Ids } from '../core/ids.js';
import { recordNotice } from '../notices/record-notice.js';
import type { Database } from '../storage/database.js';

/**
 * next_attempt_at of the pending deliveries of a disabled endpoint: later than any real time, so
 * the dispatcher's due-index scan never walks over them; `webhook set` makes them due again.
 */
export const PARKED_AT = 8_640_000_000_000_000; // the largest JavaScript Date, 275760-09-13

/**
 * Disables an active endpoint (410 Gone, or failing for POSTHORN_WEBHOOK_DISABLE_AFTER) and raises
 * a `webhook.disabled` notice, in the caller's transaction. Its pending deliveries stay pending,
 * parked, until `webhook set` re-enables it. Returns false when it was no longer active (another
 * dispatcher got there first, or an operator changed it), so the notice is raised once.
 */
export async function disableEndpoint(
  trx: Kysely<Database> | Transaction<Database>,
  ids: Ids,
  now: number,
  endpointId: string,
  reason: string,
): Promise<boolean> {
  const disabled = await trx
    .updateTable('webhook_endpoints')
    .set({ status: 'disabled', disabled_at: now, disabled_reason: reason, updated_at: now })
    .where('id', '=', endpointId)
    .where('status', '=', 'active')
    .returning(['domain_id', 'url', 'failing_since'])
    .executeTakeFirst();
  if (!disabled) return false;
  await trx
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: PARKED_AT })
    .where('endpoint_id', '=', endpointId)
    .where('state', '=', 'pending')
    .execute();
  const domain = await trx
    .selectFrom('domains')
    .select(['account_id', 'name'])
    .where('id', '=', disabled.domain_id)
    .executeTakeFirstOrThrow();
  // After the status change: the notice's own outbox row finds no active endpoint, so it is stored
  // for the dashboard and the CLI only; it cannot reach the endpoint it is about.
  await recordNotice(trx, ids, now, {
    accountId: domain.account_id,
    domainId: disabled.domain_id,
    kind: 'webhook.disabled',
    message: `The webhook of ${domain.name} (${disabled.url}) was disabled: ${reason}. Its pending deliveries are kept and sent after it is re-enabled with: posthorn webhook set ${domain.name} URL`,
    details: {
      url: disabled.url,
      reason,
      failing_since: disabled.failing_since === null ? null : new Date(Number(disabled.failing_since)).toISOString(),
    },
  });
  return true;
}
