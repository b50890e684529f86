import type { Kysely } from 'kysely';
import type { Ids } from '../core/ids.js';
import type { Database } from './database.js';

/**
 * A 32-byte HMAC key kept in the settings table under `name`, made by whichever node asks first
 * (insert-if-absent, then read back, so concurrent first starts agree): every node then signs
 * and checks tokens with the same key. Used for return-path and tracking tokens.
 */
export async function storedSecret(db: Kysely<Database>, ids: Ids, name: string): Promise<Buffer> {
  await db.insertInto('settings').values({ key: name, value: ids.random(32).toString('hex') })
    .onConflict((oc) => oc.column('key').doNothing()).execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', name).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'hex');
}
