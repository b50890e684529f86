/**
 * The documented `X-Posthorn-*` headers of the SMTP relay (README, The SMTP relay): the relay's way
 * to pass what the HTTP API takes as JSON fields. They are read here and removed before delivery
 * (submitted-headers.ts). Any other `X-Posthorn-*` name is refused, so a typo is not silently
 * ignored.
 */

import { parseSendAt } from '../send/send-at.js';

/** Options a submission may set; an absent one means the account's default. */
export interface RelayOptions {
  trackOpens?: boolean;
  trackClicks?: boolean;
  unsubscribe?: boolean;
  /** X-Posthorn-Send-At: when a scheduled message is to go (epoch ms); its window is checked by the pipeline. */
  sendAt?: number;
}

/** Same limits as the HTTP API's `tags` (validate-send-json.ts). */
export const MAX_TAGS = 20;
export const MAX_TAG_LENGTH = 100;

type Parsed = { ok: true } | { ok: false; message: string };

interface RelayHeader {
  /** The documented spelling, used in error messages. */
  name: string;
  /** Reads the unfolded, decoded value into the result. */
  apply(value: string, into: { tags: string[]; options: RelayOptions }): Parsed;
}

/** Spellings of on and off a submitter's mail library may use. */
const ON = new Set(['yes', 'true', '1']);
const OFF = new Set(['no', 'false', '0']);

function yesNo(name: string, set: (on: boolean, options: RelayOptions) => void): RelayHeader {
  return {
    name,
    apply(value, into) {
      const v = value.trim().toLowerCase();
      if (!ON.has(v) && !OFF.has(v))
        return { ok: false, message: `${name} must be yes or no (or true/false, 1/0), got "${value}"` };
      set(ON.has(v), into.options);
      return { ok: true };
    },
  };
}

/** `X-Posthorn-Tags: a, b`: comma-separated, each trimmed; duplicates kept once, as over HTTP. */
function parseTags(value: string, into: { tags: string[] }): Parsed {
  if (value === '') return { ok: true };
  const items = value.split(',').map((t) => t.trim());
  if (items.length > MAX_TAGS)
    return { ok: false, message: `X-Posthorn-Tags may hold at most ${MAX_TAGS} tags, got ${items.length}` };
  for (const [i, t] of items.entries()) {
    if (t === '' || t.length > MAX_TAG_LENGTH || /\p{Cc}/u.test(t)) {
      return {
        ok: false,
        message: `X-Posthorn-Tags tag ${i + 1} must be a non-empty string of at most ${MAX_TAG_LENGTH} characters without control characters`,
      };
    }
    if (!into.tags.includes(t)) into.tags.push(t);
  }
  return { ok: true };
}

/** `X-Posthorn-Send-At`: the `send_at` of the HTTP API, in the same forms (send/send-at.ts). */
function parseSendAtHeader(value: string, into: { options: RelayOptions }): Parsed {
  const parsed = parseSendAt(value, 'X-Posthorn-Send-At');
  if ('error' in parsed) return { ok: false, message: parsed.error };
  into.options.sendAt = parsed.at;
  return { ok: true };
}

/** The documented headers by lower-cased name. */
export const RELAY_HEADERS: ReadonlyMap<string, RelayHeader> = new Map([
  ['x-posthorn-tags', { name: 'X-Posthorn-Tags', apply: parseTags }],
  [
    'x-posthorn-track-opens',
    yesNo('X-Posthorn-Track-Opens', (on, o) => {
      o.trackOpens = on;
    }),
  ],
  [
    'x-posthorn-track-clicks',
    yesNo('X-Posthorn-Track-Clicks', (on, o) => {
      o.trackClicks = on;
    }),
  ],
  [
    'x-posthorn-unsubscribe',
    yesNo('X-Posthorn-Unsubscribe', (on, o) => {
      o.unsubscribe = on;
    }),
  ],
  ['x-posthorn-send-at', { name: 'X-Posthorn-Send-At', apply: parseSendAtHeader }],
]);
