import type { FastifyReply } from 'fastify';
import { ERROR_TABLE, errorBody, type ApiError } from '../core/api-errors.js';

/** Writes an ApiError as spec part 7's body with its status, and Retry-After for 429s. */
export function sendError(reply: FastifyReply, err: ApiError): FastifyReply {
  if (err.retryAfter !== undefined) reply.header('Retry-After', String(err.retryAfter));
  return reply.code(ERROR_TABLE[err.type].status).send(errorBody(err));
}

