import type { Deps } from '../deps.js';
import { apiError, type ApiError } from '../core/api-errors.js';
import type { Mailbox } from '../core/mailbox.js';
import type { AuthContext } from '../credentials/authenticate.js';
import type { DomainStatus } from '../storage/database.js';

/** A domain may send while verified, and during the grace period of a failing re-check (status `warning`), so one bad DNS answer does not stop mail. */
export function canSend(status: DomainStatus): boolean {
  return status === 'verified' || status === 'warning';
}

/**
 * The sender-domain step, in the order docs/api.md (The from rules) gives: the key's own domain
 * must be verified; the domain in `from` must be a verified domain of the same account (subdomains
 * are separate domains, so an exact match); a `from` on another such domain is rewritten to the
 * key's domain, local part and display name kept. Returns the From to send with, or a 403.
 */
export async function checkSenderDomain(
  deps: Pick<Deps, 'db'>,
  auth: AuthContext,
  from: Mailbox,
): Promise<Mailbox | ApiError> {
  const keyDomain = auth.domain.name;
  if (!canSend(auth.domain.status)) {
    return apiError(
      'domain_unverified',
      `The sending domain ${keyDomain} has not passed verification; the message was not sent.`,
      'from',
    );
  }
  if (from.domain === keyDomain) return from;
  const other = await deps.db
    .selectFrom('domains')
    .select(['status'])
    .where('name', '=', from.domain)
    .where('account_id', '=', auth.account.id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!other || !canSend(other.status)) {
    return apiError(
      'domain_unverified',
      `The domain ${from.domain} in from is not a verified sending domain of this account.`,
      'from',
    );
  }
  return { name: from.name, local: from.local, domain: keyDomain, address: `${from.local}@${keyDomain}` };
}
