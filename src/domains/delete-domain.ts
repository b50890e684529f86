import type { Deps } from '../deps.js';
import type { Actor } from '../core/actor.js';
import { RefusedError } from '../core/refused-error.js';
import { recordAudit } from '../audit/audit-log.js';
import { resolveDomain, type DomainRef } from './add-domain.js';

/** What deleting a domain ended. */
export interface DeletedDomain {
  domain: string;
  api_keys_revoked: number;
  smtp_logins_revoked: number;
  webhook_removed: boolean;
}

/**
 * Deletes a domain (`domain delete`, DELETE /v1/domains/{domain}), in one transaction: its API key
 * and SMTP logins are revoked, so their next request is refused (401, relay 535: both are looked
 * up on every use), and its webhook is removed with its outbox and log, so nothing more is posted
 * (as `webhook remove` does; a POST already in flight may still arrive). The row itself stays,
 * marked deleted: mail it already accepted is still signed and delivered, bounces for it still
 * match, and its events stay until retention ends (docs/api.md, Management API). Its name is free
 * again at once; every lookup (CLI, API, credentials) skips a deleted domain.
 */
export async function deleteDomain(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  ref: DomainRef,
  actor: Actor,
): Promise<DeletedDomain> {
  const domain = await resolveDomain(deps, ref);
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const marked = await trx
      .updateTable('domains')
      .set({ deleted_at: now })
      .where('id', '=', domain.id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) === 0)
      throw new RefusedError('not_found', `no domain named "${domain.name}"`, {
        field: 'domain',
        subject: { kind: 'domain', name: domain.name },
      });
    const keys = await trx
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('domain_id', '=', domain.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const logins = await trx
      .updateTable('smtp_credentials')
      .set({ revoked_at: now })
      .where('domain_id', '=', domain.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const endpoint = await trx
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('domain_id', '=', domain.id)
      .executeTakeFirst();
    if (endpoint) {
      await trx.deleteFrom('webhook_deliveries').where('endpoint_id', '=', endpoint.id).execute();
      await trx.deleteFrom('webhook_attempts').where('endpoint_id', '=', endpoint.id).execute();
      await trx.deleteFrom('webhook_endpoints').where('id', '=', endpoint.id).execute();
    }
    await recordAudit(trx, deps, { accountId: domain.account_id, actor, action: 'domain.delete', target: domain.name });
    return {
      domain: domain.name,
      api_keys_revoked: Number(keys.numUpdatedRows),
      smtp_logins_revoked: Number(logins.numUpdatedRows),
      webhook_removed: endpoint !== undefined,
    };
  });
}
