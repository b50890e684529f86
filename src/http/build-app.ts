import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Deps } from '../deps.js';
import { apiError } from '../core/api-errors.js';
import { sendError } from './send-error.js';
import { BODY_LIMIT } from '../core/limits.js';
import { healthRoutes } from './routes/health.js';
import { sendRoute } from './routes/send.js';
import { eventsRoute } from './routes/events.js';
import { domainRoute } from './routes/domain.js';
import { trackingRoutes } from './routes/tracking.js';
import { createSubmitPipeline, type SubmitPipeline } from '../send/submit.js';


/**
 * Builds the HTTP app without listening (tests use `inject()`, main.ts adds TLS and listens).
 * Bodies are read raw: the send pipeline authenticates before it parses, so a bad key is 401 even
 * when the body is also bad (spec 5.9), and the pipeline, not Fastify, names the bad field.
 */
export function buildApp(deps: Deps, opts: { https?: { cert: string | Buffer; key: string | Buffer }; pipeline?: SubmitPipeline } = {}): FastifyInstance {
  const options: FastifyServerOptions & { https?: { cert: string | Buffer; key: string | Buffer } } = {
    loggerInstance: deps.log,
    // Per-request log lines would cost more than the request itself; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    return503OnClosing: true,
    // Errors Fastify raises before any route runs (a path with a malformed percent-escape such as
    // `/v1/%ff`, RFC 3986 §2.1) get the API's error body too, not Fastify's own shape.
    frameworkErrors: (err, _req, reply) => {
      const hint = err.code === 'FST_ERR_BAD_URL' ? '; percent-escapes in a path must be %XX hex pairs encoding UTF-8 (RFC 3986 §2.1)' : '';
      sendError(reply, apiError('invalid_request', `${err.message}${hint}`, 'url'));
    },
    ...(opts.https ? { https: opts.https } : {}),
  };
  const app = Fastify(options) as unknown as FastifyInstance;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.setNotFoundHandler((req, reply) => {
    sendError(reply, apiError('not_found', `no route ${req.method} ${req.url.split('?')[0]}`));
  });
  app.setErrorHandler((err: { statusCode?: number; code?: string; message: string }, req, reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(reply, apiError('payload_too_large', `request body is over ${BODY_LIMIT} bytes (10 MiB)`, 'body'));
    }
    if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
      return sendError(reply, apiError('invalid_request', err.message, 'body'));
    }
    req.log.error({ err }, 'request failed');
    return sendError(reply, apiError('internal_error', 'internal error; the request may be retried'));
  });

  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    deps.metrics.httpDuration.observe({ route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });

  app.register(healthRoutes(deps));
  const pipeline = opts.pipeline ?? createSubmitPipeline(deps);
  app.addHook('onClose', async () => pipeline.drain());
  app.register(sendRoute(pipeline));
  app.register(eventsRoute(deps));
  app.register(trackingRoutes(deps));
  app.register(domainRoute(deps));
  return app;
}
