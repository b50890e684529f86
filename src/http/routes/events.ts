import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { parseEventsQuery } from '../../events/parse-events-query.js';
import { queryEvents } from '../../events/query-events.js';
import type { Caller } from '../authorize.js';
import { readDomain } from '../read-domain.js';
import { takeRead } from '../read-limit.js';
import { errorResponses } from '../schemas/common.js';
import { EventsPageSchema, EventsQuery } from '../schemas/events.js';
import { sendError } from '../send-error.js';

/**
 * `GET /v1/events` (docs/api.md): the credential (authorize.ts), then the per-credential read
 * limit, then the query string, then the domain. That order keeps 401 about the credential alone
 * (docs/api.md, Authentication) and makes malformed queries count against the limit like any other
 * read. A sending key reads its own domain; an account token names one with `domain=`.
 */
export function eventsRoute(deps: Deps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/events',
      {
        config: { need: { scope: 'read' } },
        schema: {
          tags: ['Sending'],
          summary: "A domain's events",
          description:
            "The domain's events, newest first, ties by id, with offset paging and filters. A sending key reads its own domain; an account token names one of its account's domains with `domain=` (required when the account has more than one). Events are kept 120 days.",
          operationId: 'listEvents',
          querystring: EventsQuery,
          response: { 200: EventsPageSchema, ...errorResponses('invalid_request', 'not_found', 'rate_limited') },
        },
        // The query schema documents; parse-events-query.ts checks, after the read limit, with the
        // messages it has always given. Fastify's own check would run first and word them differently.
        validatorCompiler: () => () => true,
      },
      async (req, reply) => {
        const caller = req.caller as Caller;
        const limited = await takeRead(deps, caller, 'events', 'event queries');
        if (limited) return sendError(reply, limited);
        const parsed = parseEventsQuery(req.query as unknown);
        if (!parsed.ok) return sendError(reply, parsed.error);
        const domain = await readDomain(deps, caller, parsed.filter.domain);
        return reply.send(await queryEvents(deps, domain.id, parsed.filter));
      },
    );
  };
}
