import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import type { Actor } from '../core/actor.js';
import { recordAudit } from '../audit/audit-log.js';
import { RefusedError } from '../core/refused-error.js';
import { normalizeDomain } from '../core/domain-name.js';
import { SUPPRESSION_REASONS, type SuppressionReason, type SuppressionTable } from '../storage/database.js';

/**
 * One suppression list entry as the CLI and the API show it (docs/api.md, Suppressions), and as
 * the export writes it: these five fields, in this order.
 */
export interface SuppressionEntry {
  address: string;
  reason: SuppressionReason;
  /** ISO 8601, UTC, milliseconds. */
  created_at: string;
  /** The sending domain whose mail led to it (bounce, complaint, unsubscribe), or as imported; null when manual. */
  domain: string | null;
  /** The message whose bounce, complaint or unsubscribe suppressed the address; null when manual. */
  message_id: string | null;
  /** For a `hard_bounce`: why the address failed (docs/bounces.md); null otherwise. Not in the export. */
  bounce_reason: string | null;
}

// RFC 5322 §3.2.3 atext; the local part is a dot-atom (§3.4.1). Quoted local parts are legal but
// so rare in transactional mail that refusing them beats mis-parsing them.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

// An import checks millions of addresses over a few thousand domains, and the IDNA conversion in
// normalizeDomain is most of the cost of a check: its answers are kept (it is pure), up to a bound.
const DOMAIN_MEMO_SIZE = 10_000;
const domainMemo = new Map<string, string | null>();

/** normalizeDomain, remembered. */
export function memoNormalizeDomain(name: string): string | null {
  let out = domainMemo.get(name);
  if (out === undefined) {
    out = normalizeDomain(name);
    if (domainMemo.size >= DOMAIN_MEMO_SIZE) domainMemo.clear();
    domainMemo.set(name, out);
  }
  return out;
}

/** Lower-cased `address`, or null when it is not an address (`local@domain.example`). */
export function suppressedAddressOrNull(address: string): string | null {
  const trimmed = address.trim();
  const at = trimmed.lastIndexOf('@');
  if (at <= 0) return null;
  const local = trimmed.slice(0, at);
  // RFC 5321 §4.5.3.1.1: a local part has at most 64 octets.
  if (local.length > 64 || !LOCAL_PART.test(local) || memoNormalizeDomain(trimmed.slice(at + 1)) === null) return null;
  return trimmed.toLowerCase();
}

/** Lower-cases `address` after checking its syntax; throws a RefusedError saying what is wrong. */
export function normalizeSuppressedAddress(address: string): string {
  const normalized = suppressedAddressOrNull(address);
  if (normalized === null)
    throw new RefusedError('invalid', `"${address}" is not an email address (expected local@domain.example)`, {
      field: 'address',
    });
  return normalized;
}

/** True when `reason` is one of SUPPRESSION_REASONS. */
export function isSuppressionReason(reason: string): reason is SuppressionReason {
  return (SUPPRESSION_REASONS as readonly string[]).includes(reason);
}

function checkReason(reason: string): SuppressionReason {
  if (!isSuppressionReason(reason)) {
    throw new RefusedError(
      'invalid',
      `unknown suppression reason "${reason}"; use one of ${SUPPRESSION_REASONS.join(', ')}`,
      { field: 'reason' },
    );
  }
  return reason;
}

/** A stored row as an entry. */
export function toEntry(
  row: Pick<SuppressionTable, 'address' | 'reason' | 'created_at' | 'domain' | 'message_id' | 'bounce_reason'>,
): SuppressionEntry {
  return {
    address: row.address,
    reason: row.reason,
    created_at: new Date(Number(row.created_at)).toISOString(),
    domain: row.domain,
    message_id: row.message_id,
    bounce_reason: row.bounce_reason ?? null,
  };
}

const ENTRY_COLUMNS = ['address', 'reason', 'created_at', 'domain', 'message_id', 'bounce_reason'] as const;

