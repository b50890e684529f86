import type { Deps } from '../deps.js';
import { RefusedError } from '../core/refused-error.js';
import { normalizeDomain } from '../core/domain-name.js';
import { findAccount } from '../accounts/accounts.js';
import { SUPPRESSION_REASONS, type SuppressionReason, type SuppressionTable } from '../storage/database.js';

/** One suppression list entry as the CLI and API show it (`posthorn suppression add`, docs/api.md Suppression). */
export interface SuppressionEntry {
  address: string;
  reason: SuppressionReason;
  /** ISO 8601, UTC. */
  created_at: string;
  /** The message whose bounce, complaint or unsubscribe suppressed the address; null when manual. */
  message_id: string | null;
}

// RFC 5322 §3.2.3 atext; the local part is a dot-atom (§3.4.1). Quoted local parts are legal but
// so rare in transactional mail that refusing them beats mis-parsing them.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

/** Lower-cases `address` after checking its syntax; throws a RefusedError saying what is wrong. */
export function normalizeSuppressedAddress(address: string): string {
  const trimmed = address.trim();
  const at = trimmed.lastIndexOf('@');
  const local = trimmed.slice(0, at);
  const domain = trimmed.slice(at + 1);
  // RFC 5321 §4.5.3.1.1: a local part has at most 64 octets.
  if (at <= 0 || local.length > 64 || !LOCAL_PART.test(local) || normalizeDomain(domain) === null) {
    throw new RefusedError('invalid', `"${address}" is not an email address (expected local@domain.example)`, {
      field: 'address',
    });
  }
  return trimmed.toLowerCase();
}

function checkReason(reason: string): SuppressionReason {
  if (!(SUPPRESSION_REASONS as readonly string[]).includes(reason)) {
    throw new RefusedError(
      'invalid',
      `unknown suppression reason "${reason}"; use one of ${SUPPRESSION_REASONS.join(', ')}`,
      { field: 'reason' },
    );
  }
  return reason as SuppressionReason;
}

function toEntry(row: SuppressionTable): SuppressionEntry {
  return {
    address: row.address,
    reason: row.reason,
    created_at: new Date(Number(row.created_at)).toISOString(),
    message_id: row.message_id,
  };
}

/**
 * Adds `address` to the account's suppression list. An address already on it keeps its entry
 * unchanged (the first reason is the one that explains why it is there), and that entry is returned.
 */
export async function addSuppression(
  deps: Pick<Deps, 'db' | 'clock'>,
  accountName: string,
  address: string,
  reason: string = 'manual',
): Promise<SuppressionEntry> {
  const normalized = normalizeSuppressedAddress(address);
  const checked = checkReason(reason);
  const account = await findAccount(deps, accountName);
  await deps.db
    .insertInto('suppressions')
    .values({
      account_id: account.id,
      address: normalized,
      reason: checked,
      message_id: null,
      created_at: deps.clock.now(),
    })
    .onConflict((oc) => oc.columns(['account_id', 'address']).doNothing())
    .execute();
  const row = await deps.db
    .selectFrom('suppressions')
    .selectAll()
    .where('account_id', '=', account.id)
    .where('address', '=', normalized)
    .executeTakeFirstOrThrow();
  return toEntry(row);
}

/** Removes `address` from the account's list; a `not_found` RefusedError when it is not there. */
export async function removeSuppression(
  deps: Pick<Deps, 'db'>,
  accountName: string,
  address: string,
): Promise<{ address: string; removed: true }> {
  const normalized = normalizeSuppressedAddress(address);
  const account = await findAccount(deps, accountName);
  const result = await deps.db
    .deleteFrom('suppressions')
    .where('account_id', '=', account.id)
    .where('address', '=', normalized)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) {
    throw new RefusedError('not_found', `${normalized} is not on the suppression list of account "${account.name}"`, {
      field: 'address',
      subject: { kind: 'suppression', name: normalized },
    });
  }
  return { address: normalized, removed: true };
}

/** The account's suppression list, newest first (ties by address, so the order is stable). */
export async function listSuppressions(deps: Pick<Deps, 'db'>, accountName: string): Promise<SuppressionEntry[]> {
  const account = await findAccount(deps, accountName);
  const rows = await deps.db
    .selectFrom('suppressions')
    .selectAll()
    .where('account_id', '=', account.id)
    .orderBy('created_at', 'desc')
    .orderBy('address')
    .execute();
  return rows.map(toEntry);
}
