import type { Deps } from '../deps.js';
import { formatApiKey, hashApiKey } from './api-key-format.js';

/**
 * Issues the domain's API key and revokes the active one in the same transaction: spec 5.6, the
 * old key gets 401 at once, with no overlap. The value is returned once and never stored.
 */
export async function issueApiKey(deps: Pick<Deps, 'db' | 'clock' | 'ids'>, domainId: string): Promise<{ key: string; prefix: string; id: string }> {
  const now = deps.clock.now();
  const { key, prefix } = formatApiKey(deps.ids.random(4), deps.ids.random(32));
  const id = deps.ids.next('key', now);
  // Two concurrent `key create` runs race on the one-active-key index; the loser retries once
  // and then revokes the winner's key, which is what "replace" means.
  for (let attempt = 0; ; attempt++) {
    try {
      await deps.db.transaction().execute(async (trx) => {
        await trx.updateTable('api_keys').set({ revoked_at: now }).where('domain_id', '=', domainId).where('revoked_at', 'is', null).execute();
        await trx.insertInto('api_keys').values({ id, domain_id: domainId, prefix, key_hash: hashApiKey(key), created_at: now, revoked_at: null }).execute();
      });
      return { key, prefix, id };
    } catch (err) {
      if (attempt >= 2) throw err;
    }
  }
}