/**
 * Adds `address` to the account's suppression list (`posthorn suppression add`, `POST
 * /v1/suppressions`). An address already on it keeps its entry unchanged (the first reason is the
 * one that explains why it is there): that entry comes back with `created: false`, and nothing is
 * audited because nothing changed.
 */
export async function addSuppression(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  accountId: string,
  input: { address: string; reason?: string },
  actor: Actor,
): Promise<{ entry: SuppressionEntry; created: boolean }> {
  const normalized = normalizeSuppressedAddress(input.address);
  const reason = checkReason(input.reason ?? 'manual');
  return deps.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('suppressions')
      .values({
        account_id: accountId,
        address: normalized,
        reason,
        message_id: null,
        domain: null,
        created_at: deps.clock.now(),
      })
      .onConflict((oc) => oc.columns(['account_id', 'address']).doNothing())
      .executeTakeFirst();
    const created = Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    if (created) await recordAudit(trx, deps, { accountId, actor, action: 'suppression.add', target: normalized });
    const row = await trx
      .selectFrom('suppressions')
      .select(ENTRY_COLUMNS)
      .where('account_id', '=', accountId)
      .where('address', '=', normalized)
      .executeTakeFirstOrThrow();
    return { entry: toEntry(row), created };
  });
}

/** Removes `address` from the account's list; a `not_found` RefusedError when it is not there. */
export async function removeSuppression(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  accountId: string,
  address: string,
  actor: Actor,
): Promise<{ address: string; removed: true }> {
  const normalized = normalizeSuppressedAddress(address);
  await deps.db.transaction().execute(async (trx) => {
    const result = await trx
      .deleteFrom('suppressions')
      .where('account_id', '=', accountId)
      .where('address', '=', normalized)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) {
      throw new RefusedError('not_found', `${normalized} is not on the suppression list`, {
        field: 'address',
        subject: { kind: 'suppression', name: normalized },
      });
    }
    await recordAudit(trx, deps, { accountId, actor, action: 'suppression.remove', target: normalized });
  });
  return { address: normalized, removed: true };
}

export interface SuppressionQuery {
  /** Part of the address (any position, case-insensitive). */
  address?: string;
  reason?: SuppressionReason;
  limit: number;
  cursor?: string;
}

/**
 * A page of the account's suppression list in address order, with the cursor of the next page
 * (null at the end). Address order is the primary key's, so a page reads only its own rows however
 * long the list is, and it is the export's order too. `address` matches any part of the address:
 * a domain (`@example.com`), a local part, or the whole address.
 */
export async function listSuppressions(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  query: SuppressionQuery,
): Promise<{ suppressions: SuppressionEntry[]; next_cursor: string | null }> {
  let q = deps.db.selectFrom('suppressions').select(ENTRY_COLUMNS).where('account_id', '=', accountId);
  if (query.address !== undefined && query.address.trim() !== '') {
    // LIKE with its wildcards escaped: the search is for the text as typed. Addresses are stored
    // lower-cased, so the lower-cased text matches on both databases.
    const pattern = `%${query.address
      .trim()
      .toLowerCase()
      .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    // SQLite's LIKE has no escape character unless one is named; PostgreSQL's is the backslash.
    q = q.where(sql<boolean>`address like ${pattern} escape '\\'`);
  }
  if (query.reason !== undefined) q = q.where('reason', '=', query.reason);
  if (query.cursor !== undefined) q = q.where('address', '>', decodeCursor(query.cursor));
  const rows = await q
    .orderBy('address')
    .limit(query.limit + 1)
    .execute();
  const more = rows.length > query.limit;
  const shown = more ? rows.slice(0, query.limit) : rows;
  const last = shown[shown.length - 1];
  return {
    suppressions: shown.map(toEntry),
    next_cursor: more && last ? Buffer.from(last.address).toString('base64url') : null,
  };
}

function decodeCursor(cursor: string): string {
  const address = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^[^@\s]+@[^@\s]+$/.test(address) || address.length > 320)
    throw new RefusedError('invalid', 'cursor is not one this API returned; pass next_cursor as it came', {
      field: 'cursor',
    });
  return address;
}
