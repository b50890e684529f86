import type { FastifyPluginAsync } from 'fastify';
import type { Deps } from '../../deps.js';
import { apiError } from '../../core/api-errors.js';
import type { AuthContext } from '../../credentials/authenticate.js';
import { parseEventsQuery } from '../../events/parse-events-query.js';
import { queryEvents } from '../../events/query-events.js';
import { retryAfterSeconds } from '../../core/api-errors.js';
import { sendError } from '../send-error.js';

/**
 * `GET /v1/events` (docs/api.md): authenticate, then the per-key read limit, then the query string.
 * That order keeps 401 about the key alone (docs/api.md, Authentication) and makes malformed
 * queries count against the limit like any other read.
 */
export function eventsRoute(deps: Deps): FastifyPluginAsync {
  return async (app) => {
    app.get('/v1/events', { config: { need: { scope: 'send' } } }, async (req, reply) => {
      // authorize (authorize.ts) answered the 401 (the same one, whatever the cause) or set the key.
      const auth = req.auth as AuthContext;

      const decision = await deps.limiter.take(`events:${auth.keyId}`, deps.config.eventsRateLimit, deps.clock.now());
      if (!decision.ok) {
        const wait = retryAfterSeconds(decision.retryAfterMs);
        return sendError(
          reply,
          apiError(
            'rate_limited',
            `More than ${deps.config.eventsRateLimit} event queries per second with this key; retry after ${wait} s.`,
            undefined,
            wait,
          ),
        );
      }

      const parsed = parseEventsQuery(req.query);
      if (!parsed.ok) return sendError(reply, parsed.error);
      return reply.send(await queryEvents(deps, auth.domain.id, parsed.filter));
    });
  };
}
