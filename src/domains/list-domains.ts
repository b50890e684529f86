import type { Deps } from '../deps.js';
import type { DomainTable } from '../storage/database.js';

/**
 * The live domains of an account, by name (GET /v1/domains). As in every lookup, the sandbox
 * domain counts only in sandbox mode (find-account-domain.ts) and deleted domains not at all.
 */
export function listAccountDomains(deps: Pick<Deps, 'db' | 'config'>, accountId: string): Promise<DomainTable[]> {
  return deps.db
    .selectFrom('domains')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('deleted_at', 'is', null)
    .$if(!deps.config.sandbox, (q) => q.where('sandbox', '=', 0))
    .orderBy('name')
    .execute();
}
