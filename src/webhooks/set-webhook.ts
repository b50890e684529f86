import type { Deps } from '../deps.js';
import type { Actor } from '../core/actor.js';
import { RefusedError } from '../core/refused-error.js';
import { recordAudit } from '../audit/audit-log.js';
import { checkWebhookUrl } from './check-webhook-url.js';
import { PARKED_AT } from './disable-endpoint.js';
import type { StoredSecret } from './endpoint-secrets.js';
import type { WebhookDomain } from './find-endpoint.js';
import { storeEndpointSecrets } from './sealed-secrets.js';
import { newWebhookSecret } from './webhook-secret.js';

/** What `posthorn webhook set` and `PUT /v1/domains/{domain}/webhook` report; `secret` is shown only when the endpoint is created. */
export interface SetWebhookResult {
  domain: string;
  url: string;
  /** The new signing secret on creation; null afterwards (it is shown once and cannot be read back). */
  secret: string | null;
  created: boolean;
  /** True when a disabled endpoint was switched back on by this set. */
  reenabled: boolean;
}

/**
 * Sets the domain's one webhook endpoint (`posthorn webhook set`, `PUT …/webhook`;
 * docs/webhooks.md). The first set creates it with a new secret, returned once. A later set changes
 * the URL and keeps the secret; it also re-enables a disabled endpoint, clears its failure run, and
 * makes the deliveries that waited while it was disabled due now. Records `webhook.set` in the
 * audit log with the change (the target is the domain: a URL may carry a receiver's token).
 */
export async function setWebhook(
  deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'config'>,
  domain: WebhookDomain,
  rawUrl: string,
  actor: Actor,
): Promise<SetWebhookResult> {
  const url = checkWebhookUrl(rawUrl, deps.config.webhookAllowPrivate);
  const now = deps.clock.now();
  const audit = { accountId: domain.account_id, actor, action: 'webhook.set', target: domain.name };
  return deps.db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('webhook_endpoints')
      .select(['id', 'status'])
      .where('domain_id', '=', domain.id)
      .executeTakeFirst();
    if (!existing) {
      const secret = newWebhookSecret((n) => deps.ids.random(n));
      const secrets: StoredSecret[] = [{ secret, created_at: now, expires_at: null }];
      const id = deps.ids.next('whe', now);
      const res = await trx
        .insertInto('webhook_endpoints')
        .values({
          id,
          domain_id: domain.id,
          url,
          secrets: storeEndpointSecrets(deps.config, id, secrets),
          status: 'active',
          failing_since: null,
          disabled_at: null,
          disabled_reason: null,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.column('domain_id').doNothing())
        .executeTakeFirst();
      if (Number(res.numInsertedOrUpdatedRows ?? 0n) === 0)
        throw new RefusedError('conflict', `the webhook of ${domain.name} was set by someone else at the same moment`, {
          subject: { kind: 'webhook', name: domain.name },
          retry: true,
        });
      await recordAudit(trx, deps, audit);
      return { domain: domain.name, url, secret, created: true, reenabled: false };
    }
    await trx
      .updateTable('webhook_endpoints')
      .set({
        url,
        status: 'active',
        failing_since: null,
        disabled_at: null,
        disabled_reason: null,
        updated_at: now,
      })
      .where('id', '=', existing.id)
      .execute();
    const reenabled = existing.status === 'disabled';
    // Deliveries parked when it was disabled (disable-endpoint.ts) are due again now.
    await trx
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: now })
      .where('endpoint_id', '=', existing.id)
      .where('state', '=', 'pending')
      .where('next_attempt_at', '=', PARKED_AT)
      .execute();
    await recordAudit(trx, deps, audit);
    return { domain: domain.name, url, secret: null, created: false, reenabled };
  });
}
