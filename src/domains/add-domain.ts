import type { Deps } from '../deps.js';
import { RefusedError } from '../core/refused-error.js';
import { normalizeDomain } from '../core/domain-name.js';
import { findAccount } from '../accounts/accounts.js';
import type { DomainTable } from '../storage/database.js';
import { secretBox } from '../secrets/secret-box.js';
import { secretContext } from '../secrets/secret-fields.js';
import { generateDkimKey, newSelector } from './dkim-key.js';

/**
 * Adds a sending domain to an account with a fresh 2048-bit DKIM key (RFC 8301 §3.2: signers
 * should use RSA keys of at least 2048 bits). It starts `pending`; only the sandbox domain starts
 * verified, since sandbox mail never leaves the machine.
 */
export async function addDomain(
  deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'config'>,
  accountName: string,
  domainName: string,
  opts: { sandbox?: boolean } = {},
): Promise<DomainTable> {
  const name = normalizeDomain(domainName);
  if (name === null)
    throw new RefusedError('invalid', `"${domainName}" is not a valid domain name (e.g. example.com)`, {
      field: 'name',
    });
  const account = await findAccount(deps, accountName);
  const taken = await deps.db.selectFrom('domains').select('account_id').where('name', '=', name).executeTakeFirst();
  if (taken)
    throw new RefusedError(
      'conflict',
      `domain ${name} is already added${taken.account_id === account.id ? ' to this account' : ' to another account'}`,
      { field: 'name', subject: { kind: 'domain', name } },
    );
  const now = deps.clock.now();
  const key = await generateDkimKey();
  const id = deps.ids.next('dom', now);
  // The row as stored: the private key sealed when POSTHORN_SECRETS_KEY is set.
  const row: DomainTable = {
    id,
    account_id: account.id,
    name,
    status: opts.sandbox ? 'verified' : 'pending',
    sandbox: opts.sandbox ? 1 : 0,
    dkim_selector: newSelector(now),
    dkim_private_key: secretBox(deps.config).seal(key.privateKeyPem, secretContext('domains.dkim_private_key', id)),
    dkim_public_key: key.publicKeyB64,
    verified_at: opts.sandbox ? now : null,
    checked_at: null,
    failing_since: null,
    last_checks: null,
    created_at: now,
    ed25519_selector: null,
    ed25519_private_key: null,
    ed25519_public_key: null,
    track_opens: 0,
    track_clicks: 0,
    unsubscribe: 0,
    complaint_warned_at: null,
  };
  await deps.db.insertInto('domains').values(row).execute();
  return row;
}

/** Finds a domain by name or fails naming it (`not_found`). */
export async function findDomain(deps: Pick<Deps, 'db'>, domainName: string): Promise<DomainTable> {
  const name = normalizeDomain(domainName) ?? domainName;
  const row = await deps.db.selectFrom('domains').selectAll().where('name', '=', name).executeTakeFirst();
  if (!row)
    throw new RefusedError('not_found', `no domain named "${domainName}"`, {
      field: 'domain',
      subject: { kind: 'domain', name: domainName },
    });
  return row;
}
