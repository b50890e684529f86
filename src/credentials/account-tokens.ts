import { createHash } from 'node:crypto';
import type { Deps } from '../deps.js';
import { findAccount } from '../accounts/accounts.js';
import { recordAudit } from '../audit/audit-log.js';
import type { Actor } from '../core/actor.js';
import { RefusedError } from '../core/refused-error.js';
import { decodeTimeIdCursor, encodeTimeIdCursor } from '../core/time-id-cursor.js';
import { TOKEN_ROLES, type TokenRole } from '../storage/database.js';

// As API keys (api-key-format.ts): 256 random bits after a recognisable prefix and a public part,
// so secret scanners spot a leaked token and listings tell tokens apart.
const TOKEN_SHAPE = /^pha_([0-9a-f]{8})_([A-Za-z0-9_-]{43})$/;

/** True when `token` has the shape of an account token. */
export function looksLikeAccountToken(token: string): boolean {
  return TOKEN_SHAPE.test(token);
}

/** SHA-256 of the whole token: 256 random bits need no slow hash (see hashApiKey). */
export function hashAccountToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** An account token as listings show it: never the token itself. */
export interface TokenInfo {
  id: string;
  name: string;
  role: TokenRole;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(Number(ms)).toISOString());

/** What a token resolves to: the account it manages and the role it has there. */
export interface TokenContext {
  tokenId: string;
  name: string;
  role: TokenRole;
  account: { id: string; name: string; rateLimit: number; monthlyQuota: number | null };
}

/** How stale `last_used_at` may get before a request writes it again: one write a minute at most. */
const LAST_USED_GRANULARITY_MS = 60_000;

/**
 * Resolves a bearer value to its active account token, or null (unknown, revoked, malformed), so
 * a 401 never says which. Not cached: a revoked token fails on its very next request.
 */
export async function authenticateAccountToken(
  deps: Pick<Deps, 'db' | 'clock'>,
  token: string,
): Promise<TokenContext | null> {
  if (!looksLikeAccountToken(token)) return null;
  const row = await deps.db
    .selectFrom('account_tokens as t')
    .innerJoin('accounts as a', 'a.id', 't.account_id')
    .select(['t.id', 't.name', 't.role', 't.last_used_at', 'a.id as account_id', 'a.name as account_name'])
    .select(['a.rate_limit', 'a.monthly_quota'])
    .where('t.token_hash', '=', hashAccountToken(token))
    .where('t.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  const now = deps.clock.now();
  if (row.last_used_at === null || now - Number(row.last_used_at) >= LAST_USED_GRANULARITY_MS) {
    await deps.db.updateTable('account_tokens').set({ last_used_at: now }).where('id', '=', row.id).execute();
  }
  return {
    tokenId: row.id,
    name: row.name,
    role: row.role,
    account: {
      id: row.account_id,
      name: row.account_name,
      rateLimit: row.rate_limit,
      monthlyQuota: row.monthly_quota,
    },
  };
}

const NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._@-]{0,63}$/u;

/**
 * Makes an account token (`posthorn token create`): the token is returned once, only its hash is
 * kept. `name` labels it in listings and the audit log; unique among the account's live tokens.
 */
export async function createAccountToken(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  accountName: string,
  opts: { name?: string; role?: string; actor: Actor },
): Promise<TokenInfo & { token: string }> {
  const account = await findAccount(deps, accountName);
  const role = (opts.role ?? 'admin') as TokenRole;
  if (!TOKEN_ROLES.includes(role))
    throw new RefusedError('invalid', `role "${opts.role}" is not one of ${TOKEN_ROLES.join(', ')}`, { field: 'role' });
  const now = deps.clock.now();
  const publicPart = deps.ids.random(4).toString('hex');
  const token = `pha_${publicPart}_${deps.ids.random(32).toString('base64url')}`;
  const prefix = `pha_${publicPart}`;
  const name = (opts.name ?? prefix).trim();
  if (!NAME.test(name))
    throw new RefusedError(
      'invalid',
      `token name "${opts.name}" must be 1 to 64 letters, digits, spaces, dots, dashes, underscores or @`,
      { field: 'name' },
    );
  const taken = await deps.db
    .selectFrom('account_tokens')
    .select('id')
    .where('account_id', '=', account.id)
    .where('name', '=', name)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (taken)
    throw new RefusedError('conflict', `account "${account.name}" already has a token named "${name}"`, {
      field: 'name',
    });
  const id = deps.ids.next('tok', now);
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('account_tokens')
      .values({
        id,
        account_id: account.id,
        name,
        role,
        prefix,
        token_hash: hashAccountToken(token),
        created_at: now,
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
    await recordAudit(trx, deps, { accountId: account.id, actor: opts.actor, action: 'token.create', target: name });
  });
  return { id, name, role, prefix, created_at: iso(now)!, last_used_at: null, token };
}

