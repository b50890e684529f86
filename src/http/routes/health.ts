import { sql } from 'kysely';
import type { FastifyPluginAsync } from 'fastify';
import type { Deps } from '../../deps.js';

/** `/healthz` (the database answers) and Prometheus `/metrics` on the API server (docs/security.md, Ports). */
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
    app.get('/metrics', async (_req, reply) => {
      const body = await deps.metrics.registry.metrics();
      return reply.type(deps.metrics.registry.contentType).send(body);
    });
  };
}
