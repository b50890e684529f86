/**
 * Scheduled send (docs/api.md, Fields; docs/delivery.md, Scheduled send): `send_at` of
 * POST /v1/send and the relay's `X-Posthorn-Send-At` header. The form is checked where the request
 * is read; the window, which needs the clock, by the pipeline's validate step (send/submit.ts).
 */

/** How far ahead a message may be scheduled: 30 days, as hosted services allow (docs/api.md). */
export const MAX_SEND_AHEAD_MS = 30 * 24 * 60 * 60 * 1000;

// ISO 8601 / RFC 3339 §5.6 date-time with seconds and an explicit offset: a time without one would
// be read in whatever zone the server runs in.
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;
const UNIX_SECONDS = /^\d{1,12}$/;

const FORMS = 'an ISO 8601 date-time with an offset (2026-05-01T09:00:00Z, 2026-05-01T11:00:00+02:00) or Unix seconds';

/** The send time `value` names, in epoch ms, or what is wrong with its form. */
export function parseSendAt(value: unknown, name: string): { at: number } | { error: string } {
  if (typeof value === 'number') {
    // Twelve digits at most, as for a string: beyond that no date can be written (year 5138 and on).
    if (!Number.isInteger(value) || value < 0 || value > 999_999_999_999)
      return { error: `${name} must be ${FORMS}, got ${value}` };
    return { at: value * 1000 };
  }
  if (typeof value !== 'string') return { error: `${name} must be ${FORMS}` };
  const text = value.trim();
  if (UNIX_SECONDS.test(text)) return { at: Number(text) * 1000 };
  if (!ISO_WITH_OFFSET.test(text))
    return { error: `${name} must be ${FORMS}, got ${JSON.stringify(value.slice(0, 64))}` };
  const at = Date.parse(text.replace(' ', 'T'));
  if (Number.isNaN(at) || !realFields(text))
    return { error: `${name} is not a real date and time: ${JSON.stringify(value.slice(0, 64))}` };
  return { at };
}

/** True when the date and time fields name a real moment (Date.parse would roll 2026-02-30 over to March). */
function realFields(text: string): boolean {
  const [y, mo, d, h, mi, s] = [0, 5, 8, 11, 14, 17].map((i) => Number(text.slice(i, i + (i === 0 ? 4 : 2))));
  const days = new Date(Date.UTC(y!, mo!, 0)).getUTCDate();
  return mo! >= 1 && mo! <= 12 && d! >= 1 && d! <= days && h! <= 23 && mi! <= 59 && s! <= 59;
}

/** Why `at` is outside the window a message may be scheduled in at `now` (after now, at most 30 days ahead), or null. */
export function sendAtWindowError(at: number, now: number, name: string): string | null {
  if (at <= now)
    return `${name} must be in the future, got ${new Date(at).toISOString()} (now ${new Date(now).toISOString()}); leave it out to send at once`;
  if (at - now > MAX_SEND_AHEAD_MS)
    return `${name} may be at most 30 days ahead (until ${new Date(now + MAX_SEND_AHEAD_MS).toISOString()}), got ${new Date(at).toISOString()}`;
  return null;
}
