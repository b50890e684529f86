import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { apiError, retryAfterSeconds } from '../../core/api-errors.js';
import { RefusedError } from '../../core/refused-error.js';
import {
  createAccountToken,
  pageAccountTokens,
  revokeAccountToken,
  type TokenContext,
} from '../../credentials/account-tokens.js';
import {
  clearedSessionCookie,
  createSignInThrottles,
  endSession,
  sessionCookie,
  signIn,
  type SessionContext,
} from '../../users/sessions.js';
import { confirmTotp, disableTotp, startTotp } from '../../users/totp.js';
import { createUser, pageUsers, removeUser } from '../../users/users.js';
import { callerAccountId, callerActor, ourOrigin, type Caller } from '../authorize.js';
import { sendError } from '../send-error.js';
import { errorResponses, NoContent } from '../schemas/common.js';
import {
  CreatedToken,
  CreatedUser,
  CreateTokenBody,
  CreateUserBody,
  RecoveryCodes,
  SessionView,
  SignInBody,
  TokenList,
  TokenParams,
  TokensQuery,
  TotpCode,
  TotpEnrolment,
  UserList,
  UserParams,
  UsersQuery,
} from '../schemas/users.js';

const forbidden = (message: string): Error =>
  Object.assign(new Error(message), { apiError: apiError('forbidden', message) });

/** The caller's session; a route only a signed-in user can call refuses other credentials with 403. */
function sessionOf(req: FastifyRequest): SessionContext {
  const caller = req.caller as Caller;
  if (caller.kind !== 'session')
    throw forbidden(
      'this route is about a dashboard session; sign in with POST /v1/session (an account token has none)',
    );
  return caller.session;
}

function view(s: SessionContext) {
  return {
    kind: 'session' as const,
    email: s.email,
    token_name: null,
    role: s.role,
    account: s.account.name,
    totp_enabled: s.totpEnabled,
    csrf_token: s.csrfToken,
  };
}

/** An account token as GET /v1/session describes it: its role and account, no user and no CSRF token. */
function tokenCallerView(t: TokenContext) {
  return {
    kind: 'token' as const,
    email: null,
    token_name: t.name,
    role: t.role,
    account: t.account.name,
    totp_enabled: false,
    csrf_token: null,
  };
}

/** The caller's account name (the account functions take the name, as the CLI does). */
async function accountName(deps: Deps, caller: Caller): Promise<string> {
  const row = await deps.db
    .selectFrom('accounts')
    .select('name')
    .where('id', '=', callerAccountId(caller))
    .executeTakeFirstOrThrow();
  return row.name;
}

const tokenView = (t: {
  name: string;
  role: 'admin' | 'viewer';
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}) => ({
  name: t.name,
  role: t.role,
  prefix: t.prefix,
  created_at: t.created_at,
  last_used_at: t.last_used_at,
});

/**
 * Dashboard sign-in and the Settings screen's routes (docs/management.md, Users and sign-in):
 * `/v1/session` (sign in, who am I, sign out), `/v1/session/totp` (two-factor enrolment),
 * `/v1/users` and `/v1/tokens`.
 */
