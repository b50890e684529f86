import type { Deps } from '../deps.js';
import { secretBox } from './secret-box.js';
import { secretContext } from './secret-fields.js';

/** The settings that hold HMAC keys; secrets/secret-fields.ts seals and rotates exactly these. */
export type StoredSecretName = 'return_path_secret' | 'tracking_secret';

/**
 * A 32-byte HMAC key kept in the settings table under `name`, made by whichever node asks first
 * (insert-if-absent, then read back, so concurrent first starts agree): every node then signs
 * and checks tokens with the same key. Used for return-path and tracking tokens. Sealed with
 * POSTHORN_SECRETS_KEY when one is set (docs/config.md); callers load it once and keep it.
 */
export async function storedSecret(deps: Pick<Deps, 'db' | 'ids' | 'config'>, name: StoredSecretName): Promise<Buffer> {
  const box = secretBox(deps.config);
  const context = secretContext('settings.value', name);
  await deps.db
    .insertInto('settings')
    .values({ key: name, value: box.seal(deps.ids.random(32).toString('hex'), context) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await deps.db.selectFrom('settings').select('value').where('key', '=', name).executeTakeFirstOrThrow();
  return Buffer.from(box.open(row.value, context), 'hex');
}
