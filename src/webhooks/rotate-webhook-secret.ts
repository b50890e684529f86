import type { Deps } from '../deps.js';
import type { Actor } from '../core/actor.js';
import { RefusedError } from '../core/refused-error.js';
import { recordAudit } from '../audit/audit-log.js';
import { rotateSecrets } from './endpoint-secrets.js';
import { readEndpointSecrets, storeEndpointSecrets } from './sealed-secrets.js';
import { findEndpoint, type WebhookDomain } from './find-endpoint.js';
import { newWebhookSecret } from './webhook-secret.js';

/** What `posthorn webhook rotate` reports: the new secret (shown once) and until when the old one still signs. */
export interface RotateWebhookResult {
  domain: string;
  secret: string;
  /** End of the overlap in which the previous secret signs beside the new one (ISO 8601). */
  previous_secret_expires_at: string;
}

/**
 * Gives the domain's webhook a new signing secret (`posthorn webhook rotate`, `POST …/webhook/rotate`;
 * docs/webhooks.md, Rotation). The previous one keeps signing beside it for
 * POSTHORN_WEBHOOK_SECRET_OVERLAP, so a receiver can switch at its own pace; secrets whose overlap
 * has ended are dropped. The update is conditional on the list read, so two rotations at once
 * cannot lose a secret. Records `webhook.rotate` in the audit log with the change.
 */
export async function rotateWebhookSecret(
  deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'config'>,
  domain: WebhookDomain,
  actor: Actor,
): Promise<RotateWebhookResult> {
  const endpoint = await findEndpoint(deps, domain);
  const now = deps.clock.now();
  const secret = newWebhookSecret((n) => deps.ids.random(n));
  const secrets = rotateSecrets(
    readEndpointSecrets(deps.config, endpoint.id, endpoint.secrets),
    secret,
    now,
    deps.config.webhookSecretOverlap,
  );
  await deps.db.transaction().execute(async (trx) => {
    const res = await trx
      .updateTable('webhook_endpoints')
      .set({ secrets: storeEndpointSecrets(deps.config, endpoint.id, secrets), updated_at: now })
      .where('id', '=', endpoint.id)
      .where('secrets', '=', endpoint.secrets)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0)
      throw new RefusedError('conflict', `the webhook of ${domain.name} changed while rotating`, {
        subject: { kind: 'webhook', name: domain.name },
        retry: true,
      });
    await recordAudit(trx, deps, {
      accountId: domain.account_id,
      actor,
      action: 'webhook.rotate',
      target: domain.name,
    });
  });
  return {
    domain: domain.name,
    secret,
    previous_secret_expires_at: new Date(now + deps.config.webhookSecretOverlap).toISOString(),
  };
}