/** The account's live tokens, oldest first. */
export async function listAccountTokens(deps: Pick<Deps, 'db'>, accountName: string): Promise<TokenInfo[]> {
  const account = await findAccount(deps, accountName);
  return (await selectTokens(deps, account.id)).map(toTokenInfo);
}

/**
 * A page of the account's live tokens, oldest first (`GET /v1/tokens`), with the cursor of the
 * next page (null at the end).
 */
export async function pageAccountTokens(
  deps: Pick<Deps, 'db'>,
  accountName: string,
  page: { limit: number; cursor?: string },
): Promise<{ tokens: TokenInfo[]; next_cursor: string | null }> {
  const after = page.cursor === undefined ? undefined : decodeTimeIdCursor(page.cursor, 'tok');
  const account = await findAccount(deps, accountName);
  const rows = await selectTokens(deps, account.id, { after, limit: page.limit + 1 });
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  const last = shown[shown.length - 1];
  return {
    tokens: shown.map(toTokenInfo),
    next_cursor: more && last ? encodeTimeIdCursor(Number(last.created_at), last.id) : null,
  };
}

function selectTokens(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  page: { after?: { at: number; id: string } | undefined; limit?: number } = {},
) {
  const { after, limit } = page;
  return deps.db
    .selectFrom('account_tokens')
    .select(['id', 'name', 'role', 'prefix', 'created_at', 'last_used_at'])
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .$if(after !== undefined, (q) =>
      q.where((eb) =>
        eb.or([eb('created_at', '>', after!.at), eb.and([eb('created_at', '=', after!.at), eb('id', '>', after!.id)])]),
      ),
    )
    .orderBy('created_at')
    .orderBy('id')
    .$if(limit !== undefined, (q) => q.limit(limit!))
    .execute();
}

const toTokenInfo = (r: {
  id: string;
  name: string;
  role: TokenRole;
  prefix: string;
  created_at: number;
  last_used_at: number | null;
}): TokenInfo => ({ ...r, created_at: iso(r.created_at)!, last_used_at: iso(r.last_used_at) });

/** Revokes a live token named by its name or prefix (`pha_1a2b3c4d`); it is refused from its next request. */
export async function revokeAccountToken(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  accountName: string,
  nameOrPrefix: string,
  actor: Actor,
): Promise<TokenInfo> {
  const account = await findAccount(deps, accountName);
  const row = await deps.db
    .selectFrom('account_tokens')
    .select(['id', 'name', 'role', 'prefix', 'created_at', 'last_used_at'])
    .where('account_id', '=', account.id)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('name', '=', nameOrPrefix), eb('prefix', '=', nameOrPrefix)]))
    .executeTakeFirst();
  if (!row)
    throw new RefusedError('not_found', `account "${account.name}" has no live token named "${nameOrPrefix}"`, {
      field: 'token',
    });
  await deps.db.transaction().execute(async (trx) => {
    await trx.updateTable('account_tokens').set({ revoked_at: deps.clock.now() }).where('id', '=', row.id).execute();
    await recordAudit(trx, deps, { accountId: account.id, actor, action: 'token.revoke', target: row.name });
  });
  return { ...row, created_at: iso(row.created_at)!, last_used_at: iso(row.last_used_at) };
}
