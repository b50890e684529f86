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
import { requireKey } from './require-key.js';


/**
 * Builds the HTTP app without listening (tests use `inject()`, main.ts adds TLS and listens).
 * Keyed routes authenticate in an `onRequest` hook, from the headers, before Fastify looks at the
 * Content-Type or reads a byte of the body: a bad key is 401 even when the body is also bad
 * (spec 5.9), and an unauthenticated caller cannot make the process buffer anything. Bodies are
 * read raw, so the pipeline, not Fastify, names the bad field.
 */
export function buildApp(deps: Deps, opts: { https?: { cert: string | Buffer; key: string | Buffer }; pipeline?: SubmitPipeline } = {}): FastifyInstance {
  const options: FastifyServerOptions & { https?: { cert: string | Buffer; key: string | Buffer } } = {
    loggerInstance: deps.log,
    // Per-request log lines would cost more than the request itself; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    return503OnClosing: true,
    ...(opts.https ? { https: opts.https } : {}),
  };
  const app = Fastify(options) as unknown as FastifyInstance;
  app.decorateRequest('auth', null);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.setNotFoundHandler((req, reply) => {
    sendError(reply, apiError('not_found', `no route ${req.method} ${req.url.split('?')[0]}`));
  });
  app.setErrorHandler((err: { statusCode?: number; code?: string; message: string }, req, reply) => {
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      // A Content-Type that is not a media type at all (RFC 9110 §8.3.1), e.g. `foo` or empty.
      return sendError(reply, apiError('invalid_request', `Content-Type ${JSON.stringify(req.headers['content-type'] ?? '')} is not a media type; send application/json`, 'Content-Type'));
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(reply, apiError('payload_too_large', `request body is over ${BODY_LIMIT} bytes (10 MiB)`, 'body'));
    }
    if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
      return sendError(reply, apiError('invalid_request', err.message, 'body'));
    }
    req.log.error({ err }, 'request failed');
    return sendError(reply, apiError('internal_error', 'internal error; the request may be retried'));
  });

  // A response sent before the body was read (401, 413, 400 for the Content-Type, 404) closes the
  // connection rather than leave Node to read and discard the rest of the body: the caller may be
  // trickling it, and nothing of it is wanted (RFC 9112 §9.6: `close` ends the connection after
  // this response).
  app.addHook('onSend', (req, reply, payload, done) => {
    if (!req.raw.complete) reply.header('Connection', 'close');
    done(null, payload);
  });

  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    deps.metrics.httpDuration.observe({ route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });

  app.register(healthRoutes(deps));
  const pipeline = opts.pipeline ?? createSubmitPipeline(deps);
  app.addHook('onClose', async () => pipeline.drain());
  app.register(sendRoute(pipeline, requireKey(deps)));
  app.register(eventsRoute(deps));
  app.register(trackingRoutes(deps));
  app.register(domainRoute(deps));
  return app;
}
