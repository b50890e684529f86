import type { Kysely, Transaction } from 'kysely';
import type { Deps } from '../deps.js';
import type { EventName } from '../core/event-names.js';
import { newEvent, parseMetadata } from '../events/event-record.js';
import { writeEvents } from '../events/write-events.js';
import type { Database } from '../storage/database.js';

/** A recipient named by a tracking token, with what its events carry (from the message row). */
export interface TrackedRecipient {
  recipientId: string;
  address: string;
  messageId: string;
  accountId: string;
  domainId: string;
  from: string;
  subject: string;
  tags: string[];
  metadata: Record<string, string>;
  trackOpens: boolean;
  trackClicks: boolean;
  unsubscribe: boolean;
}

/** Loads the recipient and its message, or null when there is none. */
export async function loadTrackedRecipient(
  db: Kysely<Database>,
  recipientId: string,
): Promise<TrackedRecipient | null> {
  const row = await db
    .selectFrom('recipients as r')
    .innerJoin('messages as m', 'm.id', 'r.message_id')
    .select([
      'r.id',
      'r.address',
      'm.id as message_id',
      'm.account_id',
      'm.domain_id',
      'm.from_address',
      'm.subject',
      'm.tags',
      'm.metadata',
      'm.track_opens',
      'm.track_clicks',
      'm.unsubscribe',
    ])
    .where('r.id', '=', recipientId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    recipientId: row.id,
    address: row.address,
    messageId: row.message_id,
    accountId: row.account_id,
    domainId: row.domain_id,
    from: row.from_address,
    subject: row.subject,
    tags: JSON.parse(row.tags) as string[],
    metadata: parseMetadata(row.metadata),
    trackOpens: row.track_opens === 1,
    trackClicks: row.track_clicks === 1,
    unsubscribe: row.unsubscribe === 1,
  };
}

/** Takes a dedupe key inside `trx`; false when it was taken before (the feedback already counted). */
export async function takeFeedbackKey(trx: Transaction<Database>, key: string, now: number): Promise<boolean> {
  const taken = await trx
    .insertInto('feedback_keys')
    .values({ key, created_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('key')
    .executeTakeFirst();
  return taken !== undefined;
}

/**
 * Writes one event for `r` through the one event writer, in its own transaction, unless one of
 * `keys` was already taken (then nothing is written and false is returned).
 */
export async function recordFeedback(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  r: TrackedRecipient,
  event: EventName,
  details: Record<string, unknown>,
  keys: string[],
): Promise<boolean> {
  const now = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    for (const key of keys) if (!(await takeFeedbackKey(trx, key, now))) return false;
    await writeEvents(trx, [
      newEvent(
        deps.ids,
        {
          id: r.messageId,
          accountId: r.accountId,
          domainId: r.domainId,
          from: r.from,
          subject: r.subject,
          tags: r.tags,
          metadata: r.metadata,
        },
        { event, recipient: r.address, at: now, details },
      ),
    ]);
    return true;
  });
}
