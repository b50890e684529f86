import type { Selectable } from 'kysely';
import type { Deps } from '../deps.js';
import { RefusedError } from '../core/refused-error.js';
import { findDomain } from '../domains/add-domain.js';
import type { DomainTable, WebhookEndpointTable } from '../storage/database.js';

/** The domain and its webhook endpoint; a `not_found` RefusedError when it has none. */
export async function findEndpoint(
  deps: Pick<Deps, 'db'>,
  domainName: string,
): Promise<{ domain: DomainTable; endpoint: Selectable<WebhookEndpointTable> }> {
  const domain = await findDomain(deps, domainName);
  const endpoint = await deps.db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('domain_id', '=', domain.id)
    .executeTakeFirst();
  if (!endpoint)
    throw new RefusedError('not_found', `${domain.name} has no webhook`, {
      subject: { kind: 'webhook', name: domain.name },
    });
  return { domain, endpoint };
}
