import type { Kysely, Selectable } from 'kysely';
import type { Deps } from '../deps.js';
import { messageTemplate } from '../templates/message-template.js';
import { RefusedError } from '../core/refused-error.js';
import { normalizeMessageId } from '../core/message-id.js';
import { toEventRecord, type EventRecord } from '../events/event-record.js';
import type { Database, EventTable } from '../storage/database.js';
import { refusedStatus, shownStatus, type RecipientStatusName } from './recipient-status.js';

/** One recipient of a message and what became of it (docs/api.md, Messages). */
export interface RecipientView {
  address: string;
  status: RecipientStatusName;
  /** The recipient's newest event (same shape as in GET /v1/events), null before it has one. */
  last_event: EventRecord | null;
  updated_at: string;
  /**
   * The last temporary failure while a delivery attempt is still to come: the remote server's
   * reply (`451 4.3.0 …`) or why no server was reached. Deferrals are not events (only outcomes
   * are), so this is where a 451 shows.
   */
  last_reply: string | null;
  /** When the next attempt is due, while one is. */
  next_attempt_at: string | null;
}

/** A message as GET /v1/messages lists it. */
export interface MessageSummary {
  id: string;
  /** The sending domain. */
  domain: string;
  from: string;
  subject: string;
  tags: string[];
  metadata: Record<string, string>;
  created_at: string;
  /** The template the message was rendered from; null for a message sent with its own html/text. */
  template: { name: string; version: number } | null;
  recipients: RecipientView[];
}

/** A message as GET /v1/messages/{id} (and `posthorn message show`) shows it: the summary and its events. */
export interface MessageView extends MessageSummary {
  /** The message's events, oldest first, at most MESSAGE_EVENTS_LIMIT. */
  events: EventRecord[];
  /** True when the message has more events than shown: GET /v1/events?message_id= pages through all. */
  events_truncated: boolean;
}

/** Whose messages a caller may see: one domain (a sending key, or `domain=`), an account (an account token), or any (the CLI). */
export type MessageScope = { domainId: string } | { accountId: string } | { any: true };

/** Events shown with one message; a message opened and clicked thousands of times pages through GET /v1/events instead. */
export const MESSAGE_EVENTS_LIMIT = 1000;

/**
 * What a message's views are built from: a stored message, or a send refused before queueing,
 * which left only `rejected-by-system` events under its id (send/submit.ts, recordRejection).
 */
export interface MessageHead {
  id: string;
  accountId: string;
  domainId: string;
  domain: string;
  from: string;
  subject: string;
  tags: string[];
  metadata: Record<string, string>;
  createdAt: number;
  stored: boolean;
  /** The template and version it was rendered from (templates/message-template.ts), or null. */
  template: { name: string; version: number } | null;
}

type Db = Kysely<Database>;

/** The message `idText` (with or without `msg_`) as the caller in `scope` may see it; 404 `not_found` otherwise. */
export async function showMessage(deps: Pick<Deps, 'db'>, scope: MessageScope, idText: string): Promise<MessageView> {
  const head = await findMessage(deps, scope, idText);
  const [summary] = await summarize(deps.db, [head]);
  const rows = await deps.db
    .selectFrom('events')
    .selectAll()
    .where('message_id', '=', head.id)
    .orderBy('occurred_at', 'asc')
    .orderBy('id', 'asc')
    .limit(MESSAGE_EVENTS_LIMIT + 1)
    .execute();
  return {
    ...(summary as MessageSummary),
    events: rows.slice(0, MESSAGE_EVENTS_LIMIT).map(toEventRecord),
    events_truncated: rows.length > MESSAGE_EVENTS_LIMIT,
  };
}

/**
 * The head of message `idText` if `scope` may see it. Another domain's or account's message is
 * the same 404 as one that does not exist, so ids cannot be probed across tenants.
 */
export async function findMessage(deps: Pick<Deps, 'db'>, scope: MessageScope, idText: string): Promise<MessageHead> {
  const id = normalizeMessageId(idText);
  if (id === null)
    throw new RefusedError(
      'invalid',
      `id must be a message id from a send response (msg_ and 26 characters of Crockford base32, the prefix optional), got ${JSON.stringify(idText.slice(0, 64))}`,
      { field: 'id' },
    );
  const [head] = await loadHeads(deps.db, [id]);
  const visible =
    head !== undefined &&
    ('any' in scope || ('domainId' in scope ? head.domainId === scope.domainId : head.accountId === scope.accountId));
  if (!visible) throw new RefusedError('not_found', `no message ${id}`, { field: 'id' });
  return head;
}

