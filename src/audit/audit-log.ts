import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../deps.js';
import { decodeTimeIdCursor, encodeTimeIdCursor } from '../core/time-id-cursor.js';
import { actorLabel, type Actor } from '../core/actor.js';
import type { Database } from '../storage/database.js';

/** One management change as the audit log keeps it. `target` names what changed, never a secret. */
export interface AuditChange {
  accountId: string;
  actor: Actor;
  /** `<noun>.<verb>`, e.g. `domain.add`, `api_key.replace`, `suppression.import`. */
  action: string;
  target: string;
}

/**
 * Appends one entry to the audit log. Every management function (domains, keys, SMTP logins,
 * webhooks, suppressions, templates, tokens, users) calls it for each change it makes, whether the
 * CLI or the API called it, so the log is complete whatever the door (docs/management.md).
 * Takes a transaction so the entry commits with the change it records.
 */
export async function recordAudit(
  db: Kysely<Database> | Transaction<Database>,
  deps: Pick<Deps, 'ids' | 'clock'>,
  change: AuditChange,
): Promise<void> {
  const at = deps.clock.now();
  await db
    .insertInto('audit_log')
    .values({
      id: deps.ids.next('aud', at),
      account_id: change.accountId,
      at,
      actor: actorLabel(change.actor),
      action: change.action,
      target: change.target,
      ip: change.actor.kind === 'cli' || change.actor.kind === 'scheduler' ? null : (change.actor.ip ?? null),
    })
    .execute();
}

export interface AuditEntry {
  at: string;
  actor: string;
  action: string;
  target: string;
  ip: string | null;
}

/** A page of the account's audit log, newest first, with the cursor of the next page (null at the end). */
export async function listAudit(
  deps: Pick<Deps, 'db'>,
  accountId: string,
  page: { limit: number; cursor?: string },
): Promise<{ entries: AuditEntry[]; next_cursor: string | null }> {
  let q = deps.db
    .selectFrom('audit_log')
    .select(['id', 'at', 'actor', 'action', 'target', 'ip'])
    .where('account_id', '=', accountId);
  if (page.cursor !== undefined) {
    const after = decodeTimeIdCursor(page.cursor, 'aud');
    q = q.where((eb) => eb.or([eb('at', '<', after.at), eb.and([eb('at', '=', after.at), eb('id', '<', after.id)])]));
  }
  const rows = await q
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  const last = shown[shown.length - 1];
  return {
    entries: shown.map((r) => ({
      at: new Date(Number(r.at)).toISOString(),
      actor: r.actor,
      action: r.action,
      target: r.target,
      ip: r.ip,
    })),
    next_cursor: more && last ? encodeTimeIdCursor(Number(last.at), last.id) : null,
  };
}
