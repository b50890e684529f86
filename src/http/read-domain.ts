import type { Deps } from '../deps.js';
import { RefusedError } from '../core/refused-error.js';
import { findAccountDomain } from '../domains/find-account-domain.js';
import { callerAccountId, type Caller } from './authorize.js';

/** Domain names listed in the 400 when `domain=` is missing; more are summed up. */
const NAMED = 5;

/**
 * The domain a `read` route reads (docs/api.md, Messages; docs/management.md, Credentials): a
 * sending key's own domain; for an account token, the domain named by `domain=`, which may be left
 * out only when the account has exactly one. A domain of another account, or another domain than a
 * key's own, is 404 `not_found` naming `domain`, as for any `{domain}` route.
 */
export async function readDomain(
  deps: Pick<Deps, 'db' | 'config'>,
  caller: Caller,
  name: string | undefined,
): Promise<{ id: string; name: string }> {
  if (caller.kind === 'key') {
    const own = caller.key.domain;
    if (name !== undefined && name.trim().toLowerCase().replace(/\.$/, '') !== own.name)
      throw new RefusedError('not_found', `no domain "${name}" for this key: a sending key reads only ${own.name}`, {
        field: 'domain',
      });
    return { id: own.id, name: own.name };
  }
  const accountId = callerAccountId(caller);
  if (name !== undefined) {
    const row = await findAccountDomain(deps, accountId, name);
    return { id: row.id, name: row.name };
  }
  // The sandbox domain counts only in sandbox mode, and a deleted domain never, as in findAccountDomain.
  const rows = await deps.db
    .selectFrom('domains')
    .select(['id', 'name'])
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .$if(!deps.config.sandbox, (q) => q.where('sandbox', '=', 0))
    .orderBy('name')
    .limit(NAMED + 1)
    .execute();
  const [only, second] = rows;
  if (only !== undefined && second === undefined) return only;
  if (only === undefined)
    throw new RefusedError('not_found', 'this account has no sending domain yet', { field: 'domain' });
  const names = rows.slice(0, NAMED).map((r) => r.name);
  throw new RefusedError(
    'invalid',
    `domain is required: this account has several domains (${names.join(', ')}${rows.length > NAMED ? ', …' : ''}); name one with domain=`,
    { field: 'domain' },
  );
}
