import type { Kysely } from 'kysely';
import type { Ids } from '../core/ids.js';
import type { Database } from '../storage/database.js';
import { storedSecret } from '../storage/stored-secret.js';

/**
 * The HMAC key of open, click and unsubscribe tokens, apart from the return-path key so one
 * kind of token can never be passed off as the other.
 */
export function trackingSecret(db: Kysely<Database>, ids: Ids): Promise<Buffer> {
  return storedSecret(db, ids, 'tracking_secret');
}
