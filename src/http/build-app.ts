import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ServerOptions as HttpServerOptions } from 'node:http';
import type { Socket } from 'node:net';
import type { Deps } from '../deps.js';
import { apiError, errorBody, type ApiError } from '../core/api-errors.js';
import { RefusedError } from '../core/refused-error.js';
import { refusalApiError } from './refusal.js';
import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { capConnectionsPerClient } from './connection-cap.js';
import { bodyGuard, BUDGET_RETRY_AFTER, createBodyBudget, type BodyBudget } from './body-guard.js';
import { readBody } from './read-body.js';
import { sendError } from './send-error.js';
import { BODY_LIMIT, SEND_BODY_LIMIT } from '../core/limits.js';
import { healthRoutes } from './routes/health.js';
import { sendRoute } from './routes/send.js';
import { eventsRoute } from './routes/events.js';
import { domainRoute } from './routes/domain.js';
import { trackingRoutes } from './routes/tracking.js';
import { createSubmitPipeline, type SubmitPipeline } from '../send/submit.js';
import { authorize } from './authorize.js';
import { registerOpenApi, requestAjv } from './openapi.js';
import { sandboxRoutes } from './routes/sandbox.js';
import { validationApiError } from './validation-error.js';
import { parseJsonBody } from './json-body.js';
import { openApiRoute } from './routes/openapi.js';
import { auditRoutes } from './routes/audit.js';
import { templateRoutes } from './routes/templates.js';
import { userRoutes } from './routes/users.js';
import { securityHeaders } from './security-headers.js';
import { domainsRoutes } from './routes/domains.js';
import { Domain } from './schemas/domains.js';
import { credentialRoutes } from './routes/credentials.js';
import { webhookRoutes } from './routes/webhook.js';
import { usageRoutes } from './routes/usage.js';
import { docsRoutes } from './routes/docs.js';
import { messageRoutes } from './routes/messages.js';
import { suppressionRoutes } from './routes/suppressions.js';
import { queueRoutes } from './routes/queue.js';
import { VERSION } from '../core/version.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { noticeRoutes } from './routes/notices.js';
import { providerRoutes } from './routes/providers.js';

/** What a route handler may throw: Fastify's own errors, a validation failure, or an ApiError to send as is. */
interface FastifyRouteError {
  statusCode?: number;
  code?: string;
  message: string;
  validation?: FastifySchemaValidationError[];
  validationContext?: string;
  apiError?: ApiError;
}

/** Bytes of an unwanted body Node may read and throw away to keep a connection open (see onSend). */
const DISCARD_LIMIT = 64 * 1024;

/**
 * Builds the HTTP app without listening (tests use `inject()`, main.ts adds TLS and listens). Keyed
 * routes authenticate in an `onRequest` hook, from the headers, before Fastify looks at the
 * Content-Type or reads a byte of the body: a bad key is 401 even when the body is also bad
 * (docs/api.md, Authentication), and an unauthenticated caller cannot make the process buffer
 * anything. Bodies are read raw, so the pipeline, not Fastify, names the bad field.
 */
