import { sql, type SqlBool } from 'kysely';
import type { Deps } from '../deps.js';
import type { DomainStatus } from '../storage/database.js';
import { hashApiKey, looksLikeApiKey } from './api-key-format.js';
import { compileOnce } from '../storage/compile-once.js';
import type { TrackingFlags } from '../tracking/render.js';

/** The domain's tracking defaults as read from its row (0/1 columns). */
export function domainTracking(row: { track_opens: number; track_clicks: number; unsubscribe: number }): TrackingFlags {
  return { opens: row.track_opens === 1, clicks: row.track_clicks === 1, unsubscribe: row.unsubscribe === 1 };
}

/** Who is calling: the key, its sending domain and the domain's account. */
export interface AuthContext {
  keyId: string;
  /** `tracking`: the domain's defaults for open and click tracking and unsubscribe (docs/tracking.md). */
  domain: { id: string; name: string; status: DomainStatus; sandbox: boolean; tracking: TrackingFlags };
  account: { id: string; rateLimit: number; monthlyQuota: number | null };
  /**
   * True when this context came from the process's key cache (`authenticateCached`) and was not
   * read from the database for this request: whoever takes it must check the key again before
   * acting on it.
   */
  cached?: true;
}

/**
 * What every credential (API key, SMTP login) resolves to, read in the same query as the credential
 * itself: its domain (`d`) and the domain's account (`a`). Shared so the three lookups cannot drift.
 */
export const CONTEXT_COLUMNS = [
  'd.id as domain_id',
  'd.name',
  'd.status',
  'd.sandbox',
  'd.track_opens',
  'd.track_clicks',
  'd.unsubscribe',
  'a.id as account_id',
  'a.rate_limit',
  'a.monthly_quota',
] as const;

/** The row those columns give. */
export interface AuthRow {
  domain_id: string;
  name: string;
  status: DomainStatus;
  sandbox: number;
  track_opens: number;
  track_clicks: number;
  unsubscribe: number;
  account_id: string;
  rate_limit: number;
  monthly_quota: number | null;
}

/** The row those columns give, as an AuthContext for the credential `keyId`. */
export function toAuthContext(keyId: string, row: AuthRow): AuthContext {
  return {
    keyId,
    domain: {
      id: row.domain_id,
      name: row.name,
      status: row.status,
      sandbox: row.sandbox === 1,
      tracking: domainTracking(row),
    },
    account: { id: row.account_id, rateLimit: row.rate_limit, monthlyQuota: row.monthly_quota },
  };
}

const BEARER = /^Bearer +(\S+) *$/i;

/**
 * The rule of a usable API key, as SQL over its `api_keys` row `k` and its domain's row `d`: not
 * revoked, its domain not deleted (its keys are revoked when it is deleted; this also covers a key
 * issued in a race with the deletion), and not the sandbox domain's unless `sandboxAllowed` (an SQL
 * boolean) holds: a production server never honours sandbox credentials (sandbox/retire-sandbox.ts).
 * The rule's only statement: `findKey` below and the send path's checks on PostgreSQL
 * (send/pg-send-path.ts) both use it.
 */
export function activeKeySql(k: string, d: string, sandboxAllowed: string): string {
  return `${k}.revoked_at IS NULL AND ${d}.deleted_at IS NULL AND (${sandboxAllowed} OR ${d}.sandbox = 0)`;
}

/** The active key with this hash, its domain and account; compiled once (a query per request). */
const findKey = compileOnce((db, [keyHash]: [string], variant) =>
  db
    .selectFrom('api_keys as k')
    .innerJoin('domains as d', 'd.id', 'k.domain_id')
    .innerJoin('accounts as a', 'a.id', 'd.account_id')
    .select(['k.id as key_id', 'k.last_used_at', ...CONTEXT_COLUMNS])
    .where('k.key_hash', '=', keyHash)
    .where(sql.raw<SqlBool>(activeKeySql('k', 'd', variant === 'sandbox' ? '1 = 1' : '1 = 0'))),
);

