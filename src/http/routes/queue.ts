import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { apiError } from '../../core/api-errors.js';
import { listHolds, resumeDelivery, suspendDelivery } from '../../queue-control/delivery-holds.js';
import { parseHoldUntil } from '../../queue-control/hold-until.js';
import { listQueue, showQueue } from '../../queue-control/list-queue.js';
import { cancelMessage, retryQueue } from '../../queue-control/queue-actions.js';
import { callerAccountId, callerActor, type Caller } from '../authorize.js';
import { errorResponses, NoContent } from '../schemas/common.js';
import {
  Cancelled,
  Hold,
  HoldList,
  HoldParams,
  MessageQueue,
  QueueMessageParams,
  QueuePage,
  QueueQuery,
  Retried,
  RetryBody,
  SuspendBody,
} from '../schemas/queue.js';

const TAGS = ['Queue'];

/** Exactly one of `domain` and `provider` in a body; a 400 naming the one at fault otherwise. */
function oneDestination(body: {
  domain?: string | undefined;
  provider?: string | undefined;
}): { domain: string } | { provider: string } {
  if (body.domain !== undefined && body.provider !== undefined)
    throw Object.assign(new Error('give domain or provider, not both'), {
      apiError: apiError('invalid_request', 'give domain or provider, not both', 'provider'),
    });
  if (body.domain !== undefined) return { domain: body.domain };
  if (body.provider !== undefined) return { provider: body.provider };
  throw Object.assign(new Error('domain or provider is required'), {
    apiError: apiError('invalid_request', 'one of domain or provider is required', 'domain'),
  });
}

/**
 * The account's delivery queue (docs/delivery.md): its messages' unfinished jobs, retry and
 * cancel, and holds on its own mail to a recipient domain or provider. An account sees and
 * changes only its own messages and holds; holds over every account's mail are the operator's
 * (`posthorn queue suspend`), which an account sees here but cannot lift. The work is in
 * src/queue-control/, which `posthorn queue …` calls too; every change is audited.
 */
export function queueRoutes(deps: Deps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/queue',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: TAGS,
          summary: 'List the delivery queue',
          description:
            "The account's delivery jobs not finished yet, one per recipient, in the order they were accepted. Filters combine. Pages follow `next_cursor`.",
          operationId: 'listQueue',
          querystring: QueueQuery,
          response: { 200: QueuePage, ...errorResponses('invalid_request', 'forbidden') },
        },
      },
      async (req) => {
        const caller = req.caller as Caller;
        const q = req.query;
        return listQueue(
          deps,
          { accountId: callerAccountId(caller) },
          {
            limit: q.limit ?? 100,
            ...(q.domain !== undefined ? { domain: q.domain } : {}),
            ...(q.provider !== undefined ? { provider: q.provider } : {}),
            ...(q.status !== undefined ? { status: q.status } : {}),
            ...(q.cursor !== undefined ? { cursor: q.cursor } : {}),
          },
        );
      },
    );

    app.get(
      '/v1/queue/holds',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: TAGS,
          summary: 'Delivery holds in force',
          description:
            "The holds that delay this account's mail: its own (`account_only`) and the operator's over every account.",
          operationId: 'listQueueHolds',
          response: { 200: HoldList, ...errorResponses('forbidden') },
        },
      },
      async (req) => ({ holds: await listHolds(deps, { accountId: callerAccountId(req.caller as Caller) }) }),
    );

    app.post(
      '/v1/queue/holds',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Suspend delivery to a domain or provider',
          description:
            "Holds this account's mail to a recipient domain or a provider: its jobs are put back without an attempt (attempts are not counted) until the hold is lifted or `until` passes. Suspending again replaces the hold.",
          operationId: 'suspendQueue',
          body: SuspendBody,
          response: { 201: Hold, ...errorResponses('invalid_request', 'forbidden') },
        },
      },
      async (req, reply) => {
        const caller = req.caller as Caller;
        const dest = oneDestination(req.body);
        const until = req.body.until === undefined ? undefined : parseHoldUntil(req.body.until, deps.clock.now());
        const hold = await suspendDelivery(
          deps,
          { accountId: callerAccountId(caller) },
          {
            ...('domain' in dest
              ? { scope: 'domain', value: dest.domain }
              : { scope: 'provider', value: dest.provider }),
            until,
            reason: req.body.reason,
          },
          callerActor(caller),
        );
        return reply.code(201).send(hold);
      },
    );

    app.delete(
      '/v1/queue/holds/:scope/:value',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Resume delivery',
          description:
            "Lifts this account's hold on a recipient domain or provider: the mail it held is due at once. 404 when the account has no such hold (an operator's hold is lifted with `posthorn queue resume`).",
          operationId: 'resumeQueue',
          params: HoldParams,
          response: { 204: NoContent, ...errorResponses('invalid_request', 'forbidden', 'not_found') },
        },
      },
      async (req, reply) => {
        const caller = req.caller as Caller;
        await resumeDelivery(
          deps,
          { accountId: callerAccountId(caller) },
          { scope: req.params.scope, value: req.params.value },
          callerActor(caller),
        );
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/v1/queue/retry',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Retry a domain or provider now',
          description:
            "Makes the account's waiting jobs to a recipient domain or provider due now. A scheduled message still waits for its time; a held destination's jobs are held again.",
          operationId: 'retryQueue',
          body: RetryBody,
          response: { 200: Retried, ...errorResponses('invalid_request', 'forbidden') },
        },
      },
      async (req) => {
        const caller = req.caller as Caller;
        return retryQueue(deps, { accountId: callerAccountId(caller) }, oneDestination(req.body), callerActor(caller));
      },
    );

    app.get(
      '/v1/queue/:message_id',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: TAGS,
          summary: "One message's queue state",
          description:
            "Each recipient's status and, while one is left, its delivery job. Another account's message is 404.",
          operationId: 'getMessageQueue',
          params: QueueMessageParams,
          response: { 200: MessageQueue, ...errorResponses('invalid_request', 'forbidden', 'not_found') },
        },
      },
      async (req) => showQueue(deps, { accountId: callerAccountId(req.caller as Caller) }, req.params.message_id),
    );

    app.post(
      '/v1/queue/:message_id/retry',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Retry a message now',
          description: "Makes the message's waiting jobs due now (not before a scheduled message's time).",
          operationId: 'retryMessage',
          params: QueueMessageParams,
          response: { 200: Retried, ...errorResponses('invalid_request', 'forbidden', 'not_found') },
        },
      },
      async (req) => {
        const caller = req.caller as Caller;
        return retryQueue(
          deps,
          { accountId: callerAccountId(caller) },
          { messageId: req.params.message_id },
          callerActor(caller),
        );
      },
    );

    app.post(
      '/v1/queue/:message_id/cancel',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Cancel a message',
          description:
            'Its pending recipients are never delivered: each ends `failed` with `details.reason = "cancelled"` (no suppression). 409 `conflict` when nothing is pending any more (delivered, failed, or in an attempt right now).',
          operationId: 'cancelQueuedMessage',
          params: QueueMessageParams,
          response: { 200: Cancelled, ...errorResponses('invalid_request', 'forbidden', 'not_found', 'conflict') },
        },
      },
      async (req) => {
        const caller = req.caller as Caller;
        return cancelMessage(deps, { accountId: callerAccountId(caller) }, req.params.message_id, callerActor(caller));
      },
    );
  };
}
