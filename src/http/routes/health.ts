import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import type { Deps } from '../../deps.js';

/**
 * `/healthz` on the API server: the database answers (docs/api.md). Prometheus `/metrics` and
 * `/readyz` are served by the metrics listener only, never on the public port (docs/observability.md).
 */
export function healthRoutes(deps: Deps): FastifyPluginAsync {
  return async (app) => {
    app.get('/healthz', async (_req, reply) => {
      try {
        await sql`SELECT 1`.execute(deps.db);
        return reply.send({ status: 'ok', database: deps.dialect });
      } catch (err) {
        deps.log.error({ err }, 'health check: database unreachable');
        return reply.code(503).send({ status: 'unavailable', database: deps.dialect });
      }
    });
  };
}
