import type { Kysely } from 'kysely';
import type { Database } from '../storage/database.js';
import { compileOnce } from '../storage/compile-once.js';

/** Compiled once per number of addresses: every send asks (compile-once.ts). */
const query = compileOnce((db, [accountId, addresses]: [string, string[]]) =>
  db
    .selectFrom('suppressions')
    .select(['address', 'reason'])
    .where('account_id', '=', accountId)
    .where('address', 'in', addresses),
);

/** The addresses of `addresses` that are on the account's suppression list, lower-cased. */
export async function findSuppressed(
  db: Kysely<Database>,
  accountId: string,
  addresses: readonly string[],
): Promise<Map<string, string>> {
  if (addresses.length === 0) return new Map();
  const { rows } = await query(db, [accountId, addresses.map((a) => a.toLowerCase())]);
  return new Map(rows.map((r) => [r.address, r.reason]));
}
