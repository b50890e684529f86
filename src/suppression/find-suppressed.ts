import type { Kysely } from 'kysely';
import type { Database } from '../storage/database.js';

/** The addresses of `addresses` that are on the account's suppression list, lower-cased. */
export async function findSuppressed(
  db: Kysely<Database>,
  accountId: string,
  addresses: readonly string[],
): Promise<Map<string, string>> {
  if (addresses.length === 0) return new Map();
  const rows = await db
    .selectFrom('suppressions')
    .select(['address', 'reason'])
    .where('account_id', '=', accountId)
    .where(
      'address',
      'in',
      addresses.map((a) => a.toLowerCase()),
    )
    .execute();
  return new Map(rows.map((r) => [r.address, r.reason]));
}