/**
 * How stale a credential's `last_used_at` may get before a use writes it again: at most one write a
 * minute per key or login, so sending costs no write per message (as for account tokens).
 */
export const LAST_USED_GRANULARITY_MS = 60_000;

/** True when a use at `now` should record itself over `lastUsedAt`. */
export function lastUsedIsStale(lastUsedAt: number | null, now: number): boolean {
  return lastUsedAt === null || now - Number(lastUsedAt) >= LAST_USED_GRANULARITY_MS;
}

/**
 * Resolves an `Authorization` header to its active key (docs/api.md, Authentication). Every failure
 * — missing or malformed header, unknown key, revoked key — is the same `null`, so the 401 cannot
 * say which and gives a caller nothing to probe with. Not cached: a replaced key must fail at once,
 * even when another process replaced it (`authenticateCached` below answers from memory only a
 * caller that checks the key again before it acts). A revoked key, a deleted domain's key and,
 * outside sandbox mode, a key of the sandbox domain are refused like an unknown one (`activeKeySql`).
 * The key's `last_used_at` is kept to the minute (`lastUsedIsStale`).
 */
export async function authenticate(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  authorization: string | undefined,
): Promise<AuthContext | null> {
  const m = authorization === undefined ? null : BEARER.exec(authorization);
  const key = m?.[1];
  if (key === undefined || !looksLikeApiKey(key)) return null;
  const [row] = (await findKey(deps.db, [hashApiKey(key)], deps.config.sandbox ? 'sandbox' : '')).rows;
  if (!row) return null;
  const now = deps.clock.now();
  if (lastUsedIsStale(row.last_used_at, now))
    await deps.db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', row.key_id).execute();
  return toAuthContext(row.key_id, row);
}

/** Keys resolved by `authenticateCached`, per database handle, by key hash. */
const keyCaches = new WeakMap<object, Map<string, AuthContext>>();
/** Bounds the cache; when full it starts again empty (each entry is one lookup away). */
const KEY_CACHE_MAX = 10_000;

function keyCache(db: object): Map<string, AuthContext> {
  let cache = keyCaches.get(db);
  if (cache === undefined) keyCaches.set(db, (cache = new Map()));
  return cache;
}

function bearerHash(authorization: string | undefined): string | null {
  const key = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1];
  return key === undefined || !looksLikeApiKey(key) ? null : hashApiKey(key);
}

/**
 * `authenticate` for a caller that checks the key again itself before it acts (the send pipeline
 * on PostgreSQL checks it in the statement that takes the rate limit: send/pg-send-path.ts), so an
 * `Authorization` header this process resolved before is answered from memory, marked `cached`.
 * The cache holds only keys that were valid when last read; `rememberKey` refreshes or drops an
 * entry with what the caller's own check found.
 */
export async function authenticateCached(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  authorization: string | undefined,
): Promise<AuthContext | null> {
  const hash = bearerHash(authorization);
  if (hash === null) return null;
  const cache = keyCache(deps.db);
  const hit = cache.get(hash);
  if (hit !== undefined) return { ...hit, cached: true };
  const auth = await authenticate(deps, authorization);
  if (auth !== null) rememberKey(deps, authorization, auth);
  return auth;
}

/** Records what a check of the key found: its context now, or null when it is no longer valid. */
export function rememberKey(deps: Pick<Deps, 'db'>, authorization: string | undefined, auth: AuthContext | null): void {
  const hash = bearerHash(authorization);
  if (hash === null) return;
  const cache = keyCache(deps.db);
  if (auth === null) {
    cache.delete(hash);
    return;
  }
  if (cache.size >= KEY_CACHE_MAX && !cache.has(hash)) cache.clear();
  const { cached: _cached, ...fresh } = auth;
  cache.set(hash, fresh);
}