export function buildApp(
  deps: Deps,
  opts: {
    https?: { cert: string | Buffer; key: string | Buffer };
    pipeline?: SubmitPipeline;
    budget?: BodyBudget;
  } = {},
): FastifyInstance {
  const c = deps.config;
  // Node's own deadlines (http.createServer): headersTimeout for the request line and headers,
  // requestTimeout for the whole request with its body; both answer 408 and close. Node checks
  // them every connectionsCheckingInterval (30 s by default), far too coarse for a 10 s deadline.
  // Node refuses a headers deadline later than the request's, hence the min.
  const headersTimeout = Math.min(c.httpHeadersTimeout, c.httpBodyTimeout);
  const server: HttpServerOptions & { handshakeTimeout: number } = {
    headersTimeout,
    requestTimeout: c.httpBodyTimeout,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))),
    // A TLS client that never finishes its handshake holds a connection as well (node:tls).
    handshakeTimeout: headersTimeout,
  };
  const options: FastifyServerOptions & { https?: object; http?: HttpServerOptions } = {
    loggerInstance: deps.log,
    // Per-request log lines would cost more than the request itself; errors are still logged.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    return503OnClosing: true,
    // A path parameter may be a whole domain name (253 characters, RFC 1035 §2.3.4); the router's
    // default cap of 100 would refuse long names before the route's schema could name the field.
    routerOptions: { maxParamLength: 1024 },
    // Errors Fastify raises before any route runs (a path with a malformed percent-escape such as
    // `/v1/%ff`, RFC 3986 §2.1) get the API's error body too, not Fastify's own shape.
    frameworkErrors: (err, _req, reply) => {
      const hint =
        err.code === 'FST_ERR_BAD_URL'
          ? '; percent-escapes in a path must be %XX hex pairs encoding UTF-8 (RFC 3986 §2.1)'
          : '';
      sendError(reply, apiError('invalid_request', `${err.message}${hint}`, 'url'));
    },
    // Fastify sets the server's requestTimeout from its own option (0 by default): pass it here too.
    requestTimeout: c.httpBodyTimeout,
    clientErrorHandler,
    ...(opts.https ? { https: { ...opts.https, ...server } } : { http: server }),
  };
  const app = Fastify(options) as unknown as FastifyInstance;
  app.decorateRequest('auth', null);
  app.decorateRequest('caller', null);
  capConnectionsPerClient(app.server, c.httpMaxConnectionsPerClient, deps.log);
  // `Expect: 100-continue` (RFC 9110 §10.1.1): Node answers 100 on its own as soon as the headers
  // are in, inviting the body before the key is checked. With this listener it leaves that to us:
  // the body guard sends 100 once the request has passed authentication and the budget, and a
  // refusal is sent as the final status instead, before the client sends any body.
  app.server.on('checkContinue', (req, res) => app.server.emit('request', req, res));
  app.removeAllContentTypeParsers();
  // Every body as one Buffer, copied once as it arrives (read-body.ts).
  app.addContentTypeParser('*', readBody);
  registerOpenApi(app, VERSION);
  // Shared response components are added here, at the root: Fastify gives a plugin that adds a
  // schema of its own a fresh validator from its default factory, which would quietly drop unknown
  // body fields instead of refusing them (see requestAjv in openapi.ts).
  app.addSchema(Domain);
  // Route schemas (schemas/*.ts) validate with our own Ajv: no coercion in bodies, coercion in
  // query strings and paths (validation-error.ts names the field). Responses are written with
  // JSON.stringify, not a schema-driven serializer that would quietly drop or coerce what does not
  // fit: the tests check every response against the OpenAPI document instead.
  const bodyAjv = requestAjv(false);
  const paramAjv = requestAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? bodyAjv : paramAjv).compile(schema as object),
  );
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // Every /v1 route declares what credential it needs (authorize.ts): one forgotten is a startup
  // error, never an open route.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/v1/') && (route.config as { need?: unknown } | undefined)?.need === undefined)
      throw new Error(`route ${route.method} ${route.url} declares no config.need (src/http/authorize.ts)`);
  });

  // An unknown route is answered from the request line alone: Fastify would otherwise read (and
  // buffer) a body for it first, a way around requireKey for an unauthenticated caller.
  app.addHook('onRequest', (req, reply, done) => {
    if (!req.is404) {
      done();
      return;
    }
    // Answered here, so `done` is not called (Fastify's rule for a callback hook that replies).
    sendError(reply, apiError('not_found', `no route ${req.method} ${req.url.split('?')[0]}`));
  });
  app.setNotFoundHandler((req, reply) => {
    sendError(reply, apiError('not_found', `no route ${req.method} ${req.url.split('?')[0]}`));
  });
  app.setErrorHandler((err: FastifyRouteError, req, reply) => {
    if (err.validation) return sendError(reply, validationApiError(err.validation, err.validationContext));
    if (err instanceof RefusedError) return sendError(reply, refusalApiError(err));
    if (err.apiError !== undefined) return sendError(reply, err.apiError);
    if (err.code === 'POSTHORN_BODY_BUDGET')
      return sendError(reply, apiError('server_busy', err.message, undefined, BUDGET_RETRY_AFTER));
    if (err.code === 'POSTHORN_BODY_TOO_SLOW')
      return sendError(reply, apiError('request_timeout', err.message, 'body'));
    if (err.code === 'POSTHORN_BODY_TOO_LARGE')
      return sendError(reply, apiError('payload_too_large', err.message, 'body'));
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      // A Content-Type that is not a media type at all (RFC 9110 §8.3.1), e.g. `foo` or empty.
      return sendError(
        reply,
        apiError(
          'invalid_request',
          `Content-Type ${JSON.stringify(req.headers['content-type'] ?? '')} is not a media type; send application/json`,
          'Content-Type',
        ),
      );
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = req.routeOptions.bodyLimit ?? BODY_LIMIT;
      return sendError(
        reply,
        apiError(
          'payload_too_large',
          `request body is over ${limit} bytes${limit % (1024 * 1024) === 0 ? ` (${limit / (1024 * 1024)} MiB)` : ''}`,
          'body',
        ),
      );
    }
    if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
      return sendError(reply, apiError('invalid_request', err.message, 'body'));
    }
    req.log.error({ err }, 'request failed');
    return sendError(reply, apiError('internal_error', 'internal error; the request may be retried'));
  });

  // A response sent before the body was read (401, 413, 400 for the Content-Type, 404, and the
  // guard's 408 and 503) closes the connection rather than have Node read and discard the rest:
  // the caller may be trickling it, and nothing of it is wanted (RFC 9112 §9.6). A small declared
  // remainder is the exception: Node discards it and the connection stays open, because closing
  // with unread bytes makes the kernel reset the connection, and a client (say, with a mistyped
  // key) can then lose the response it was meant to read. Go's net/http does the same.
  app.addHook('onSend', (req, reply, payload, done) => {
    if (!req.raw.complete) {
      const declared = Number(req.headers['content-length']);
      const guardCut = reply.statusCode === 408 || reply.statusCode === 503;
      if (guardCut || !(declared <= DISCARD_LIMIT)) reply.header('Connection', 'close');
    }
    done(null, payload);
  });

  // nosniff, Referrer-Policy, HSTS outside the sandbox, and the dashboard's CSP on HTML pages.
  app.addHook('onSend', securityHeaders({ sandbox: c.sandbox }));

  app.addHook(
    'preParsing',
    bodyGuard({
      // The top eighth of the budget (at most what leaves room for one send body of the largest
      // size) is kept for small requests, so large and slow uploads cannot lock them out.
      budget:
        opts.budget ??
        createBodyBudget(
          c.httpBodyBudget,
          Math.min(Math.floor(c.httpBodyBudget / 8), c.httpBodyBudget - SEND_BODY_LIMIT),
        ),
      minRate: c.httpMinBodyRate,
      windowMs: c.httpBodyRateWindow,
    }),
  );

  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url ?? 'unmatched';
    deps.metrics.httpDuration.observe({ route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });

  // After the body guard, before the route: the one authorization of every route (authorize.ts).
  app.addHook('onRequest', authorize(deps));
  // A JSON body for a route with a body schema is parsed (depth-limited) before validation.
  app.addHook('preValidation', parseJsonBody);

  app.register(healthRoutes(deps));
  app.register(openApiRoute());
  const pipeline = opts.pipeline ?? createSubmitPipeline(deps);
  app.addHook('onClose', async () => pipeline.drain());
  app.register(sendRoute(pipeline));
  app.register(eventsRoute(deps));
  app.register(trackingRoutes(deps));
  app.register(domainRoute(deps));
  app.register(auditRoutes(deps));
  app.register(templateRoutes(deps));
  app.register(userRoutes(deps));
  app.register(domainsRoutes(deps));
  app.register(credentialRoutes(deps));
  app.register(webhookRoutes(deps));
  app.register(usageRoutes(deps));
  app.register(docsRoutes());
  app.register(messageRoutes(deps));
  app.register(noticeRoutes(deps));
  app.register(providerRoutes(deps));
  app.register(dashboardRoutes());
  app.register(suppressionRoutes(deps));
  app.register(queueRoutes(deps));
  app.register(sandboxRoutes(deps, pipeline));
  return app;
}

/**
 * Errors Node raises before there is a request to answer (its header and request deadlines,
 * malformed HTTP), written in the API's error format instead of Fastify's default body. The
 * connection is closed after it, as Node and Fastify do by default.
 */
function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, body] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [
          408,
          'Request Timeout',
          errorBody(
            apiError(
              'request_timeout',
              'the request (headers and body) did not arrive in time (POSTHORN_HTTP_HEADERS_TIMEOUT, POSTHORN_HTTP_BODY_TIMEOUT)',
            ),
          ),
        ]
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [
            431,
            'Request Header Fields Too Large',
            errorBody(
              apiError(
                'headers_too_large',
                "the request line and headers are over 16 KiB (Node's limit on a request head)",
                'headers',
              ),
            ),
          ]
        : [400, 'Bad Request', errorBody(apiError('invalid_request', 'malformed HTTP request'))];
  const json = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(err);
}
