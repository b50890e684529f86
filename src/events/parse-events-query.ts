import { apiError, type ApiError } from '../core/api-errors.js';
import { EVENT_NAMES, isEventName, type EventName } from '../core/event-names.js';
import { normalizeMessageId } from '../core/message-id.js';

/** A validated GET /v1/events query (docs/api.md, `GET /v1/events`). `start` and `end` are inclusive epoch ms. */
export interface EventsFilter {
  limit: number;
  offset: number;
  event?: EventName;
  /** `msg_` + upper-case ULID, the form ids are stored in. */
  messageId?: string;
  start?: number;
  end?: number;
  /** `domain=`: which of its account's domains an account token reads (http/read-domain.ts). */
  domain?: string;
}

/** Page size 1 to 100, default 25 (docs/api.md). */
export const DEFAULT_EVENTS_LIMIT = 25;
export const MAX_EVENTS_LIMIT = 100;
/**
 * `offset` is capped (docs/api.md, `GET /v1/events`): a huge offset makes the database walk and
 * discard that many rows per request, so deeper pages must narrow the range with `start`/`end` instead.
 */
export const MAX_EVENTS_OFFSET = 1_000_000;

const PARAMETERS = ['limit', 'offset', 'event', 'message_id', 'start', 'end', 'domain'] as const;
type Parameter = (typeof PARAMETERS)[number];
const KNOWN: ReadonlySet<string> = new Set(PARAMETERS);

const UNIX_SECONDS = /^(\d{1,15})(?:\.(\d{1,9}))?$/;
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})?)?$/;
/** The last millisecond of year 9999: anything later is a mistake (often milliseconds sent as seconds). */
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const TIME_FORMATS =
  'a Unix timestamp in seconds (e.g. 1763726400 or 1763726400.25) or an ISO-8601 date or date-time ' +
  '(e.g. 2026-11-21, 2026-11-21T12:00:00Z or 2026-11-21T13:00:00.000+01:00)';

/** An instant to below the millisecond: `sub` holds the digits after the millisecond, trailing zeros stripped. */
interface Instant {
  ms: number;
  sub: string;
}

export type ParsedEventsQuery = { ok: true; filter: EventsFilter } | { ok: false; error: ApiError };

/**
 * Validates a parsed query string into an EventsFilter, or the 400 `invalid_request` naming the
 * rejected parameter, so a client learns what to fix. Unknown and repeated parameters are refused.
 */
export function parseEventsQuery(query: unknown): ParsedEventsQuery {
  const raw: Record<string, unknown> =
    typeof query === 'object' && query !== null ? (query as Record<string, unknown>) : {};
  const values: Partial<Record<Parameter, string>> = {};
  for (const name of Object.keys(raw)) {
    if (!KNOWN.has(name)) {
      return fail(name, `unknown query parameter ${quote(name)}; expected one of ${PARAMETERS.join(', ')}`);
    }
    const value = raw[name];
    if (typeof value !== 'string') return fail(name, `${name} must be given at most once`);
    values[name as Parameter] = value;
  }

  const filter: EventsFilter = { limit: DEFAULT_EVENTS_LIMIT, offset: 0 };
  if (values.limit !== undefined) {
    const limit = parseInteger(values.limit);
    if (limit === undefined || limit < 1 || limit > MAX_EVENTS_LIMIT) {
      return fail('limit', `limit must be an integer from 1 to ${MAX_EVENTS_LIMIT}, got ${quote(values.limit)}`);
    }
    filter.limit = limit;
  }
  if (values.offset !== undefined) {
    const offset = parseInteger(values.offset);
    if (offset === undefined)
      return fail('offset', `offset must be a non-negative integer, got ${quote(values.offset)}`);
    if (offset > MAX_EVENTS_OFFSET) {
      return fail(
        'offset',
        `offset must be at most ${MAX_EVENTS_OFFSET}; narrow the range with start and end to page further`,
      );
    }
    filter.offset = offset;
  }
  if (values.event !== undefined) {
    if (!isEventName(values.event)) {
      return fail('event', `event must be one of ${EVENT_NAMES.join(', ')}, got ${quote(values.event)}`);
    }
    filter.event = values.event;
  }
  if (values.message_id !== undefined) {
    // Stored ids are upper-case (ulidx), so a lower-cased copy still finds its message.
    const id = normalizeMessageId(values.message_id);
    if (id === null) {
      return fail(
        'message_id',
        `message_id must be a message id from a send response (msg_ and 26 characters of Crockford base32, the prefix optional), got ${quote(values.message_id)}`,
      );
    }
    filter.messageId = id;
  }
  if (values.domain !== undefined) filter.domain = values.domain;

  const range = parseTimeRange(values.start, values.end);
  if ('error' in range) return { ok: false, error: range.error };
  if (range.start !== undefined) filter.start = range.start;
  if (range.end !== undefined) filter.end = range.end;
  return { ok: true, filter };
}

