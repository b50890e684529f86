import type { Deps } from '../deps.js';
import type { Actor } from '../core/actor.js';
import type { DomainTable } from '../storage/database.js';
import type { DomainRef } from './add-domain.js';
import { updateDomain } from './update-domain.js';

/** Turns Ed25519 signing on or off for a domain (`domain set --ed25519`): updateDomain with that one change. */
export function setEd25519(
  deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'config'>,
  domain: DomainRef,
  enabled: boolean,
  actor?: Actor,
): Promise<DomainTable> {
  return updateDomain(deps, domain, { ed25519: enabled }, actor);
}
