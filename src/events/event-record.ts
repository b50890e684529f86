import type { Selectable } from 'kysely';
import type { EventName } from '../core/event-names.js';
import type { Ids } from '../core/ids.js';
import type { EventTable, SuppressionReason } from '../storage/database.js';

/**
 * An event to record (`writeEvents`); `suppress` asks the writer to add the recipient to the
 * suppression list, and `false` stops an event that implies one from doing so (a complaint whose
 * report may be forged by a co-recipient, docs/inbound.md). Made by `newEvent`.
 */
export interface NewEvent {
  id: string;
  accountId: string;
  domainId: string;
  messageId: string;
  event: EventName;
  recipient: string;
  from: string;
  subject: string;
  tags: readonly string[];
  /** The message's metadata (docs/api.md, Fields), carried by every one of its events like tags; none when absent. */
  metadata?: Readonly<Record<string, string>>;
  details: Record<string, unknown>;
  occurredAt: number;
  suppress?: SuppressionReason | false;
}

/** The message an event is about: the columns each of its events repeats, so a read needs no join. */
export interface EventMessage {
  id: string;
  accountId: string;
  domainId: string;
  from: string;
  subject: string;
  tags: readonly string[];
  metadata: Readonly<Record<string, string>>;
}

/** What happened to one recipient of the message, and when. */
export interface EventFact {
  event: EventName;
  recipient: string;
  at: number;
  details?: Record<string, unknown>;
  suppress?: SuppressionReason | false;
}

/**
 * The one constructor of an event to record, for every source (the submit pipeline, the relay's
 * RCPT check, delivery outcomes, reports, tracking): a new `evt_` id of the time it happened, the
 * message's columns, and `details` (`{}` when none).
 */
export function newEvent(ids: Pick<Ids, 'next'>, message: EventMessage, fact: EventFact): NewEvent {
  const event: NewEvent = {
    id: ids.next('evt', fact.at),
    accountId: message.accountId,
    domainId: message.domainId,
    messageId: message.id,
    event: fact.event,
    recipient: fact.recipient,
    from: message.from,
    subject: message.subject,
    tags: message.tags,
    metadata: message.metadata,
    details: fact.details ?? {},
    occurredAt: fact.at,
  };
  if (fact.suppress !== undefined) event.suppress = fact.suppress;
  return event;
}

/** The stored `events` row of an event (tags and details as JSON text). */
export function toEventRow(e: NewEvent): EventTable {
  return {
    id: e.id,
    account_id: e.accountId,
    domain_id: e.domainId,
    message_id: e.messageId,
    event: e.event,
    recipient: e.recipient,
    from_address: e.from,
    subject: e.subject,
    tags: JSON.stringify(e.tags),
    metadata: JSON.stringify(e.metadata ?? {}),
    details: JSON.stringify(e.details),
    occurred_at: e.occurredAt,
  };
}

/** One element of `events` in GET /v1/events: the fields docs/api.md lists for `GET /v1/events`. */
export interface EventRecord {
  id: string;
  event: string;
  /** Always `YYYY-MM-DDTHH:MM:SS.sssZ`, UTC to the millisecond, so every record sorts and parses alike. */
  occurred_at: string;
  message_id: string;
  from: string;
  to: string;
  subject: string;
  tags: string[];
  /** The message's metadata: string values the sender attached (`{}` when none). */
  metadata: Record<string, string>;
  details: Record<string, unknown>;
}

/** Maps a stored `events` row to its API record (docs/api.md, `GET /v1/events`). */
export function toEventRecord(row: EventTable | Selectable<EventTable>): EventRecord {
  return {
    id: row.id,
    event: row.event,
    // Number(): a BIGINT may come back as a string if a driver's type parser is not installed.
    occurred_at: new Date(Number(row.occurred_at)).toISOString(),
    message_id: row.message_id,
    from: row.from_address,
    to: row.recipient,
    subject: row.subject,
    tags: parseTags(row.tags),
    metadata: parseMetadata(row.metadata),
    details: parseDetails(row.details),
  };
}

/** The stored JSON array of tags; a damaged value reads as no tags rather than failing the whole page. */
function parseTags(text: string): string[] {
  const value = parseJson(text);
  return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
}

/** The stored JSON metadata object, or messages' column of it; only its string values, `{}` when damaged. */
export function parseMetadata(text: string | null | undefined): Record<string, string> {
  const value = text === null || text === undefined ? undefined : parseJson(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

/** The stored JSON details object; anything but an object reads as `{}`. */
function parseDetails(text: string): Record<string, unknown> {
  const value = parseJson(text);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** JSON.parse that returns undefined instead of throwing. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
