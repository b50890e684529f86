import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Deps } from '../deps.js';
import { UNAUTHORIZED } from '../core/api-errors.js';
import { authenticate, type AuthContext } from '../credentials/authenticate.js';
import { sendError } from './send-error.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's key, set by `requireKey` before the body is read; null on public routes. */
    auth: AuthContext | null;
  }
}

/** RFC 6750 §3: the challenge every 401 carries. */
const CHALLENGE = 'Bearer realm="posthorn"';

/**
 * Sends the one 401 of the API (every cause gets the same body, so it reveals nothing to probe
 * with) with its challenge (RFC 6750 §3). `error="invalid_token"` is added when a bearer token was
 * presented (§3.1); a request with no credentials, or another scheme, gets the bare challenge, as
 * §3.1 asks. The distinction tells the caller only what it sent.
 */
export function sendUnauthorized(reply: FastifyReply, authorization: string | undefined): FastifyReply {
  const presented = authorization !== undefined && /^Bearer +\S/i.test(authorization);
  reply.header('WWW-Authenticate', presented ? `${CHALLENGE}, error="invalid_token"` : CHALLENGE);
  return sendError(reply, UNAUTHORIZED);
}

/**
 * The `onRequest` hook of every keyed route: it runs on the headers alone, before Fastify reads
 * or even looks at the body, so an unauthenticated caller gets 401 at once and none of its body
 * is buffered (the connection is then closed, see `closeUnreadBodies` in build-app.ts).
 */
export function requireKey(deps: Pick<Deps, 'db' | 'config'>): onRequestHookHandler {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const auth = await authenticate(deps, req.headers.authorization);
    if (!auth) return sendUnauthorized(reply, req.headers.authorization);
    req.auth = auth;
  };
}
