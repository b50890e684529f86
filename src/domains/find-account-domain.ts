import type { Deps } from '../deps.js';
import { RefusedError } from '../core/refused-error.js';
import { normalizeDomain } from '../core/domain-name.js';
import type { DomainTable } from '../storage/database.js';

/**
 * The domain named `name` if it belongs to `accountId`: the lookup of every `{domain}` route
 * (docs/management.md). A domain of another account is the same 404 as one that does not exist,
 * so a caller cannot learn which names other accounts hold. The sandbox domain counts only in
 * sandbox mode, as everywhere (sandbox/retire-sandbox.ts); a deleted domain not at all. The name is
 * matched as `domain add` stored it (lower-case A-labels, see core/domain-name.ts).
 */
export async function findAccountDomain(
  deps: Pick<Deps, 'db' | 'config'>,
  accountId: string,
  name: string,
): Promise<DomainTable> {
  const row = await deps.db
    .selectFrom('domains')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('name', '=', normalizeDomain(name) ?? name.trim().toLowerCase())
    .where('deleted_at', 'is', null)
    .$if(!deps.config.sandbox, (q) => q.where('sandbox', '=', 0))
    .executeTakeFirst();
  if (!row)
    throw new RefusedError('not_found', `no domain "${name}" in this account`, {
      field: 'domain',
      subject: { kind: 'domain', name },
    });
  return row;
}
