import { createHash } from 'node:crypto';
import type { Deps } from '../deps.js';
import { createAuthThrottle, type AuthThrottle } from '../credentials/auth-throttle.js';
import { hashPassword, verifyPassword } from '../credentials/password-hash.js';
import type { TokenRole } from '../storage/database.js';
import { checkSecondFactor } from './totp.js';

/** The session cookie. `__Host-` makes browsers insist on Secure, Path=/ and no Domain (RFC 6265bis §4.1.3.2). */
export const SESSION_COOKIE = '__Host-posthorn_session';
/** A session ends after this long without a request (docs/management.md, Users and sign-in). */
export const SESSION_IDLE_MS = 12 * 60 * 60_000;
/** How stale `last_seen_at` may get before a request writes it again: one write a minute at most. */
const TOUCH_GRANULARITY_MS = 60_000;

/** The signed-in user a session resolves to. */
export interface SessionContext {
  idHash: string;
  userId: string;
  email: string;
  role: TokenRole;
  account: { id: string; name: string };
  totpEnabled: boolean;
  csrfToken: string;
}

/** SHA-256 of the cookie value: 256 random bits need no slow hash (as account tokens). */
export function hashSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/**
 * The session cookie's value from a `Cookie` header, or undefined. Hand-written (a few lines)
 * rather than a cookie library: only this one name is read, and its value is base64url.
 */
export function sessionCookieValue(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}

/** The `Set-Cookie` value for a new session (no Max-Age: the server's idle limit ends it). */
export function sessionCookie(id: string): string {
  return `${SESSION_COOKIE}=${id}; Path=/; Secure; HttpOnly; SameSite=Lax`;
}

