import type { IdPrefix } from './ids.js';
import { RefusedError } from './refused-error.js';

/**
 * The opaque `next_cursor` of a list ordered by (creation time, id): the last row's time and id,
 * as base64url. Ids are ULIDs (ids.ts), so the pair is a total order.
 */
export function encodeTimeIdCursor(at: number, id: string): string {
  return Buffer.from(`${at}:${id}`).toString('base64url');
}

/** The (time, id) a cursor of encodeTimeIdCursor names; refused (field `cursor`) when it is not one for `prefix`. */
export function decodeTimeIdCursor(cursor: string, prefix: IdPrefix): { at: number; id: string } {
  const m = new RegExp(`^(\\d{1,16}):(${prefix}_[0-9A-Z]{26})$`).exec(
    Buffer.from(cursor, 'base64url').toString('utf8'),
  );
  if (!m)
    throw new RefusedError('invalid', 'cursor is not one this API returned; pass next_cursor as it came', {
      field: 'cursor',
    });
  return { at: Number(m[1]), id: m[2]! };
}
