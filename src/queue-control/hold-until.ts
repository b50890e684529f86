import { parseDuration } from '../config/parse-value.js';
import { RefusedError } from '../core/refused-error.js';
import { parseSendAt } from '../send/send-at.js';

/**
 * The end of a hold as given: an ISO 8601 date-time with an offset, Unix seconds (the forms of
 * `send_at`), or a duration from now (`30m`, `2h`, `1d`). Refused, naming `until`, otherwise.
 */
export function parseHoldUntil(value: unknown, now: number): number {
  if (typeof value === 'string' && /^\d+(\.\d+)?(ms|s|m|h|d)$/.test(value.trim())) {
    try {
      return now + parseDuration(value);
    } catch (err) {
      throw new RefusedError('invalid', `until: ${(err as Error).message}`, { field: 'until' });
    }
  }
  const parsed = parseSendAt(value, 'until');
  if ('error' in parsed)
    throw new RefusedError('invalid', `${parsed.error}, or a duration from now such as 30m or 2h`, { field: 'until' });
  return parsed.at;
}
