import type { Deps } from '../deps.js';
import type { Actor } from '../core/actor.js';
import { RefusedError } from '../core/refused-error.js';
import { recordAudit } from '../audit/audit-log.js';
import { resolveDomain, type DomainRef } from '../domains/add-domain.js';
import type { DomainStatus } from '../storage/database.js';
import { replaceApiKey } from './issue-api-key.js';

/** A domain's active key as listings show it: the public prefix, never the key. */
export interface ApiKeyInfo {
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

/** A new key, shown this once. `replaced`: the domain had a key, which stopped working at that moment. */
export interface CreatedApiKey {
  domain: string;
  key: string;
  prefix: string;
  created_at: string;
  replaced: boolean;
}

const iso = (ms: number): string => new Date(Number(ms)).toISOString();

/** A domain that has passed verification and may send: verified, or verified with a record failing since (warning). */
const KEYABLE: readonly DomainStatus[] = ['verified', 'warning'];

/**
 * Issues the domain's API key, revoking the one it had in the same transaction: one key per domain,
 * so the old key gets 401 from that moment, with no overlap (docs/api.md, Authentication). Audited
 * as `api_key.create`, or `api_key.replace` when there was a key.
 * A key is issued for a verified sending domain (`unverified` refusal otherwise). The CLI passes
 * `allowUnverified`: an operator at the server may issue the key before DNS is published, as
 * `posthorn key create` always could; its sends get 403 `domain_unverified` until the domain verifies.
 */
export async function createDomainApiKey(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  ref: DomainRef,
  actor: Actor,
  opts: { allowUnverified?: boolean } = {},
): Promise<CreatedApiKey> {
  const domain = await resolveDomain(deps, ref);
  if (!opts.allowUnverified && !KEYABLE.includes(domain.status))
    throw new RefusedError(
      'unverified',
      `${domain.name} is ${domain.status}: an API key is issued once the domain is verified; publish its DNS records and verify it first`,
    );
  // Two concurrent creates race on the one-active-key index; the loser retries and then revokes the
  // winner's key, which is what "replace" means.
  for (let attempt = 0; ; attempt++) {
    try {
      return await deps.db.transaction().execute(async (trx) => {
        const now = deps.clock.now();
        const previous = await trx
          .selectFrom('api_keys')
          .select('id')
          .where('domain_id', '=', domain.id)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        const issued = await replaceApiKey(trx, deps.ids, now, domain.id);
        await recordAudit(trx, deps, {
          accountId: domain.account_id,
          actor,
          action: previous ? 'api_key.replace' : 'api_key.create',
          target: `${domain.name} (${issued.prefix})`,
        });
        return {
          domain: domain.name,
          key: issued.key,
          prefix: issued.prefix,
          created_at: iso(now),
          replaced: previous !== undefined,
        };
      });
    } catch (err) {
      if (attempt >= 2) throw err;
    }
  }
}

function noKey(name: string): RefusedError {
  return new RefusedError('not_found', `${name} has no API key`);
}

/** The domain's active key: its prefix and dates (`not_found` when it has none). */
export async function showDomainApiKey(deps: Pick<Deps, 'db'>, ref: DomainRef): Promise<ApiKeyInfo> {
  const domain = await resolveDomain(deps, ref);
  const row = await deps.db
    .selectFrom('api_keys')
    .select(['prefix', 'created_at', 'last_used_at'])
    .where('domain_id', '=', domain.id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw noKey(domain.name);
  return {
    prefix: row.prefix,
    created_at: iso(row.created_at),
    last_used_at: row.last_used_at === null ? null : iso(row.last_used_at),
  };
}

/** Revokes the domain's key (its next request is 401) and audits `api_key.revoke`; `not_found` when it has none. */
export async function revokeDomainApiKey(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  ref: DomainRef,
  actor: Actor,
): Promise<{ domain: string; prefix: string }> {
  const domain = await resolveDomain(deps, ref);
  return deps.db.transaction().execute(async (trx) => {
    const revoked = await trx
      .updateTable('api_keys')
      .set({ revoked_at: deps.clock.now() })
      .where('domain_id', '=', domain.id)
      .where('revoked_at', 'is', null)
      .returning('prefix')
      .executeTakeFirst();
    if (!revoked) throw noKey(domain.name);
    await recordAudit(trx, deps, {
      accountId: domain.account_id,
      actor,
      action: 'api_key.revoke',
      target: `${domain.name} (${revoked.prefix})`,
    });
    return { domain: domain.name, prefix: revoked.prefix };
  });
}
