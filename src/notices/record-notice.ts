import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../storage/database.js';
import type { Ids } from '../core/ids.js';

/** Operator-facing notices (dashboard; webhooks with issue 04). */
export const NOTICE_KINDS = ['domain.warning', 'domain.unverified', 'domain.recovered', 'domain.complaint_rate', 'webhook.disabled'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** Stores one notice for an account (and domain). */
export async function recordNotice(
  db: Kysely<Database> | Transaction<Database>, ids: Ids, now: number,
  n: { accountId: string; domainId: string | null; kind: NoticeKind; message: string; details: object },
): Promise<void> {
  await db.insertInto('notices').values({
    id: ids.next('ntc', now), account_id: n.accountId, domain_id: n.domainId, kind: n.kind,
    message: n.message, details: JSON.stringify(n.details), created_at: now,
  }).execute();
}