export function userRoutes(deps: Deps): FastifyPluginAsyncTypebox {
  const throttles = createSignInThrottles();
  return async (app) => {
    app.post(
      '/v1/session',
      {
        config: { need: { scope: 'public' } },
        schema: {
          tags: ['Users'],
          summary: 'Sign in',
          description:
            'Checks the email and password (and, when the user has two-factor sign-in on, `totp`) and sets the session cookie `__Host-posthorn_session` (HttpOnly, Secure, SameSite=Lax). A wrong email or password is one 401 whatever was wrong; a right password without the needed code is 401 with `field` `totp`. Repeated failures per email and per client address are refused with 429 for 15 minutes.',
          operationId: 'signIn',
          body: SignInBody,
          response: { 200: SessionView, ...errorResponses('invalid_request', 'forbidden', 'rate_limited') },
        },
      },
      async (req, reply) => {
        // Login CSRF (a cross-site form signing the browser into another account): a browser's
        // Origin must be this server's.
        const origin = req.headers.origin;
        if (origin !== undefined && !ourOrigin(origin, req.headers.host, deps.config.publicUrl))
          return sendError(reply, apiError('forbidden', `cross-origin sign-in from ${origin} refused`));
        const result = await signIn(deps, throttles, {
          email: req.body.email,
          password: req.body.password,
          ...(req.body.totp !== undefined ? { totp: req.body.totp } : {}),
          ip: req.ip,
        });
        switch (result.kind) {
          case 'throttled': {
            const wait = retryAfterSeconds(result.retryAfterMs);
            return sendError(
              reply,
              apiError('rate_limited', `too many failed sign-ins; retry after ${wait} s`, undefined, wait),
            );
          }
          case 'invalid':
            return sendError(reply, apiError('invalid_key', 'the email or password is wrong'));
          case 'totp_required':
            return sendError(
              reply,
              apiError(
                'invalid_key',
                'two-factor sign-in is on: give the 6-digit code of the authenticator app (or a recovery code)',
                'totp',
              ),
            );
          case 'totp_invalid':
            return sendError(reply, apiError('invalid_key', 'the code is wrong or was used already', 'totp'));
          case 'signed_in':
            reply.header('Set-Cookie', sessionCookie(result.sessionId));
            reply.header('Cache-Control', 'no-store');
            return { ...view(result.session), sandbox: deps.config.sandbox };
        }
      },
    );

    app.get(
      '/v1/session',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: ['Users'],
          summary: 'Who is calling',
          description:
            "For a session: its user, role and account, and the CSRF token to send back in `X-CSRF-Token`. For an account token (`kind` `token`): the token's name, role and account, so a client such as the dashboard knows what the token may do.",
          operationId: 'getSession',
          response: { 200: SessionView, ...errorResponses('forbidden') },
        },
      },
      async (req, reply) => {
        reply.header('Cache-Control', 'no-store');
        const caller = req.caller as Caller;
        const who = caller.kind === 'token' ? tokenCallerView(caller.token) : view(sessionOf(req));
        return { ...who, sandbox: deps.config.sandbox };
      },
    );

    app.delete(
      '/v1/session',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: ['Users'],
          summary: 'Sign out',
          description: 'Ends the session on the server (its cookie is refused from now on) and clears the cookie.',
          operationId: 'signOut',
          response: { 204: NoContent, ...errorResponses('forbidden') },
        },
      },
      async (req, reply) => {
        await endSession(deps, sessionOf(req).idHash);
        reply.header('Set-Cookie', clearedSessionCookie());
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/v1/session/totp',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: ['Users'],
          summary: 'Start two-factor enrolment',
          description:
            'A new TOTP secret (RFC 6238: SHA-1, 6 digits, 30 s) as an `otpauth://` URI and a QR code for the authenticator app. Two-factor sign-in is on only once a code is confirmed.',
          operationId: 'startTotp',
          response: { 200: TotpEnrolment, ...errorResponses('forbidden', 'conflict') },
        },
      },
      async (req, reply) => {
        reply.header('Cache-Control', 'no-store');
        return startTotp(deps, sessionOf(req).userId);
      },
    );

    app.post(
      '/v1/session/totp/confirm',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: ['Users'],
          summary: 'Turn two-factor sign-in on',
          description: 'Confirms enrolment with a current code and returns ten recovery codes, shown only this once.',
          operationId: 'confirmTotp',
          body: TotpCode,
          response: { 200: RecoveryCodes, ...errorResponses('invalid_request', 'forbidden', 'conflict') },
        },
      },
      async (req, reply) => {
        const caller = req.caller as Caller;
        reply.header('Cache-Control', 'no-store');
        return confirmTotp(deps, sessionOf(req).userId, req.body.code, callerActor(caller));
      },
    );

    app.delete(
      '/v1/session/totp',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: ['Users'],
          summary: 'Turn two-factor sign-in off',
          description: 'Needs a current code or a recovery code; the recovery codes go too.',
          operationId: 'disableTotp',
          body: TotpCode,
          response: { 204: NoContent, ...errorResponses('invalid_request', 'forbidden') },
        },
      },
      async (req, reply) => {
        await disableTotp(deps, sessionOf(req).userId, req.body.code, callerActor(req.caller as Caller));
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/v1/users',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: ['Users'],
          summary: 'List users',
          description: "The account's dashboard users, oldest first, a page at a time.",
          operationId: 'listUsers',
          querystring: UsersQuery,
          response: { 200: UserList, ...errorResponses('invalid_request', 'forbidden') },
        },
      },
      async (req) =>
        pageUsers(deps, callerAccountId(req.caller as Caller), {
          limit: req.query.limit ?? 100,
          ...(req.query.cursor !== undefined ? { cursor: req.query.cursor } : {}),
        }),
    );

    app.post(
      '/v1/users',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: ['Users'],
          summary: 'Add a user',
          description:
            'Adds a dashboard user to the account (role `admin` by default). Without `password` one is generated and returned, only this once. The email is unique across the server: 409 `conflict`.',
          operationId: 'createUser',
          body: CreateUserBody,
          response: { 201: CreatedUser, ...errorResponses('invalid_request', 'forbidden', 'conflict') },
        },
      },
      async (req, reply) => {
        const caller = req.caller as Caller;
        const made = await createUser(deps, await accountName(deps, caller), {
          email: req.body.email,
          ...(req.body.role !== undefined ? { role: req.body.role } : {}),
          ...(req.body.password !== undefined ? { password: req.body.password } : {}),
          actor: callerActor(caller),
        });
        reply.header('Cache-Control', 'no-store');
        return reply.code(201).send(made);
      },
    );

    app.delete(
      '/v1/users/:email',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: ['Users'],
          summary: 'Remove a user',
          description: 'Removes the user and ends every session of theirs at once.',
          operationId: 'removeUser',
          params: UserParams,
          response: { 204: NoContent, ...errorResponses('forbidden', 'not_found') },
        },
      },
      async (req, reply) => {
        const caller = req.caller as Caller;
        await removeUser(deps, req.params.email, { actor: callerActor(caller), accountId: callerAccountId(caller) });
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/v1/tokens',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: ['Users'],
          summary: 'List account tokens',
          description: "The account's live tokens, oldest first, a page at a time; never the token itself.",
          operationId: 'listTokens',
          querystring: TokensQuery,
          response: { 200: TokenList, ...errorResponses('invalid_request', 'forbidden') },
        },
      },
      async (req) => {
        const page = await pageAccountTokens(deps, await accountName(deps, req.caller as Caller), {
          limit: req.query.limit ?? 100,
          ...(req.query.cursor !== undefined ? { cursor: req.query.cursor } : {}),
        });
        return { tokens: page.tokens.map(tokenView), next_cursor: page.next_cursor };
      },
    );

    app.post(
      '/v1/tokens',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: ['Users'],
          summary: 'Create an account token',
          description: 'A new account token (role `admin` by default), returned only this once; only its hash is kept.',
          operationId: 'createToken',
          body: CreateTokenBody,
          response: { 201: CreatedToken, ...errorResponses('invalid_request', 'forbidden', 'conflict') },
        },
      },
      async (req, reply) => {
        const caller = req.caller as Caller;
        const made = await createAccountToken(deps, await accountName(deps, caller), {
          ...(req.body.name !== undefined ? { name: req.body.name } : {}),
          ...(req.body.role !== undefined ? { role: req.body.role } : {}),
          actor: callerActor(caller),
        });
        reply.header('Cache-Control', 'no-store');
        return reply.code(201).send({ ...tokenView(made), token: made.token });
      },
    );

    app.delete(
      '/v1/tokens/:name',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: ['Users'],
          summary: 'Revoke an account token',
          description: 'Revokes the live token with this name (or prefix); it is refused from its next request.',
          operationId: 'revokeToken',
          params: TokenParams,
          response: { 204: NoContent, ...errorResponses('forbidden', 'not_found') },
        },
      },
      async (req, reply) => {
        const caller = req.caller as Caller;
        try {
          await revokeAccountToken(deps, await accountName(deps, caller), req.params.name, callerActor(caller));
        } catch (err) {
          // The path parameter is `name`; the shared function (also the CLI's) says `token`.
          if (err instanceof RefusedError && err.reason === 'not_found')
            throw new RefusedError('not_found', err.message, { field: 'name' });
          throw err;
        }
        return reply.code(204).send(null);
      },
    );
  };
}
