import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../storage/database.js';
import type { Ids } from '../core/ids.js';
import { enqueueWebhooks } from '../outbox/enqueue-webhooks.js';
import { noticePayload } from './notice-payload.js';

/** Operator-facing notices (dashboard, and the domain's webhook: docs/webhooks.md). */
export const NOTICE_KINDS = [
  'domain.warning',
  'domain.unverified',
  'domain.recovered',
  'domain.complaint_rate',
  'domain.dkim_pending',
  'webhook.disabled',
  'provider.suspended',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/**
 * Stores one notice for an account (and domain) and, in the same transaction, queues it for the
 * domain's webhook when that is active (so `webhook.disabled` never goes to the endpoint it disables).
 */
export async function recordNotice(
  db: Kysely<Database> | Transaction<Database>,
  ids: Ids,
  now: number,
  n: { accountId: string; domainId: string | null; kind: NoticeKind; message: string; details: object },
): Promise<void> {
  const id = ids.next('ntc', now);
  await db
    .insertInto('notices')
    .values({
      id,
      account_id: n.accountId,
      domain_id: n.domainId,
      kind: n.kind,
      message: n.message,
      details: JSON.stringify(n.details),
      created_at: now,
    })
    .execute();
  const domainId = n.domainId;
  if (domainId === null) return;
  const domain = await db.selectFrom('domains').select('name').where('id', '=', domainId).executeTakeFirst();
  if (!domain) return;
  await enqueueWebhooks(db, [
    {
      domainId,
      id,
      event: n.kind,
      at: now,
      payload: () =>
        noticePayload({
          id,
          event: n.kind,
          occurred_at: new Date(now).toISOString(),
          domain: domain.name,
          message: n.message,
          details: n.details,
        }),
    },
  ]);
}
