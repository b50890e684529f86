import { sql } from 'kysely';
import type { Deps } from '../deps.js';
import { RefusedError } from '../core/refused-error.js';
import { jsonArrayHas } from '../storage/json-array-has.js';
import { STORED_STATUSES, type RecipientStatusName } from './recipient-status.js';
import { loadHeads, summarize, type MessageHead, type MessageSummary } from './message-view.js';

/** A validated GET /v1/messages query (docs/api.md, Messages); `start` and `end` are inclusive epoch ms. */
export interface MessagesFilter {
  limit: number;
  cursor?: string;
  /** Messages with at least one recipient in this status. */
  status?: RecipientStatusName;
  /** Messages with this recipient, case-insensitively. */
  to?: string;
  /** Messages with this tag, exactly. */
  tag?: string;
  start?: number;
  end?: number;
}

export interface MessagesPage {
  messages: MessageSummary[];
  next_cursor: string | null;
}

interface Position {
  at: number;
  id: string;
}

/**
 * A page of a domain's messages, newest first, ties by id, after the cursor's position. The
 * cursor is a position in that order (time and id), not an offset: messages sent while a client
 * pages are newer than its position and never shift what later pages hold, so paging neither
 * repeats nor skips. Two sources are read in the same order and merged: stored messages
 * (messages_domain_created; `to=` through recipients_address) and sends refused before queueing,
 * which exist only as `rejected-by-system` events (message-view.ts).
 */
export async function listMessages(
  deps: Pick<Deps, 'db' | 'dialect'>,
  domainId: string,
  filter: MessagesFilter,
): Promise<MessagesPage> {
  const { db, dialect } = deps;
  const after = filter.cursor === undefined ? undefined : decodeCursor(filter.cursor);
  const take = filter.limit + 1;
  const storedStatuses = STORED_STATUSES[filter.status ?? 'queued'];

  const fromMessages =
    filter.status !== undefined && storedStatuses.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('messages as m')
          .select(['m.id', 'm.created_at as at'])
          .where('m.domain_id', '=', domainId)
          .$if(filter.start !== undefined, (q) => q.where('m.created_at', '>=', filter.start!))
          .$if(filter.end !== undefined, (q) => q.where('m.created_at', '<=', filter.end!))
          .$if(after !== undefined, (q) =>
            q.where((eb) =>
              eb.or([
                eb('m.created_at', '<', after!.at),
                eb.and([eb('m.created_at', '=', after!.at), eb('m.id', '<', after!.id)]),
              ]),
            ),
          )
          .$if(filter.to !== undefined, (q) =>
            q.where(
              'm.id',
              'in',
              db
                .selectFrom('recipients')
                .select('message_id')
                .where(sql`lower(address)`, '=', sql`lower(${filter.to!})`),
            ),
          )
          .$if(filter.tag !== undefined, (q) => q.where(jsonArrayHas(dialect, 'm.tags', filter.tag!)))
          .$if(filter.status !== undefined, (q) =>
            q.where((eb) =>
              eb.exists(
                eb
                  .selectFrom('recipients as r')
                  .select('r.id')
                  .whereRef('r.message_id', '=', 'm.id')
                  .where('r.status', 'in', [...storedStatuses]),
              ),
            ),
          )
          .orderBy('m.created_at', 'desc')
          .orderBy('m.id', 'desc')
          .limit(take)
          .execute();

  const refusedOnly = filter.status === undefined || filter.status === 'suppressed' || filter.status === 'rejected';
  const fromRefusals = !refusedOnly
    ? Promise.resolve([])
    : db
        .selectFrom('events as e')
        .select(['e.message_id as id', 'e.occurred_at as at'])
        .distinct()
        .where('e.domain_id', '=', domainId)
        .where('e.event', '=', 'rejected-by-system')
        .where((eb) =>
          eb.not(eb.exists(eb.selectFrom('messages as s').select('s.id').whereRef('s.id', '=', 'e.message_id'))),
        )
        .$if(filter.start !== undefined, (q) => q.where('e.occurred_at', '>=', filter.start!))
        .$if(filter.end !== undefined, (q) => q.where('e.occurred_at', '<=', filter.end!))
        // A refused send's events share one moment, so its id and that moment place it exactly.
        .$if(after !== undefined, (q) =>
          q.where((eb) =>
            eb.or([
              eb('e.occurred_at', '<', after!.at),
              eb.and([eb('e.occurred_at', '=', after!.at), eb('e.message_id', '<', after!.id)]),
            ]),
          ),
        )
        .$if(filter.to !== undefined, (q) => q.where(sql`lower(e.recipient)`, '=', sql`lower(${filter.to!})`))
        .$if(filter.tag !== undefined, (q) => q.where(jsonArrayHas(dialect, 'e.tags', filter.tag!)))
        // details is JSON.stringify's output (events/write-events.ts): the pair appears exactly so.
        .$if(filter.status === 'suppressed', (q) => q.where('e.details', 'like', '%"reason":"suppressed"%'))
        .$if(filter.status === 'rejected', (q) => q.where('e.details', 'not like', '%"reason":"suppressed"%'))
        .orderBy('e.occurred_at', 'desc')
        .orderBy('e.message_id', 'desc')
        .limit(take)
        .execute();

  const [stored, refused] = await Promise.all([fromMessages, fromRefusals]);
  const found: Position[] = [...stored, ...refused]
    .map((r) => ({ id: r.id, at: Number(r.at) }))
    .sort((a, b) => (a.at !== b.at ? b.at - a.at : a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const page = found.slice(0, filter.limit);
  const last = page[page.length - 1];
  const heads = new Map(
    (
      await loadHeads(
        db,
        page.map((p) => p.id),
      )
    ).map((h) => [h.id, h]),
  );
  const ordered = page.map((p) => heads.get(p.id)).filter((h): h is MessageHead => h !== undefined);
  return {
    messages: await summarize(db, ordered),
    next_cursor: found.length > filter.limit && last ? encodeCursor(last) : null,
  };
}

function encodeCursor(p: Position): string {
  return Buffer.from(`${p.at}:${p.id}`).toString('base64url');
}

function decodeCursor(cursor: string): Position {
  const m = /^(\d{1,16}):(msg_[0-9A-Z]{26})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m)
    throw new RefusedError('invalid', 'cursor is not one this API returned; pass next_cursor as it came', {
      field: 'cursor',
    });
  return { at: Number(m[1]), id: m[2]! };
}
