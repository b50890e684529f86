import type { Selectable } from 'kysely';
import type { Deps } from '../deps.js';
import { RefusedError } from '../core/refused-error.js';
import type { DomainTable, WebhookEndpointTable } from '../storage/database.js';

/**
 * The domain a webhook function acts on, already found by its caller: the CLI by name
 * (`findDomain`), the API within the caller's account (`findAccountDomain`), so both doors run the
 * same function on the same row.
 */
export type WebhookDomain = Pick<DomainTable, 'id' | 'name' | 'account_id'>;

/** The domain's webhook endpoint; a `not_found` RefusedError when it has none. */
export async function findEndpoint(
  deps: Pick<Deps, 'db'>,
  domain: WebhookDomain,
): Promise<Selectable<WebhookEndpointTable>> {
  const endpoint = await deps.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('domain_id', '=', domain.id)
    .executeTakeFirst();
  if (!endpoint)
    throw new RefusedError('not_found', `${domain.name} has no webhook`, {
      subject: { kind: 'webhook', name: domain.name },
    });
  return endpoint;
}
