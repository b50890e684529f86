import type { Config } from '../config/schema.js';
import { secretBox } from '../secrets/secret-box.js';
import { secretContext } from '../secrets/secret-fields.js';
import { parseSecrets, type StoredSecret } from './endpoint-secrets.js';

/** An endpoint's secrets from the stored column, opened when sealed at rest (memoised: not per POST). */
export function readEndpointSecrets(config: Readonly<Config>, endpointId: string, stored: string): StoredSecret[] {
  return parseSecrets(secretBox(config).open(stored, secretContext('webhook_endpoints.secrets', endpointId)));
}

/** The column value for an endpoint's secrets: sealed when POSTHORN_SECRETS_KEY is set. */
export function storeEndpointSecrets(
  config: Readonly<Config>,
  endpointId: string,
  secrets: readonly StoredSecret[],
): string {
  return secretBox(config).seal(JSON.stringify(secrets), secretContext('webhook_endpoints.secrets', endpointId));
}
