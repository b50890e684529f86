import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import type { SubmitPipeline } from '../../send/submit.js';
import { recordAudit } from '../../audit/audit-log.js';
import { toAuthContext } from '../../credentials/authenticate.js';
import { findAccountDomain } from '../../domains/find-account-domain.js';
import { SANDBOX } from '../../core/sandbox-names.js';
import { listSandboxMessages, readSandboxMessage, viewSandboxMessage } from '../../sandbox/sandbox-mailbox.js';
import { SANDBOX_BEHAVIOURS } from '../../sandbox/sandbox-transport.js';
import { SANDBOX_TRIGGERS } from '../../sandbox/sandbox-triggers.js';
import { callerAccountId, callerActor, type Caller } from '../authorize.js';
import { httpIntake } from './send.js';
import { sendError } from '../send-error.js';
import { DomainParams, errorResponses } from '../schemas/common.js';
import { SendAccepted } from '../schemas/send.js';
import {
  SandboxMessage,
  SandboxMessagePage,
  SandboxMessageParams,
  SandboxMessagesQuery,
  SandboxRawResponse,
  TestSendBody,
} from '../schemas/sandbox.js';

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The sandbox mailbox (docs/dashboard.md, Sandbox mailbox) and the domain screen's test message
 * (docs/dashboard.md, Send a test message).
 */
export function sandboxRoutes(deps: Deps, pipeline: SubmitPipeline): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/sandbox/messages',
      {
        // A read: viewers may call it too. Messages hold no credential.
        config: { need: { scope: 'manage' } },
        schema: {
          tags: ['Sandbox'],
          summary: 'The sandbox mailbox',
          description:
            'In sandbox mode, the messages the sandbox kept instead of sending them, for the account’s domains, newest first, a page at a time (`posthorn sandbox list`). Outside sandbox mode there is no mailbox: 404.',
          operationId: 'listSandboxMessages',
          querystring: SandboxMessagesQuery,
          response: { 200: SandboxMessagePage, ...errorResponses('invalid_request', 'forbidden', 'not_found') },
        },
      },
      async (req) =>
        listSandboxMessages(deps, callerAccountId(req.caller as Caller), {
          limit: req.query.limit ?? 100,
          ...(req.query.cursor !== undefined ? { cursor: req.query.cursor } : {}),
        }),
    );

    app.get(
      '/v1/sandbox/messages/:id',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: ['Sandbox'],
          summary: 'One kept message',
          description:
            'One message of the sandbox mailbox with its HTML and plain-text bodies decoded, for reading. Its bytes as signed are at `/raw`.',
          operationId: 'getSandboxMessage',
          params: SandboxMessageParams,
          response: { 200: SandboxMessage, ...errorResponses('forbidden', 'not_found') },
        },
      },
      async (req) => viewSandboxMessage(deps, callerAccountId(req.caller as Caller), req.params.id),
    );

    app.get(
      '/v1/sandbox/messages/:id/raw',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: ['Sandbox'],
          summary: 'A kept message’s raw source',
          description:
            'The message byte for byte as the sandbox received it, DKIM-signed (`posthorn sandbox show ID`).',
          operationId: 'getSandboxMessageRaw',
          params: SandboxMessageParams,
          response: { 200: SandboxRawResponse, ...errorResponses('forbidden', 'not_found') },
        },
      },
      async (req, reply) => {
        const { raw } = await readSandboxMessage(deps, callerAccountId(req.caller as Caller), req.params.id);
        return reply
          .header('content-type', 'message/rfc822')
          .header('content-disposition', `inline; filename="${req.params.id}.eml"`)
          .send(raw);
      },
    );

    app.post(
      '/v1/domains/:domain/test-send',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: ['Sandbox'],
          summary: 'Send a test message',
          description: `Sends a short test message from the domain to one recipient, through the same submit pipeline as \`POST /v1/send\` (every check, the quota and the rate limit apply; it counts like any message), so an account token or a dashboard admin can try a domain without a sending key. Any domain of the account that can send; from \`${SANDBOX.from}\` on the sandbox domain, \`test@{domain}\` on others. Outside the sandbox the message really goes out. In the sandbox the recipient's local part picks the outcome: ${[
            ...SANDBOX_BEHAVIOURS,
            ...SANDBOX_TRIGGERS,
          ]
            .map((b) => `\`${b.prefix}@\` (${b.what})`)
            .join('; ')}. Recorded in the audit log as \`domain.test_send\`.`,
          operationId: 'testSend',
          params: DomainParams,
          body: TestSendBody,
          response: {
            202: SendAccepted,
            ...errorResponses(
              'invalid_request',
              'forbidden',
              'not_found',
              'domain_unverified',
              'recipient_suppressed',
              'rate_limited',
              'quota_exceeded',
              'server_busy',
            ),
          },
        },
      },
      async (req, reply) => {
        const caller = req.caller as Caller;
        const accountId = callerAccountId(caller);
        const domain = await findAccountDomain(deps, accountId, req.params.domain);
        const account = await deps.db
          .selectFrom('accounts')
          .select(['rate_limit', 'monthly_quota'])
          .where('id', '=', accountId)
          .executeTakeFirstOrThrow();
        const actor = callerActor(caller);
        const auth = toAuthContext(`test-send:${actor.kind}:${'id' in actor ? actor.id : ''}`, {
          domain_id: domain.id,
          name: domain.name,
          status: domain.status,
          sandbox: domain.sandbox,
          track_opens: domain.track_opens,
          track_clicks: domain.track_clicks,
          unsubscribe: domain.unsubscribe,
          account_id: accountId,
          rate_limit: account.rate_limit,
          monthly_quota: account.monthly_quota,
        });
        const subject = req.body.subject ?? 'Test message from Posthorn';
        const from = domain.sandbox === 1 ? SANDBOX.from : `test@${domain.name}`;
        const text = `This is a test message from ${domain.name}, sent from the Posthorn dashboard.\n\nA link to follow: https://posthorn.test/\n`;
        // An HTML part with a link, so open and click tracking (and the sandbox's open@ and click@) have
        // something to act on (docs/tracking.md, Sandbox).
        const html = `<!doctype html><html><body style="font-family:sans-serif"><h1 style="color:#0b5394">${escapeHtml(subject)}</h1><p>This is a test message from <strong>${escapeHtml(domain.name)}</strong>, sent from the Posthorn dashboard.</p><p><a href="https://posthorn.test/">A link to follow</a></p></body></html>`;
        const body = Buffer.from(JSON.stringify({ from, to: req.body.to, subject, text, html, tags: ['test'] }));
        const result = await pipeline.submit(
          httpIntake({
            authorization: undefined,
            auth,
            contentType: 'application/json',
            body,
            idempotencyKey: undefined,
          }),
        );
        if (result.kind !== 'accepted') return sendError(reply, result.error);
        await recordAudit(deps.db, deps, {
          accountId,
          actor,
          action: 'domain.test_send',
          target: `${domain.name} to ${req.body.to}`,
        });
        return reply.code(202).send(result.body);
      },
    );
  };
}
