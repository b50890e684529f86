import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { parseTimeRange } from '../../events/parse-events-query.js';
import { listMessages } from '../../messages/list-messages.js';
import { messageSource } from '../../messages/message-source.js';
import { showMessage, type MessageScope } from '../../messages/message-view.js';
import { cancelMessage } from '../../queue-control/queue-actions.js';
import { Cancelled } from '../schemas/queue.js';
import { callerAccountId, callerActor, type Caller } from '../authorize.js';
import { readDomain } from '../read-domain.js';
import { takeRead } from '../read-limit.js';
import { errorResponses } from '../schemas/common.js';
import {
  ContentQuery,
  MessageContent,
  MessageParams,
  MessageSchema,
  MessagesPageSchema,
  MessagesQuery,
} from '../schemas/messages.js';

/** What a caller may see: a sending key its own domain's messages, an account token its account's. */
function scopeOf(caller: Caller): MessageScope {
  return caller.kind === 'key' ? { domainId: caller.key.domain.id } : { accountId: callerAccountId(caller) };
}

/** Throws the 429 of the read limit (read-limit.ts), shared by the three message routes. */
async function limitRead(deps: Deps, caller: Caller): Promise<void> {
  const limited = await takeRead(deps, caller, 'messages', 'message reads');
  if (limited) throw Object.assign(new Error(limited.message), { apiError: limited });
}

/**
 * `GET /v1/messages`, `GET /v1/messages/{id}` and `GET /v1/messages/{id}/content` (docs/api.md,
 * Messages): what became of a message, recipient by recipient, and its signed source. The work is
 * in src/messages/; `posthorn message show` calls the same showMessage.
 */
export function messageRoutes(deps: Deps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/messages',
      {
        config: { need: { scope: 'read' } },
        schema: {
          tags: ['Messages'],
          summary: 'Search messages',
          description:
            "A domain's messages, newest first, ties by id, each with its recipients' status. Filters combine; `status` matches a message with at least one recipient in that status. Pages follow `next_cursor`, which never repeats or skips a message while new ones arrive. A sending key reads its own domain; an account token names one with `domain=` (required when the account has more than one).",
          operationId: 'listMessages',
          querystring: MessagesQuery,
          response: {
            200: MessagesPageSchema,
            ...errorResponses('invalid_request', 'not_found', 'rate_limited'),
          },
        },
      },
      async (req) => {
        const caller = req.caller as Caller;
        await limitRead(deps, caller);
        const q = req.query;
        const range = parseTimeRange(q.start, q.end);
        if ('error' in range) throw Object.assign(new Error(range.error.message), { apiError: range.error });
        const domain = await readDomain(deps, caller, q.domain);
        return listMessages(deps, domain.id, {
          limit: q.limit ?? 25,
          ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
          ...(q.status !== undefined ? { status: q.status } : {}),
          ...(q.to !== undefined ? { to: q.to } : {}),
          ...(q.tag !== undefined ? { tag: q.tag } : {}),
          ...range,
        });
      },
    );

    app.get(
      '/v1/messages/:id',
      {
        config: { need: { scope: 'read' } },
        schema: {
          tags: ['Messages'],
          summary: 'One message',
          description:
            "The message with each recipient's status (`queued`, `deferred`, `delivered`, `failed`, `rejected`, `suppressed`, `scheduled`), its newest event and, while another attempt is to come, the last SMTP reply; and the message's events, oldest first. A send refused at submission (suppressed recipients) is shown from its `rejected-by-system` events. Another domain's message (for a sending key) or another account's is 404.",
          operationId: 'getMessage',
          params: MessageParams,
          response: { 200: MessageSchema, ...errorResponses('invalid_request', 'not_found', 'rate_limited') },
        },
      },
      async (req) => {
        const caller = req.caller as Caller;
        await limitRead(deps, caller);
        return showMessage(deps, scopeOf(caller), req.params.id);
      },
    );

    app.post(
      '/v1/messages/:id/cancel',
      {
        config: { need: { scope: 'read', write: true } },
        schema: {
          tags: ['Messages'],
          summary: 'Cancel a message',
          description:
            'Cancels what is still pending of a message, typically a scheduled one before its `send_at`: each pending recipient ends `failed` with `details.reason = "cancelled"` (no suppression) and is never delivered. 409 `conflict` once nothing is pending any more (delivered, failed, or in a delivery attempt right now). A sending key cancels its own domain\'s messages, an admin token its account\'s.',
          operationId: 'cancelMessage',
          params: MessageParams,
          response: { 200: Cancelled, ...errorResponses('invalid_request', 'forbidden', 'not_found', 'conflict') },
        },
      },
      async (req) => {
        const caller = req.caller as Caller;
        return cancelMessage(deps, scopeOf(caller), req.params.id, callerActor(caller), 'message.cancel');
      },
    );

    app.get(
      '/v1/messages/:id/content',
      {
        config: { need: { scope: 'read' } },
        schema: {
          tags: ['Messages'],
          summary: "A message's signed source",
          description:
            'The message as delivered (`message/rfc822`): the DKIM-Signature fields the delivery engine added, then the message, byte for byte. Available from the first delivery attempt until the body is purged (`POSTHORN_BODY_RETENTION`, 30 days by default); 404 before and after, saying which. With per-recipient tracking each recipient has its own copy: choose it with `recipient=`.',
          operationId: 'getMessageContent',
          params: MessageParams,
          querystring: ContentQuery,
          response: {
            200: MessageContent,
            ...errorResponses('invalid_request', 'not_found', 'rate_limited'),
          },
        },
      },
      async (req, reply) => {
        const caller = req.caller as Caller;
        await limitRead(deps, caller);
        const source = await messageSource(deps, scopeOf(caller), req.params.id, req.query.recipient);
        return (
          reply
            .type('message/rfc822')
            .header('content-disposition', `inline; filename="${source.id}.eml"`)
            // The schema types the body as a string (how OpenAPI describes bytes); Fastify sends a Buffer as is.
            .send(source.raw as unknown as string)
        );
      },
    );
  };
}