/** The heads of `ids` (stored messages first, then refused sends), in no particular order; unknown ids are left out. */
export async function loadHeads(db: Db, ids: string[]): Promise<MessageHead[]> {
  if (ids.length === 0) return [];
  const stored = await db
    .selectFrom('messages as m')
    .innerJoin('domains as d', 'd.id', 'm.domain_id')
    .select([
      'm.id',
      'm.account_id',
      'm.domain_id',
      'd.name as domain',
      'm.from_address',
      'm.subject',
      'm.tags',
      'm.metadata',
      'm.created_at',
      'm.template',
    ])
    .where('m.id', 'in', ids)
    .execute();
  const heads: MessageHead[] = stored.map((m) => ({
    id: m.id,
    accountId: m.account_id,
    domainId: m.domain_id,
    domain: m.domain,
    from: m.from_address,
    subject: m.subject,
    tags: stringArray(m.tags),
    metadata: stringRecord(m.metadata),
    createdAt: Number(m.created_at),
    stored: true,
    template: messageTemplate(m),
  }));
  const missing = ids.filter((id) => !stored.some((m) => m.id === id));
  if (missing.length === 0) return heads;
  // A refused send's events all share its one moment and its from, subject and tags.
  const refused = await db
    .selectFrom('events as e')
    .innerJoin('domains as d', 'd.id', 'e.domain_id')
    .select([
      'e.message_id',
      'e.account_id',
      'e.domain_id',
      'd.name as domain',
      'e.from_address',
      'e.subject',
      'e.tags',
      'e.occurred_at',
    ])
    .where('e.message_id', 'in', missing)
    .where('e.event', '=', 'rejected-by-system')
    .orderBy('e.occurred_at')
    .orderBy('e.id')
    .execute();
  const seen = new Set<string>();
  for (const e of refused) {
    if (seen.has(e.message_id)) continue;
    seen.add(e.message_id);
    heads.push({
      id: e.message_id,
      accountId: e.account_id,
      domainId: e.domain_id,
      domain: e.domain,
      from: e.from_address,
      subject: e.subject,
      tags: stringArray(e.tags),
      metadata: {},
      createdAt: Number(e.occurred_at),
      stored: false,
      template: null,
    });
  }
  return heads;
}

/**
 * The summaries of `heads`, in their order: each recipient's status from its row (or, for a
 * recipient refused before queueing, from its `rejected-by-system` event), its newest event, and
 * for one still in the queue the last temporary failure and the next attempt. Four queries
 * whatever the number of messages.
 */
export async function summarize(db: Db, heads: MessageHead[]): Promise<MessageSummary[]> {
  if (heads.length === 0) return [];
  const ids = heads.map((h) => h.id);
  const storedIds = heads.filter((h) => h.stored).map((h) => h.id);
  const [recipients, jobs, last] = await Promise.all([
    storedIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('recipients')
          .select(['id', 'message_id', 'address', 'status', 'updated_at'])
          .where('message_id', 'in', storedIds)
          .orderBy('id')
          .execute(),
    storedIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('jobs')
          .select(['recipient_id', 'run_at', 'locked_by', 'last_error'])
          .where('message_id', 'in', storedIds)
          .execute(),
    lastEvents(db, ids),
  ]);
  const jobOf = new Map(jobs.map((j) => [j.recipient_id, j]));
  const lastOf = new Map(last.map((e) => [recipientKey(e.message_id, e.recipient), e]));
  const rowsOf = groupBy(recipients, (r) => r.message_id);
  // Refused recipients in the order their events were written (the request's order).
  const eventsOf = groupBy(
    [...last].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    (e) => e.message_id,
  );
  return heads.map((h) => {
    const shown: RecipientView[] = [];
    const listed = new Set<string>();
    for (const r of rowsOf.get(h.id) ?? []) {
      const key = recipientKey(h.id, r.address);
      listed.add(key);
      const job = jobOf.get(r.id);
      const event = lastOf.get(key);
      shown.push({
        address: r.address,
        status: shownStatus(r.status),
        last_event: event ? toEventRecord(event) : null,
        updated_at: iso(Number(r.updated_at)),
        last_reply: job?.last_error ?? null,
        next_attempt_at: job && job.locked_by === null ? iso(Number(job.run_at)) : null,
      });
    }
    // Recipients refused before queueing have an event but no row: all of a refused send's, and
    // any a send left behind while the others went ahead.
    for (const e of eventsOf.get(h.id) ?? []) {
      const key = recipientKey(h.id, e.recipient);
      if (listed.has(key) || e.event !== 'rejected-by-system') continue;
      listed.add(key);
      const record = toEventRecord(e);
      shown.push({
        address: e.recipient,
        status: refusedStatus(record.details),
        last_event: record,
        updated_at: record.occurred_at,
        last_reply: null,
        next_attempt_at: null,
      });
    }
    return {
      id: h.id,
      domain: h.domain,
      from: h.from,
      subject: h.subject,
      tags: h.tags,
      metadata: h.metadata,
      created_at: iso(h.createdAt),
      template: h.template,
      recipients: shown,
    };
  });
}

/** The newest event of each recipient of each message (ties by id, as GET /v1/events orders them). */
async function lastEvents(db: Db, messageIds: string[]): Promise<Selectable<EventTable>[]> {
  const ranked = db
    .selectFrom('events')
    .selectAll()
    .select((eb) =>
      eb.fn
        .agg<number>('row_number')
        .over((ob) => ob.partitionBy(['message_id', 'recipient']).orderBy('occurred_at', 'desc').orderBy('id', 'desc'))
        .as('rn'),
    )
    .where('message_id', 'in', messageIds)
    .as('ranked');
  const rows = await db.selectFrom(ranked).selectAll().where('rn', '=', 1).execute();
  return rows.map(({ rn: _rn, ...event }) => event);
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** Addresses are matched as the events wrote them, case aside. */
function recipientKey(messageId: string, address: string): string {
  return `${messageId}\0${address.toLowerCase()}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** A stored JSON array of strings; a damaged value reads as empty rather than failing the read. */
function stringArray(text: string): string[] {
  const value = parse(text);
  return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
}

/** A stored JSON object of string values (messages.metadata); anything else reads as `{}`. */
function stringRecord(text: string): Record<string, string> {
  const value = parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
