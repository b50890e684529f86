import type { Selectable } from 'kysely';
import type { EventTable } from '../storage/database.js';

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
  details: Record<string, unknown>;
}

/** Maps a stored `events` row to its API record (docs/api.md, `GET /v1/events`). */
export function toEventRecord(row: Selectable<EventTable>): EventRecord {
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
    details: parseDetails(row.details),
  };
}

/** The stored JSON array of tags; a damaged value reads as no tags rather than failing the whole page. */
function parseTags(text: string): string[] {
  const value = parseJson(text);
  return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
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
