import type { Kysely } from 'kysely';
import type { Deps } from '../../src/deps.js';
import { generateDkimKey } from '../../src/domains/dkim-key.js';
import { createAccount, findAccount } from '../../src/accounts/accounts.js';
import { issueApiKey } from '../../src/credentials/issue-api-key.js';
import type { Database, DomainStatus } from '../../src/storage/database.js';

/** A domain with an API key, inserted directly (no RSA key generation: these tests never sign). */
export interface Seeded {
  accountId: string;
  domainId: string;
  domain: string;
  key: string;
}

/** Creates (or reuses) `account` and adds `domain` with `status` and an active key. */
export async function seedDomain(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  opts: { account?: string; domain: string; status?: DomainStatus; rateLimit?: number; quota?: number | null },
): Promise<Seeded> {
  const accountName = opts.account ?? 'acme';
  const account = await findAccount(deps, accountName).catch(() => createAccount(deps, accountName));
  if (opts.rateLimit !== undefined || opts.quota !== undefined) {
    await deps.db
      .updateTable('accounts')
      .set({
        ...(opts.rateLimit !== undefined ? { rate_limit: opts.rateLimit } : {}),
        ...(opts.quota !== undefined ? { monthly_quota: opts.quota } : {}),
      })
      .where('id', '=', account.id)
      .execute();
  }
  const now = deps.clock.now();
  const domainId = deps.ids.next('dom', now);
  await deps.db
    .insertInto('domains')
    .values({
      id: domainId,
      account_id: account.id,
      name: opts.domain,
      status: opts.status ?? 'verified',
      sandbox: 0,
      dkim_selector: 'ph202611',
      dkim_private_key: 'unused',
      dkim_public_key: 'unused',
      verified_at: opts.status === 'pending' ? null : now,
      checked_at: null,
      failing_since: null,
      last_checks: null,
      created_at: now,
      track_opens: 0,
      track_clicks: 0,
      unsubscribe: 0,
      complaint_warned_at: null,
    })
    .execute();
  const { key } = await issueApiKey(deps, domainId);
  return { accountId: account.id, domainId, domain: opts.domain, key };
}

/**
 * Replaces seedDomain's placeholder DKIM key with a real one, for a server that signs what it
 * delivers: `domainId`'s, or every domain's when none is named.
 */
export async function giveRealDkimKey(db: Kysely<Database>, domainId?: string): Promise<void> {
  const dkim = await generateDkimKey();
  let q = db.updateTable('domains').set({ dkim_private_key: dkim.privateKeyPem, dkim_public_key: dkim.publicKeyB64 });
  if (domainId !== undefined) q = q.where('id', '=', domainId);
  await q.execute();
}