/** The `Set-Cookie` value that removes the cookie from the browser. */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Lax; Max-Age=0`;
}

/**
 * Resolves a cookie value to its live session, or null (unknown, ended, idle too long, its user
 * removed, or the sandbox's demo user outside sandbox mode: a production server never honours
 * sandbox credentials). A request keeps the session alive: `last_seen_at` and `expires_at` move
 * forward, at most once a minute.
 */
export async function resolveSession(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  cookieValue: string,
): Promise<SessionContext | null> {
  const idHash = hashSessionId(cookieValue);
  const now = deps.clock.now();
  const row = await deps.db
    .selectFrom('user_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('accounts as a', 'a.id', 'u.account_id')
    .select(['s.csrf_token', 's.last_seen_at', 's.expires_at', 'u.id as user_id', 'u.email', 'u.role'])
    .select(['u.totp_secret', 'u.sandbox', 'a.id as account_id', 'a.name as account_name'])
    .where('s.id_hash', '=', idHash)
    .executeTakeFirst();
  if (!row) return null;
  if (Number(row.expires_at) <= now || (row.sandbox === 1 && !deps.config.sandbox)) {
    await deps.db.deleteFrom('user_sessions').where('id_hash', '=', idHash).execute();
    return null;
  }
  if (now - Number(row.last_seen_at) >= TOUCH_GRANULARITY_MS) {
    await deps.db
      .updateTable('user_sessions')
      .set({ last_seen_at: now, expires_at: now + SESSION_IDLE_MS })
      .where('id_hash', '=', idHash)
      .execute();
  }
  return {
    idHash,
    userId: row.user_id,
    email: row.email,
    role: row.role,
    account: { id: row.account_id, name: row.account_name },
    totpEnabled: row.totp_secret !== null,
    csrfToken: row.csrf_token,
  };
}

/** Ends one session (sign-out); its cookie is refused from the next request. */
export async function endSession(deps: Pick<Deps, 'db'>, idHash: string): Promise<void> {
  await deps.db.deleteFrom('user_sessions').where('id_hash', '=', idHash).execute();
}

/** What a sign-in attempt came to. */
export type SignInResult =
  | { kind: 'signed_in'; sessionId: string; session: SessionContext }
  /** Unknown email or wrong password: one answer for both, so it tells a prober nothing. */
  | { kind: 'invalid' }
  /** The password is right and the user has TOTP on: a code is needed (or was wrong). */
  | { kind: 'totp_required' }
  | { kind: 'totp_invalid' }
  | { kind: 'throttled'; retryAfterMs: number };

/** The sign-in brakes: per client address and per email, each blocking after a run of failures. */
export interface SignInThrottles {
  byIp: AuthThrottle;
  byEmail: AuthThrottle;
}

/**
 * Per address, 20 failures in 15 minutes block it for 15 minutes; per email, 5. The email brake
 * stops a distributed guesser on one account; the address brake one guesser across many accounts.
 * No delays before the block (`slowAfter` equals `blockAfter`): the scrypt check already costs
 * ~100 ms. State is per process (as the SMTP AUTH throttle, credentials/auth-throttle.ts).
 */
export function createSignInThrottles(): SignInThrottles {
  const window = 15 * 60_000;
  return {
    byIp: createAuthThrottle({ slowAfter: 20, blockAfter: 20, windowMs: window, blockMs: window, maxDelayMs: 0 }),
    byEmail: createAuthThrottle({ slowAfter: 5, blockAfter: 5, windowMs: window, blockMs: window, maxDelayMs: 0 }),
  };
}

let dummyHash: Promise<string> | undefined;

/**
 * Signs a user in with email, password and, when TOTP is on, a code (or recovery code). An unknown
 * email still costs one scrypt verification against a fixed hash, so the answer takes about as
 * long as a wrong password. A throttled address or email is refused before any check.
 */
export async function signIn(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'ids'>,
  throttles: SignInThrottles,
  attempt: { email: string; password: string; totp?: string; ip: string },
): Promise<SignInResult> {
  const now = deps.clock.now();
  const email = attempt.email.trim().toLowerCase();
  const emailKey = `email:${email}`;
  for (const verdict of [throttles.byIp.check(attempt.ip, now), throttles.byEmail.check(emailKey, now)]) {
    if (!verdict.allowed) return { kind: 'throttled', retryAfterMs: verdict.retryAfterMs };
  }
  const fail = (): void => {
    throttles.byIp.failure(attempt.ip, now);
    throttles.byEmail.failure(emailKey, now);
  };
  const user = await deps.db
    .selectFrom('users')
    .select(['id', 'password_hash', 'totp_secret', 'sandbox'])
    .where('email', '=', email)
    .executeTakeFirst();
  dummyHash ??= hashPassword('posthorn: no such user, compared for timing');
  const ok = await verifyPassword(attempt.password, user?.password_hash ?? (await dummyHash));
  if (!user || !ok || (user.sandbox === 1 && !deps.config.sandbox)) {
    fail();
    return { kind: 'invalid' };
  }
  if (user.totp_secret !== null) {
    if (attempt.totp === undefined || attempt.totp.trim() === '') return { kind: 'totp_required' };
    if (!(await checkSecondFactor(deps, user.id, attempt.totp))) {
      fail();
      return { kind: 'totp_invalid' };
    }
  }
  // Only the email's record is cleared: one good login of their own must not wipe an address's
  // failures against other accounts.
  throttles.byEmail.success(emailKey, now);
  const sessionId = deps.ids.random(32).toString('base64url');
  const csrfToken = deps.ids.random(32).toString('base64url');
  await deps.db.transaction().execute(async (trx) => {
    // Sessions idle past their limit are swept here, where sessions are made.
    await trx.deleteFrom('user_sessions').where('expires_at', '<=', now).execute();
    await trx
      .insertInto('user_sessions')
      .values({
        id_hash: hashSessionId(sessionId),
        user_id: user.id,
        csrf_token: csrfToken,
        created_at: now,
        last_seen_at: now,
        expires_at: now + SESSION_IDLE_MS,
      })
      .execute();
    await trx.updateTable('users').set({ last_sign_in_at: now }).where('id', '=', user.id).execute();
  });
  const session = await resolveSession(deps, sessionId);
  return { kind: 'signed_in', sessionId, session: session! };
}
