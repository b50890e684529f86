import type { Kysely } from 'kysely';
import type { Ids } from '../core/ids.js';
import type { Database } from '../storage/database.js';

const SECRET_SETTING = 'tracking_secret';

/**
 * The HMAC key of open, click and unsubscribe tokens, made once and kept in the settings table
 * (as the return-path secret is, delivery/return-path.ts) so every node signs and checks alike.
 */
export async function trackingSecret(db: Kysely<Database>, ids: Ids): Promise<Buffer> {
  await db.insertInto('settings').values({ key: SECRET_SETTING, value: ids.random(32).toString('hex') })
    .onConflict((oc) => oc.column('key').doNothing()).execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', SECRET_SETTING).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'hex');
}
