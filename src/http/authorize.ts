import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Deps } from '../deps.js';
import { apiError, UNAUTHORIZED } from '../core/api-errors.js';
import { authenticate, authenticateCached, type AuthContext } from '../credentials/authenticate.js';
import { authenticateAccountToken, looksLikeAccountToken, type TokenContext } from '../credentials/account-tokens.js';
import type { Actor } from '../core/actor.js';
import { resolveSession, sessionCookieValue, type SessionContext } from '../users/sessions.js';
import { sendError } from './send-error.js';

/**
 * What a route needs from its caller (docs/management.md, Credentials), declared by every `/v1`
 * route in its `config.need` (build-app.ts refuses to register one without it):
 * - `send`: a sending key (`ph_…`): POST /v1/send, GET /v1/domain.
 * - `read`: a sending key for its own domain, or an account token or session for any domain of
 *   its account: GET /v1/events, /v1/messages….
 * - `manage`: an account token or a dashboard session; a sending key gets 403 `forbidden`.
 * - `public`: no credential (GET /v1/openapi.json).
 * `write: true` also needs the `admin` role: a viewer's write is 403 `forbidden`.
 */
export interface Need {
  scope: 'send' | 'read' | 'manage' | 'public';
  write?: boolean;
}

/** Who is calling, once authorized: a sending key, an account token, or a dashboard session. */
export type Caller =
  | { kind: 'key'; key: AuthContext; ip: string }
  | { kind: 'token'; token: TokenContext; ip: string }
  | { kind: 'session'; session: SessionContext; ip: string };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's credential need; see Need. */
    need?: Need;
    /**
     * The route's handler checks a sending key again before it acts (POST /v1/send: the submit
     * pipeline), so `authorize` may answer a key it resolved before from its cache.
     */
    keyCheckedAgain?: boolean;
  }
  interface FastifyRequest {
    /** The caller's key, set before the body is read on routes a sending key may call; null otherwise. */
    auth: AuthContext | null;
    /** Whoever called, set before the body is read on every route with a need other than `public`. */
    caller: Caller | null;
  }
}

/** The account a caller acts for. */
export function callerAccountId(caller: Caller): string {
  switch (caller.kind) {
    case 'key':
      return caller.key.account.id;
    case 'token':
      return caller.token.account.id;
    case 'session':
      return caller.session.account.id;
  }
}

/** The caller as the audit log names it. */
export function callerActor(caller: Caller): Actor {
  switch (caller.kind) {
    case 'token':
      return { kind: 'token', id: caller.token.tokenId, name: caller.token.name, ip: caller.ip };
    case 'session':
      return { kind: 'user', id: caller.session.userId, email: caller.session.email, ip: caller.ip };
    case 'key':
      return { kind: 'token', id: caller.key.keyId, name: `key:${caller.key.domain.name}`, ip: caller.ip };
  }
}

/** Methods that change state: with a session they must pass the CSRF check (sessionCsrfFailure). */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Why a state-changing request with a session cookie fails the CSRF check, or null when it passes
 * (docs/management.md, Users and sign-in). Both defences of the OWASP CSRF cheat sheet apply: an
 * `Origin` header, when the browser sends one, must name this server (https and the request's
 * Host, or the origin of POSTHORN_PUBLIC_URL behind a proxy that rewrites Host), and the session's
 * token must come back in `X-CSRF-Token`, which a cross-site form cannot set. Bearer requests
 * carry no ambient credential and need neither.
 */
export function sessionCsrfFailure(req: FastifyRequest, csrfToken: string, publicUrl: string): string | null {
  const origin = req.headers.origin;
  if (origin !== undefined && !ourOrigin(origin, req.headers.host, publicUrl))
    return `cross-origin request from ${origin} refused`;
  const given = req.headers['x-csrf-token'];
  if (typeof given !== 'string' || given.length === 0)
    return 'a signed-in request that changes something needs the X-CSRF-Token header (csrf_token of GET /v1/session)';
  const a = Buffer.from(given);
  const b = Buffer.from(csrfToken);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return 'the X-CSRF-Token header does not match this session';
  return null;
}

/**
 * True when `origin` is this server's: `https://<host>` for the request's Host header, or the
 * origin of the configured public URL (POSTHORN_PUBLIC_URL).
 */
export function ourOrigin(origin: string, host: string | undefined, publicUrl: string): boolean {
  try {
    if (origin === new URL(publicUrl).origin) return true;
    if (host === undefined) return false;
    const url = new URL(origin);
    return url.protocol === 'https:' && url.host === new URL(`https://${host}`).host;
  } catch {
    return false;
  }
}

/** RFC 6750 §3: the challenge every 401 carries. */
const CHALLENGE = 'Bearer realm="posthorn"';
const BEARER = /^Bearer +(\S+) *$/i;

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

const KEY_ON_MANAGEMENT =
  "a sending key can only send and read its domain's events and messages; management needs an account token (posthorn token create)";

/**
 * The one authorization of the HTTP API: an `onRequest` hook on every route, run on the headers
 * alone before Fastify reads any body, so an unauthenticated caller gets 401 at once and none of
 * its body is buffered (build-app.ts then closes the connection). It resolves the credential,
 * checks it against the route's `config.need`, and sets `req.caller` (and `req.auth` for a key).
 */
export function authorize(deps: Pick<Deps, 'db' | 'config' | 'clock'>): onRequestHookHandler {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const need = req.routeOptions.config.need;
    if (need === undefined || need.scope === 'public') return;
    const authorization = req.headers.authorization;
    const cookie = authorization === undefined ? sessionCookieValue(req.headers.cookie) : undefined;
    if (cookie !== undefined) {
      const session = await resolveSession(deps, cookie);
      if (!session) return sendUnauthorized(reply, authorization);
      if (need.scope === 'send')
        return sendError(
          reply,
          apiError('forbidden', "a dashboard session manages the account; sending needs the domain's API key (ph_…)"),
        );
      if (STATE_CHANGING.has(req.method)) {
        const csrf = sessionCsrfFailure(req, session.csrfToken, deps.config.publicUrl);
        if (csrf !== null) return sendError(reply, apiError('forbidden', csrf));
      }
      if (need.write === true && session.role !== 'admin')
        return sendError(reply, apiError('forbidden', `your role is ${session.role}, which may only read`));
      req.caller = { kind: 'session', session, ip: req.ip };
      return;
    }
    const bearer = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
    if (bearer !== undefined && looksLikeAccountToken(bearer)) {
      const token = await authenticateAccountToken(deps, bearer);
      if (!token) return sendUnauthorized(reply, authorization);
      if (need.scope === 'send')
        return sendError(
          reply,
          apiError('forbidden', "an account token manages the account; sending needs the domain's API key (ph_…)"),
        );
      if (need.write === true && token.role !== 'admin')
        return sendError(reply, apiError('forbidden', `this token's role is ${token.role}, which may only read`));
      req.caller = { kind: 'token', token, ip: req.ip };
      return;
    }
    const key =
      req.routeOptions.config.keyCheckedAgain === true
        ? await authenticateCached(deps, authorization)
        : await authenticate(deps, authorization);
    if (!key) return sendUnauthorized(reply, authorization);
    if (need.scope === 'manage') return sendError(reply, apiError('forbidden', KEY_ON_MANAGEMENT));
    req.auth = key;
    req.caller = { kind: 'key', key, ip: req.ip };
  };
}
