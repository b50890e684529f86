import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import type { Deps } from '../../deps.js';
import { findAccountDomain } from '../../domains/find-account-domain.js';
import { removeWebhook } from '../../webhooks/remove-webhook.js';
import { MAX_REPLAY_DAYS, MAX_REPLAY_EVENTS, replayWebhook } from '../../webhooks/replay-webhook.js';
import { rotateWebhookSecret } from '../../webhooks/rotate-webhook-secret.js';
import { setWebhook } from '../../webhooks/set-webhook.js';
import { showWebhook, type WebhookView } from '../../webhooks/show-webhook.js';
import { testWebhook } from '../../webhooks/test-webhook.js';
import { callerAccountId, callerActor, type Caller } from '../authorize.js';
import { DomainParams, errorResponses, NoContent } from '../schemas/common.js';
import {
  ReplayBody,
  ReplayResult,
  SetWebhookBody,
  Webhook,
  WebhookChanged,
  WebhookCreated,
  WebhookRotated,
  WebhookTestResult,
} from '../schemas/webhook.js';

/** Attempts of the delivery log GET returns (the CLI's `webhook show` prints 10). */
const API_LOG_ROWS = 50;

/** The API's view of a webhook: the same read as `posthorn webhook show`, in the API's field names. */
function webhookBody(v: WebhookView): Static<typeof Webhook> {
  return {
    url: v.url,
    status: v.status,
    disabled_at: v.disabled_at,
    disabled_reason: v.disabled_reason,
    failing_since: v.failing_since,
    secrets: v.secrets.map((s) => ({ created_at: s.created_at, expires_at: s.expires_at })),
    pending: v.pending,
    failed: v.failed,
    attempts: v.last_attempts.map((a) => ({
      event_id: a.event_id,
      event: a.event,
      attempt: a.attempt,
      at: a.attempted_at,
      status: a.status,
      duration_ms: a.duration_ms,
      response: a.response_snippet,
      error: a.error,
    })),
  };
}

/**
 * `/v1/domains/{domain}/webhook…`: the domain's webhook over HTTP (docs/webhooks.md, Management
 * over HTTP). Each route finds the domain within the caller's account and calls the same function
 * as the `posthorn webhook` command, which records the audit entry of a change.
 */
export function webhookRoutes(deps: Deps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const domainOf = (caller: Caller, name: string) => findAccountDomain(deps, callerAccountId(caller), name);

    app.get(
      '/v1/domains/:domain/webhook',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: ['Webhook'],
          summary: "Show the domain's webhook",
          description:
            'Its URL, status, the ages of the secrets that sign (never a secret itself, whatever the role) and the last 50 POSTs of its delivery log, newest first.',
          operationId: 'getWebhook',
          params: DomainParams,
          response: { 200: Webhook, ...errorResponses('invalid_request', 'forbidden', 'not_found') },
        },
      },
      async (req) => {
        const caller = req.caller as Caller;
        const domain = await domainOf(caller, req.params.domain);
        return webhookBody(await showWebhook(deps, domain, { attempts: API_LOG_ROWS }));
      },
    );

    app.put(
      '/v1/domains/:domain/webhook',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: ['Webhook'],
          summary: "Set the domain's webhook URL",
          description:
            'Creates the webhook (201, with its signing secret, shown this once) or changes its URL (200, the secret unchanged). Setting it also re-enables a disabled webhook and sends the deliveries that waited. A URL that is not https, or whose host is a loopback name or a private, loopback, link-local or other non-public address, is refused (400 `url`).',
          operationId: 'setWebhook',
          params: DomainParams,
          body: SetWebhookBody,
          response: {
            200: WebhookChanged,
            201: WebhookCreated,
            ...errorResponses('invalid_request', 'forbidden', 'not_found', 'conflict'),
          },
        },
      },
      async (req, reply) => {
        const caller = req.caller as Caller;
        const domain = await domainOf(caller, req.params.domain);
        const out = await setWebhook(deps, domain, req.body.url, callerActor(caller));
        if (out.secret !== null) return reply.code(201).send({ url: out.url, secret: out.secret });
        return reply.code(200).send({ url: out.url, reenabled: out.reenabled });
      },
    );

    app.post(
      '/v1/domains/:domain/webhook/rotate',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: ['Webhook'],
          summary: 'Rotate the signing secret',
          description:
            'A new signing secret, shown this once. The previous one keeps signing beside it until `previous_secret_expires_at` (POSTHORN_WEBHOOK_SECRET_OVERLAP, 24 h by default), so the receiver can switch at its own pace.',
          operationId: 'rotateWebhookSecret',
          params: DomainParams,
          response: { 200: WebhookRotated, ...errorResponses('invalid_request', 'forbidden', 'not_found', 'conflict') },
        },
      },
      async (req) => {
        const caller = req.caller as Caller;
        const domain = await domainOf(caller, req.params.domain);
        const out = await rotateWebhookSecret(deps, domain, callerActor(caller));
        return { secret: out.secret, previous_secret_expires_at: out.previous_secret_expires_at };
      },
    );

    app.post(
      '/v1/domains/:domain/webhook/test',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: ['Webhook'],
          summary: 'Send a test event',
          description:
            'POSTs one signed event named `webhook.test` to the webhook now, with the signing, private-address guard and timeout of every delivery, and answers with what the receiver said. Answered 200 whatever the receiver answered; the test is not written to the delivery log.',
          operationId: 'testWebhook',
          params: DomainParams,
          response: { 200: WebhookTestResult, ...errorResponses('invalid_request', 'forbidden', 'not_found') },
        },
      },
      async (req) => {
        const caller = req.caller as Caller;
        const domain = await domainOf(caller, req.params.domain);
        const out = await testWebhook(deps, domain, callerActor(caller));
        return { status: out.status, duration_ms: out.duration_ms, response: out.response };
      },
    );

    app.post(
      '/v1/domains/:domain/webhook/replay',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: ['Webhook'],
          summary: 'Replay stored events',
          description: `Queues the domain's stored events between \`start\` and \`end\` (inclusive; optionally only those named \`event\`) to the webhook again, each with its original event id as \`webhook-id\`, so a receiver deduplicates what it already has. At most ${MAX_REPLAY_DAYS} days and ${MAX_REPLAY_EVENTS} events per request: a bigger window is refused (400 \`end\`) naming the \`end\` that fits.`,
          operationId: 'replayWebhook',
          params: DomainParams,
          body: ReplayBody,
          response: { 200: ReplayResult, ...errorResponses('invalid_request', 'forbidden', 'not_found') },
        },
      },
      async (req) => {
        const caller = req.caller as Caller;
        const domain = await domainOf(caller, req.params.domain);
        const out = await replayWebhook(deps, domain, req.body, callerActor(caller));
        return { queued: out.queued };
      },
    );

    app.delete(
      '/v1/domains/:domain/webhook',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: ['Webhook'],
          summary: "Remove the domain's webhook",
          description:
            'The webhook goes with its delivery log; deliveries not yet made are dropped and never sent. Events keep being stored and stay readable with GET /v1/events.',
          operationId: 'removeWebhook',
          params: DomainParams,
          response: { 204: NoContent, ...errorResponses('invalid_request', 'forbidden', 'not_found') },
        },
      },
      async (req, reply) => {
        const caller = req.caller as Caller;
        const domain = await domainOf(caller, req.params.domain);
        await removeWebhook(deps, domain, callerActor(caller));
        return reply.code(204).send(null);
      },
    );
  };
}
