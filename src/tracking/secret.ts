import type { Deps } from '../deps.js';
import { storedSecret } from '../secrets/stored-secret.js';

/**
 * The HMAC key of open, click and unsubscribe tokens, apart from the return-path key so one
 * kind of token can never be passed off as the other.
 */
export function trackingSecret(deps: Pick<Deps, 'db' | 'ids' | 'config'>): Promise<Buffer> {
  return storedSecret(deps, 'tracking_secret');
}