/**
 * `start` and `end` query parameters (docs/api.md, `GET /v1/events`; `GET /v1/messages` takes the
 * same): Unix seconds or ISO 8601, both inclusive, as epoch-ms bounds; or the 400 naming the one
 * at fault.
 */
export function parseTimeRange(
  startText: string | undefined,
  endText: string | undefined,
): { start?: number; end?: number } | { error: ApiError } {
  let start: Instant | undefined;
  let end: Instant | undefined;
  for (const [name, text] of [
    ['start', startText],
    ['end', endText],
  ] as const) {
    if (text === undefined) continue;
    const parsed = parseInstant(text);
    if (typeof parsed === 'string') return fail(name, `${name} ${parsed}`);
    if (name === 'start') start = parsed;
    else end = parsed;
  }
  if (start && end && isAfter(start, end)) return fail('end', 'end must not be before start');
  // Times are stored to the millisecond and both bounds are inclusive (docs/api.md): a start
  // inside a millisecond begins at the next whole one, an end inside one ends at that one.
  const out: { start?: number; end?: number } = {};
  if (start) out.start = start.ms + (start.sub === '' ? 0 : 1);
  if (end) out.end = end.ms;
  return out;
}

/** Digits only (no sign, no spaces, no exponent), small enough to be exact. */
function parseInteger(text: string): number | undefined {
  if (!/^\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}

/** A Unix timestamp in seconds or an ISO-8601 date/date-time; a string is the reason it is not one. */
function parseInstant(text: string): Instant | string {
  const unix = UNIX_SECONDS.exec(text);
  if (unix) {
    const fraction = unix[2] ?? '';
    return inRange(
      { ms: Number(unix[1]) * 1000 + millis(fraction), sub: subMillis(fraction) },
      'is out of range (Unix timestamps are in seconds, not milliseconds)',
    );
  }
  const iso = parseIso(text);
  if (iso !== undefined) return iso;
  // An unencoded `+` in a query string decodes to a space (application/x-www-form-urlencoded).
  if (/ \d{2}:\d{2}$/.test(text) && typeof parseIso(text.replace(/ (\d{2}:\d{2})$/, '+$1')) === 'object') {
    return `has a space where its + offset belongs: encode + as %2B in the query string, got ${quote(text)}`;
  }
  return `must be ${TIME_FORMATS}, got ${quote(text)}`;
}

/** ISO-8601: `YYYY-MM-DD` (midnight UTC) or a date-time with optional fraction and zone (none means UTC). */
function parseIso(text: string): Instant | string | undefined {
  const m = ISO_8601.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((v) => Number(v ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const fraction = m[7] ?? '';
  const zone = m[8] ?? 'Z';
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month))
    return `is not a calendar date, got ${quote(text)}`;
  if (hour > 23 || minute > 59 || second > 59) return `is not a valid time of day, got ${quote(text)}`;
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const [oh, om] = [Number(zone.slice(1, 3)), Number(zone.slice(4, 6))];
    if (oh > 23 || om > 59) return `has an invalid UTC offset, got ${quote(text)}`;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (oh * 60 + om);
  }
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0-99 to 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis(fraction));
  return inRange({ ms: date.getTime() - offsetMinutes * 60_000, sub: subMillis(fraction) }, 'is after the year 9999');
}

/** The instant, or `reason` when it lies beyond year 9999. */
function inRange(instant: Instant, reason: string): Instant | string {
  return instant.ms > MAX_MS ? reason : instant;
}

/** Whole milliseconds of a decimal fraction of a second ("25" → 250). */
function millis(fraction: string): number {
  return Number(fraction.slice(0, 3).padEnd(3, '0'));
}

/** The fraction's digits below the millisecond, trailing zeros stripped, so strings compare as numbers. */
function subMillis(fraction: string): string {
  return fraction.slice(3).replace(/0+$/, '');
}

/** True when `a` is later than `b`, exactly. */
function isAfter(a: Instant, b: Instant): boolean {
  return a.ms !== b.ms ? a.ms > b.ms : a.sub > b.sub;
}

/** Days in a month of the proleptic Gregorian calendar. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** A value for an error message: JSON-quoted and cut short, since it is the caller's input. */
function quote(value: string): string {
  return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
}

/** The 400 for one parameter. */
function fail(field: string, message: string): { ok: false; error: ApiError } {
  return { ok: false, error: apiError('invalid_request', message, field) };
}

/**
 * One time bound as GET /v1/events reads `start` and `end` (the same forms, TIME_FORMATS), for
 * other operations over a window of events (webhook replay): the epoch millisecond an inclusive
 * bound of that `side` covers, or the reason the text is not a time.
 */
export function parseTimeBound(text: string, side: 'start' | 'end'): number | string {
  const parsed = parseInstant(text);
  if (typeof parsed === 'string') return parsed;
  return side === 'start' ? parsed.ms + (parsed.sub === '' ? 0 : 1) : parsed.ms;
}

/** The forms parseTimeBound accepts, for messages and documentation. */
export const TIME_BOUND_FORMATS = TIME_FORMATS;
