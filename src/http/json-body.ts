import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../core/api-errors.js';
import { jsonDepthExceeded, MAX_JSON_DEPTH } from '../send/json-depth.js';
import { sendError } from './send-error.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * The `preValidation` hook that turns the raw body of a route with a JSON body schema into the
 * value its schema validates: Content-Type must be JSON, nesting at most MAX_JSON_DEPTH deep
 * (checked on the bytes before parsing, see json-depth.ts), and the bytes valid JSON. Bodies are
 * read raw app-wide (build-app.ts) so that POST /v1/send can parse its own; a route whose body is
 * not JSON (suppression import) or that parses its own (send) sets `config.rawBody`.
 */
export async function parseJsonBody(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (req.routeOptions.schema?.body === undefined || req.routeOptions.config.rawBody === true) return;
  const raw = req.body;
  if (raw === undefined || raw === null || (Buffer.isBuffer(raw) && raw.length === 0)) {
    req.body = undefined;
    return;
  }
  if (!Buffer.isBuffer(raw)) return;
  const type = req.headers['content-type'];
  if (type === undefined || !JSON_TYPE.test(type)) {
    await sendError(
      reply,
      apiError(
        'invalid_request',
        `Content-Type must be application/json, not ${JSON.stringify(type ?? '')}`,
        'Content-Type',
      ),
    );
    return;
  }
  if (jsonDepthExceeded(raw) >= 0) {
    await sendError(reply, apiError('invalid_request', `the body nests deeper than ${MAX_JSON_DEPTH} levels`, 'body'));
    return;
  }
  try {
    req.body = JSON.parse(raw.toString('utf8')) as unknown;
  } catch (err) {
    await sendError(
      reply,
      apiError('invalid_request', `the body is not valid JSON: ${(err as Error).message}`, 'body'),
    );
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads its body itself (a stream, or bytes it parses): parseJsonBody leaves it alone. */
    rawBody?: boolean;
  }
}
