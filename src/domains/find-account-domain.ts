import type { Deps } from '../deps.js';
import { RefusedError } from '../core/refused-error.js';
import type { DomainTable } from '../storage/database.js';

/**
 * The domain named `name` if it belongs to `accountId`: the lookup of every `{domain}` route
 * (docs/management.md). A domain of another account is the same 404 as one that does not exist,
 * so a caller cannot learn which names other accounts hold. The sandbox domain counts only in
 * sandbox mode, as everywhere (sandbox/retire-sandbox.ts).
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
    .where('name', '=', name.trim().toLowerCase().replace(/\.$/, ''))
    .$if(!deps.config.sandbox, (q) => q.where('sandbox', '=', 0))
    .executeTakeFirst();
  if (!row)
    throw new RefusedError('not_found', `no domain "${name}" in this account`, {
      field: 'domain',
      subject: { kind: 'domain', name },
    });
  return row;
}
