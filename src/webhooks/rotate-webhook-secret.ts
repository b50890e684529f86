import type { Deps } from '../deps.js';
import { RefusedError } from '../core/refused-error.js';
import { rotateSecrets } from './endpoint-secrets.js';
import { readEndpointSecrets, storeEndpointSecrets } from './sealed-secrets.js';
import { findEndpoint } from './find-endpoint.js';
import { newWebhookSecret } from './webhook-secret.js';

/** What `posthorn webhook rotate` reports: the new secret (shown once) and until when the old one still signs. */
export interface RotateWebhookResult {
  domain: string;
  secret: string;
  /** End of the overlap in which the previous secret signs beside the new one (ISO 8601). */
  previous_secret_expires_at: string;
}

/**
 * Gives the domain's webhook a new signing secret (docs/webhooks.md, Rotation). The previous one
 * keeps signing beside it for POSTHORN_WEBHOOK_SECRET_OVERLAP, so a receiver can switch at its own
 * pace; secrets whose overlap has ended are dropped. The update is conditional on the list read, so
 * two rotations at once cannot lose a secret.
 */
export async function rotateWebhookSecret(
  deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'config'>,
  domainName: string,
): Promise<RotateWebhookResult> {
  const { domain, endpoint } = await findEndpoint(deps, domainName);
  const now = deps.clock.now();
  const secret = newWebhookSecret((n) => deps.ids.random(n));
  const secrets = rotateSecrets(
    readEndpointSecrets(deps.config, endpoint.id, endpoint.secrets),
    secret,
    now,
    deps.config.webhookSecretOverlap,
  );
  const res = await deps.db
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
  return {
    domain: domain.name,
    secret,
    previous_secret_expires_at: new Date(now + deps.config.webhookSecretOverlap).toISOString(),
  };
}
