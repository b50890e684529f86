import type { Deps } from '../deps.js';
import { findAccount } from '../accounts/accounts.js';
import { recordAudit } from '../audit/audit-log.js';
import type { Actor } from '../core/actor.js';
import { RefusedError } from '../core/refused-error.js';
import { decodeTimeIdCursor, encodeTimeIdCursor } from '../core/time-id-cursor.js';
import { hashPassword } from '../credentials/password-hash.js';
import { TOKEN_ROLES, type TokenRole } from '../storage/database.js';
import { withTransaction } from '../storage/with-transaction.js';
import { checkNewPassword } from './password-policy.js';

/** A dashboard user as listings show it: never the password or TOTP secret. */
export interface UserInfo {
  email: string;
  role: TokenRole;
  account: string;
  totp_enabled: boolean;
  created_at: string;
  last_sign_in_at: string | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(Number(ms)).toISOString());

// Deliberately loose (one @, a dot in the domain, no spaces): the address is a sign-in name,
// never mailed to, so RFC 5321 strictness would only refuse people's real addresses.
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;

/** The email as stored and compared: trimmed, lower-cased. Refused (field `email`) when it does not look like one. */
export function normalizeEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (e.length > 254 || !EMAIL.test(e))
    throw new RefusedError('invalid', `"${email}" is not an email address`, { field: 'email' });
  return e;
}

/** A generated password: 18 random bytes as base64url, 24 characters (144 bits). */
export function generatePassword(deps: Pick<Deps, 'ids'>): string {
  return deps.ids.random(18).toString('base64url');
}

/**
 * Adds a dashboard user to an account (`posthorn user create`, `POST /v1/users`). Without a
 * password one is generated and returned (shown once); a given one must pass the password policy
 * (password-policy.ts). The email is unique across all accounts, as it is the sign-in name.
 */
export async function createUser(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  accountName: string,
  opts: { email: string; role?: string; password?: string; actor: Actor; sandbox?: boolean },
): Promise<UserInfo & { password?: string }> {
  const account = await findAccount(deps, accountName);
  const email = normalizeEmail(opts.email);
  const role = (opts.role ?? 'admin') as TokenRole;
  if (!TOKEN_ROLES.includes(role))
    throw new RefusedError('invalid', `role "${opts.role}" is not one of ${TOKEN_ROLES.join(', ')}`, { field: 'role' });
  const generated = opts.password === undefined ? generatePassword(deps) : undefined;
  const password = opts.password ?? generated!;
  if (generated === undefined) checkNewPassword(password);
  const taken = await deps.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (taken) throw new RefusedError('conflict', `a user with the email ${email} already exists`, { field: 'email' });
  const passwordHash = await hashPassword(password);
  const now = deps.clock.now();
  const id = deps.ids.next('usr', now);
  await withTransaction(deps.db, async (trx) => {
    await trx
      .insertInto('users')
      .values({
        id,
        account_id: account.id,
        email,
        role,
        password_hash: passwordHash,
        totp_secret: null,
        totp_pending: null,
        totp_last_step: null,
        recovery_codes: '[]',
        sandbox: opts.sandbox === true ? 1 : 0,
        created_at: now,
        last_sign_in_at: null,
      })
      .execute();
    await recordAudit(trx, deps, { accountId: account.id, actor: opts.actor, action: 'user.create', target: email });
  });
  const info: UserInfo & { password?: string } = {
    email,
    role,
    account: account.name,
    totp_enabled: false,
    created_at: iso(now)!,
    last_sign_in_at: null,
  };
  if (generated !== undefined) info.password = generated;
  return info;
}

/** The account's users, oldest first. */
export async function listUsers(deps: Pick<Deps, 'db'>, accountId: string): Promise<UserInfo[]> {
  return (await selectUsers(deps, accountId)).map(toUserInfo);
}

/**
 * A page of the account's users, oldest first (`GET /v1/users`), with the cursor of the next page
 * (null at the end).
 */
export async function pageUsers(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  page: { limit: number; cursor?: string },
): Promise<{ users: UserInfo[]; next_cursor: string | null }> {
  const after = page.cursor === undefined ? undefined : decodeTimeIdCursor(page.cursor, 'usr');
  const rows = await selectUsers(deps, accountId, { after, limit: page.limit + 1 });
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  const last = shown[shown.length - 1];
  return {
    users: shown.map(toUserInfo),
    next_cursor: more && last ? encodeTimeIdCursor(Number(last.created_at), last.id) : null,
  };
}

function selectUsers(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  page: { after?: { at: number; id: string } | undefined; limit?: number } = {},
) {
  const { after, limit } = page;
  return deps.db
    .selectFrom('users as u')
    .innerJoin('accounts as a', 'a.id', 'u.account_id')
    .select(['u.id', 'u.email', 'u.role', 'u.totp_secret', 'u.created_at', 'u.last_sign_in_at', 'a.name as account'])
    .where('u.account_id', '=', accountId)
    .$if(after !== undefined, (q) =>
      q.where((eb) =>
        eb.or([
          eb('u.created_at', '>', after!.at),
          eb.and([eb('u.created_at', '=', after!.at), eb('u.id', '>', after!.id)]),
        ]),
      ),
    )
    .orderBy('u.created_at')
    .orderBy('u.id')
    .$if(limit !== undefined, (q) => q.limit(limit!))
    .execute();
}

function toUserInfo(r: {
  email: string;
  role: TokenRole;
  account: string;
  totp_secret: string | null;
  created_at: number;
  last_sign_in_at: number | null;
}): UserInfo {
  return {
    email: r.email,
    role: r.role,
    account: r.account,
    totp_enabled: r.totp_secret !== null,
    created_at: iso(r.created_at)!,
    last_sign_in_at: iso(r.last_sign_in_at),
  };
}

/**
 * Removes a user (`posthorn user remove`, `DELETE /v1/users/{email}`) and ends every session of
 * theirs in the same transaction: their next request is 401. With `accountId` (the API) a user of
 * another account is not found, as an unknown one.
 */
export async function removeUser(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  email: string,
  opts: { actor: Actor; accountId?: string },
): Promise<{ email: string; sessions_ended: number }> {
  const normalized = email.trim().toLowerCase();
  const row = await deps.db
    .selectFrom('users')
    .select(['id', 'account_id', 'email'])
    .where('email', '=', normalized)
    .$if(opts.accountId !== undefined, (q) => q.where('account_id', '=', opts.accountId!))
    .executeTakeFirst();
  if (!row) throw new RefusedError('not_found', `no user with the email ${normalized}`, { field: 'email' });
  const ended = await deps.db.transaction().execute(async (trx) => {
    const sessions = await trx.deleteFrom('user_sessions').where('user_id', '=', row.id).executeTakeFirst();
    await trx.deleteFrom('users').where('id', '=', row.id).execute();
    await recordAudit(trx, deps, {
      accountId: row.account_id,
      actor: opts.actor,
      action: 'user.remove',
      target: row.email,
    });
    return Number(sessions.numDeletedRows);
  });
  return { email: row.email, sessions_ended: ended };
}
