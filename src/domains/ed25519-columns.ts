import type { Deps } from '../deps.js';
import type { DomainTable } from '../storage/database.js';
import { generateEd25519Key } from '../delivery/dkim/dkim-keys.js';
import { secretBox } from '../secrets/secret-box.js';
import { secretContext } from '../secrets/secret-fields.js';
import { newSelector } from './dkim-key.js';

type Ed25519Columns = Pick<DomainTable, 'ed25519_selector' | 'ed25519_private_key' | 'ed25519_public_key'>;

/**
 * The columns that turn the optional second DKIM signature (Ed25519, RFC 8463) on or off for a
 * domain, or null when it already is so. Its record is published beside the RSA one; receivers
 * accept a message when any signature verifies (RFC 6376 §6.1), so the RSA record alone still
 * decides verification. Turning it on again makes a new key under a new selector.
 */
export function ed25519Columns(
  deps: Pick<Deps, 'clock' | 'config'>,
  domain: DomainTable,
  enabled: boolean,
): Ed25519Columns | null {
  if (enabled === (domain.ed25519_private_key !== null)) return null;
  if (!enabled) return { ed25519_selector: null, ed25519_private_key: null, ed25519_public_key: null };
  const key = generateEd25519Key();
  return {
    ed25519_selector: `${newSelector(deps.clock.now())}e`,
    ed25519_private_key: secretBox(deps.config).seal(
      key.privateKeyPem,
      secretContext('domains.ed25519_private_key', domain.id),
    ),
    ed25519_public_key: key.publicKeyB64,
  };
}
