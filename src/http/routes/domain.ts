import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { apiError, retryAfterSeconds } from '../../core/api-errors.js';
import type { AuthContext } from '../../credentials/authenticate.js';
import { complaintRate } from '../../feedback/complaint-rate.js';
import { sendError } from '../send-error.js';
import { errorResponses } from '../schemas/common.js';
import { OwnDomain } from '../schemas/domains.js';

/**
 * `GET /v1/domain`: the API key's own sending domain — name, status, when it was verified, and its
 * rolling 30-day complaint rate against the 0.1% of the acceptable use policy (docs/inbound.md,
 * Complaint rate). The rate is a count over the events table, so reads share the per-key limit of GET
 * /v1/events (POSTHORN_EVENTS_RATE_LIMIT) under their own key.
 */
export function domainRoute(deps: Deps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/domain',
      {
        config: { need: { scope: 'send' } },
        schema: {
          tags: ['Domains'],
          summary: "The sending key's domain",
          description:
            "The API key's own sending domain: its name, status, when it was verified, and its rolling 30-day complaint rate against the 0.1% of the acceptable use policy. Reads share the per-key limit of `GET /v1/events` under their own key (POSTHORN_EVENTS_RATE_LIMIT). An account token uses `GET /v1/domains/{domain}` instead (403 `forbidden` here).",
          operationId: 'getOwnDomain',
          response: { 200: OwnDomain, ...errorResponses('forbidden', 'rate_limited') },
        },
      },
      async (req, reply) => {
        // authorize (authorize.ts) answered the 401 (the same one, whatever the cause) or set the key.
        const auth = req.auth as AuthContext;
        const now = deps.clock.now();
        const decision = await deps.limiter.take(`domain:${auth.keyId}`, deps.config.eventsRateLimit, now);
        if (!decision.ok) {
          const wait = retryAfterSeconds(decision.retryAfterMs);
          return sendError(
            reply,
            apiError(
              'rate_limited',
              `More than ${deps.config.eventsRateLimit} domain reads per second with this key; retry after ${wait} s.`,
              undefined,
              wait,
            ),
          );
        }
        const row = await deps.db
          .selectFrom('domains')
          .select(['name', 'status', 'verified_at'])
          .where('id', '=', auth.domain.id)
          .executeTakeFirstOrThrow();
        return reply.send({
          domain: row.name,
          status: row.status,
          verified_at: row.verified_at === null ? null : new Date(Number(row.verified_at)).toISOString(),
          complaint_rate: await complaintRate(deps.db, auth.domain.id, now),
        });
      },
    );
  };
}
