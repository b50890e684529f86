import type { Deps } from '../deps.js';
import { RefusedError } from '../core/refused-error.js';
import { normalizeDomain } from '../core/domain-name.js';
import type { Actor } from '../core/actor.js';
import { findAccount } from '../accounts/accounts.js';
import { recordAudit } from '../audit/audit-log.js';
import type { AccountTable, DomainTable } from '../storage/database.js';
import { isUniqueViolation } from '../storage/unique-violation.js';
import { withTransaction } from '../storage/with-transaction.js';
import { secretBox } from '../secrets/secret-box.js';
import { secretContext } from '../secrets/secret-fields.js';
import { generateDkimKey, newSelector } from './dkim-key.js';

/** An account by name (the CLI's `--account NAME`) or by id (an API caller's own account). */
export type AccountRef = string | { id: string };

/** A domain by name, looked up across accounts (the CLI), or a row already found in the caller's account (the API). */
export type DomainRef = string | DomainTable;

async function accountOf(deps: Pick<Deps, 'db'>, ref: AccountRef): Promise<AccountTable> {
  if (typeof ref === 'string') return findAccount(deps, ref);
  const row = await deps.db.selectFrom('accounts').selectAll().where('id', '=', ref.id).executeTakeFirst();
  if (!row) throw new RefusedError('not_found', `no account with id ${ref.id}`, { field: 'account' });
  return row;
}

function taken(name: string, byThisAccount?: boolean): RefusedError {
  const where = byThisAccount === undefined ? '' : byThisAccount ? ' to this account' : ' to another account';
  return new RefusedError('conflict', `domain ${name} is already added${where}`, {
    field: 'name',
    subject: { kind: 'domain', name },
  });
}

/**
 * Adds a sending domain to an account with a fresh 2048-bit DKIM key (RFC 8301 §3.2: signers
 * should use RSA keys of at least 2048 bits). It starts `pending`; only the sandbox domain starts
 * verified, since sandbox mail never leaves the machine. A name is unique among the live domains
 * of every account (`conflict` otherwise); a deleted domain's name may be added again.
 * `actor` is who asked, for the audit log (`domain.add`): the CLI and the API always give it; only
 * provisioning that is no management change (the sandbox bootstrap, tests) leaves it out.
 */
export async function addDomain(
  deps: Pick<Deps, 'db' | 'clock' | 'ids' | 'config'>,
  accountRef: AccountRef,
  domainName: string,
  opts: { sandbox?: boolean; actor?: Actor } = {},
): Promise<DomainTable> {
  const name = normalizeDomain(domainName);
  if (name === null)
    throw new RefusedError('invalid', `"${domainName}" is not a valid domain name (e.g. example.com)`, {
      field: 'name',
    });
  const account = await accountOf(deps, accountRef);
  const holder = await deps.db
    .selectFrom('domains')
    .select('account_id')
    .where('name', '=', name)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (holder) throw taken(name, holder.account_id === account.id);
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
    deleted_at: null,
    dkim_key_created_at: now,
    dkim_rotate_days: null,
    dkim_pending_selector: null,
    dkim_pending_private_key: null,
    dkim_pending_public_key: null,
    dkim_pending_since: null,
    dkim_pending_check: null,
    dkim_pending_warned_at: null,
    dkim_retired_selector: null,
    dkim_retired_public_key: null,
    dkim_retired_until: null,
  };
  try {
    await withTransaction(deps.db, async (trx) => {
      await trx.insertInto('domains').values(row).execute();
      if (opts.actor)
        await recordAudit(trx, deps, { accountId: account.id, actor: opts.actor, action: 'domain.add', target: name });
    });
  } catch (err) {
    // Two adds of one name at once: the live-name index lets one in, the other gets the same conflict.
    if (isUniqueViolation(err)) throw taken(name);
    throw err;
  }
  return row;
}

/** Finds a live domain by name, in any account (the CLI), or fails naming it (`not_found`). */
export async function findDomain(deps: Pick<Deps, 'db'>, domainName: string): Promise<DomainTable> {
  const name = normalizeDomain(domainName) ?? domainName;
  const row = await deps.db
    .selectFrom('domains')
    .selectAll()
    .where('name', '=', name)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row)
    throw new RefusedError('not_found', `no domain named "${domainName}"`, {
      field: 'domain',
      subject: { kind: 'domain', name: domainName },
    });
  return row;
}

/** The domain a DomainRef names: looked up by name, or the row as given. */
export function resolveDomain(deps: Pick<Deps, 'db'>, ref: DomainRef): Promise<DomainTable> {
  return typeof ref === 'string' ? findDomain(deps, ref) : Promise.resolve(ref);
}
