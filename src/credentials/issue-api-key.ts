import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../deps.js';
import type { Ids } from '../core/ids.js';
import type { Database } from '../storage/database.js';
import { formatApiKey, hashApiKey } from './api-key-format.js';

/** A freshly issued key: the value is returned once and never stored, only its hash. */
export interface IssuedKey {
  key: string;
  prefix: string;
  id: string;
}

/**
 * Revokes the domain's active key and inserts a new one, inside the caller's transaction: one
 * key per domain, so the old key gets 401 at once, with no overlap (docs/api.md, Authentication).
 */
export async function replaceApiKey(
  trx: Transaction<Database> | Kysely<Database>,
  ids: Ids,
  now: number,
  domainId: string,
): Promise<IssuedKey> {
  const { key, prefix } = formatApiKey(ids.random(4), ids.random(32));
  const id = ids.next('key', now);
  await trx
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('domain_id', '=', domainId)
    .where('revoked_at', 'is', null)
    .execute();
  await trx
    .insertInto('api_keys')
    .values({ id, domain_id: domainId, prefix, key_hash: hashApiKey(key), created_at: now, revoked_at: null })
    .execute();
  return { key, prefix, id };
}

/** Issues the domain's API key in a transaction of its own (`posthorn key create`). */
export async function issueApiKey(deps: Pick<Deps, 'db' | 'clock' | 'ids'>, domainId: string): Promise<IssuedKey> {
  // Two concurrent `key create` runs race on the one-active-key index; the loser retries and then
  // revokes the winner's key, which is what "replace" means.
  for (let attempt = 0; ; attempt++) {
    try {
      return await deps.db.transaction().execute((trx) => replaceApiKey(trx, deps.ids, deps.clock.now(), domainId));
    } catch (err) {
      if (attempt >= 2) throw err;
    }
  }
}
