import type { Deps } from '../deps.js';
import type { AccountTable } from '../storage/database.js';
import { RefusedError } from '../core/refused-error.js';

/** The default send rate, messages per second: a per-account setting (docs/api.md, Rate limits and quota). */
export const DEFAULT_RATE_LIMIT = 5;

/** Creates an account; names are unique. */
export async function createAccount(deps: Pick<Deps, 'db' | 'clock' | 'ids'>, name: string): Promise<AccountTable> {
  const trimmed = name.trim();
  if (!/^[\p{L}\p{N}][\p{L}\p{N} ._@-]{0,99}$/u.test(trimmed)) {
    throw new RefusedError(
      'invalid',
      `account name "${name}" must be 1 to 100 letters, digits, spaces, dots, dashes, underscores or @`,
      { field: 'name' },
    );
  }
  const existing = await deps.db.selectFrom('accounts').select('id').where('name', '=', trimmed).executeTakeFirst();
  if (existing)
    throw new RefusedError('conflict', `account "${trimmed}" already exists`, {
      field: 'name',
      subject: { kind: 'account', name: trimmed },
    });
  const now = deps.clock.now();
  const row: AccountTable = {
    id: deps.ids.next('acc', now),
    name: trimmed,
    rate_limit: DEFAULT_RATE_LIMIT,
    monthly_quota: null,
    created_at: now,
  };
  await deps.db.insertInto('accounts').values(row).execute();
  return row;
}

/** Finds an account by name or fails with a `not_found` RefusedError naming it. */
export async function findAccount(deps: Pick<Deps, 'db'>, name: string): Promise<AccountTable> {
  const row = await deps.db.selectFrom('accounts').selectAll().where('name', '=', name.trim()).executeTakeFirst();
  if (!row)
    throw new RefusedError('not_found', `no account named "${name}"`, {
      field: 'account',
      subject: { kind: 'account', name },
    });
  return row;
}

/** Changes an account's send rate (messages/s per sending domain) and monthly quota (null: unlimited). */
export async function updateAccountLimits(
  deps: Pick<Deps, 'db'>,
  name: string,
  limits: { rateLimit?: number; monthlyQuota?: number | null },
): Promise<AccountTable> {
  const account = await findAccount(deps, name);
  const set: Partial<AccountTable> = {};
  if (limits.rateLimit !== undefined) set.rate_limit = limits.rateLimit;
  if (limits.monthlyQuota !== undefined) set.monthly_quota = limits.monthlyQuota;
  if (Object.keys(set).length > 0)
    await deps.db.updateTable('accounts').set(set).where('id', '=', account.id).execute();
  return findAccount(deps, name);
}
