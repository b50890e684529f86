import { performance } from 'node:perf_hooks';
import type { LookupFunction } from 'node:net';
import type { Deps } from '../deps.js';
import type { Actor } from '../core/actor.js';
import { recordAudit } from '../audit/audit-log.js';
import { signingSecrets } from './endpoint-secrets.js';
import { findEndpoint, type WebhookDomain } from './find-endpoint.js';
import { postWebhook } from './post-webhook.js';
import { readEndpointSecrets } from './sealed-secrets.js';
import { signWebhook } from './sign-webhook.js';

/** The event name of a test POST; receivers ignore names they do not know (docs/webhooks.md). */
export const TEST_EVENT = 'webhook.test';

/** What the receiver made of one test POST (`POST …/webhook/test`, `posthorn webhook test`). */
export interface TestWebhookResult {
  domain: string;
  /** The `webhook-id` (and body `id`) of the test POST: `wht_…`. */
  id: string;
  /** The receiver's HTTP status; null when there was no response (refused, network error, timeout). */
  status: number | null;
  /** From the start of the POST to the end of the response (or the failure). */
  duration_ms: number;
  /** The first 500 characters of the response body, or why there was no response. */
  response: string;
}

/**
 * POSTs one signed `webhook.test` event to the domain's webhook now and waits for the answer
 * (docs/webhooks.md, Testing the endpoint): the same signing (every secret that signs at this
 * moment), SSRF guard, timeout and redirect rule as the dispatcher's deliveries, because it is the
 * same postWebhook. It is sent whatever the endpoint's status, so a disabled endpoint can be tried
 * before it is re-enabled. The outcome is returned, not written to the delivery log and not counted
 * towards the endpoint's failures; the audit log records that a test was sent (`webhook.test`).
 * `lookup` is for tests that stand in for DNS; it is still checked unless allow-private.
 */
export async function testWebhook(
  deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'config'>,
  domain: WebhookDomain,
  actor: Actor,
  opts: { lookup?: LookupFunction } = {},
): Promise<TestWebhookResult> {
  const endpoint = await findEndpoint(deps, domain);
  const now = deps.clock.now();
  const id = deps.ids.next('wht', now);
  const body = JSON.stringify({
    id,
    event: TEST_EVENT,
    occurred_at: new Date(now).toISOString(),
    domain: domain.name,
    message: `A test of the webhook of ${domain.name}; it needs no action.`,
  });
  const secrets = signingSecrets(readEndpointSecrets(deps.config, endpoint.id, endpoint.secrets), now);
  const started = performance.now();
  const result =
    secrets.length === 0
      ? { error: `the webhook has no signing secret; make one with: posthorn webhook rotate ${domain.name}` }
      : await postWebhook(endpoint.url, {
          body,
          allowPrivate: deps.config.webhookAllowPrivate,
          timeoutMs: deps.config.webhookTimeout,
          ...(opts.lookup ? { lookup: opts.lookup } : {}),
          headers: { ...signWebhook({ id, timestampSeconds: Math.floor(now / 1000), body, secrets }) },
        });
  await recordAudit(deps.db, deps, {
    accountId: domain.account_id,
    actor,
    action: 'webhook.test',
    target: domain.name,
  });
  return 'status' in result
    ? {
        domain: domain.name,
        id,
        status: result.status,
        duration_ms: result.durationMs,
        response: result.responseSnippet,
      }
    : {
        domain: domain.name,
        id,
        status: null,
        duration_ms: Math.round(performance.now() - started),
        response: result.error,
      };
}
