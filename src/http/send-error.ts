import type { FastifyReply } from 'fastify';
import { ERROR_TABLE, errorBody, type ApiError } from '../core/api-errors.js';

/**
 * Writes an ApiError as the API's error body (docs/api.md, Errors) with its status, Retry-After
 * when it has one, and on a 401 the RFC 6750 §3 challenge (unless the caller set a more precise
 * one, see require-key.ts).
 */
export function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  if (err.retryAfter !== undefined) reply.header('Retry-After', String(err.retryAfter));
  if (err.type === 'invalid_key' && !reply.hasHeader('www-authenticate'))
    reply.header('WWW-Authenticate', 'Bearer realm="posthorn"');
  return reply.code(ERROR_TABLE[err.type].status).send(errorBody(err));
}
