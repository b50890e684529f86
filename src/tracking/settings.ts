import { apiError, type ApiError } from '../core/api-errors.js';
import { splitMessage } from '../mime/split-message.js';
import type { TrackingFlags } from './render.js';

/** What one message may say about tracking; an absent key leaves the domain's default. */
export interface TrackingOverrides {
  opens?: boolean;
  clicks?: boolean;
  unsubscribe?: boolean;
}

/**
 * The parts of a send request (src/send/send-request.ts) the tracking checks read, declared here so
 * tracking/ does not depend on send/, which calls it.
 */
export interface TrackedRequest {
  tracking?: TrackingOverrides;
  headers: [string, string][];
  mime?: { raw: Buffer };
}

/** The message's tracking: each override when given, else the sending domain's default (docs/tracking.md, Settings). */
export function resolveTracking(defaults: TrackingFlags, req: Pick<TrackedRequest, 'tracking'>): TrackingFlags {
  const o = req.tracking ?? {};
  return {
    opens: o.opens ?? defaults.opens,
    clicks: o.clicks ?? defaults.clicks,
    unsubscribe: o.unsubscribe ?? defaults.unsubscribe,
  };
}

const UNSUBSCRIBE_FIELDS = new Set(['list-unsubscribe', 'list-unsubscribe-post']);

/**
 * List-Unsubscribe* are the service's own (docs/tracking.md) when it sets them. A message that gets
 * them must not bring its own (a second List-Unsubscribe would leave which one a provider uses to
 * chance): 400 naming the header (`headers.<Name>` over HTTP, the header itself over SMTP).
 */
export function unsubscribeConflict(
  flags: TrackingFlags,
  req: Pick<TrackedRequest, 'headers' | 'mime'>,
): ApiError | null {
  if (!flags.unsubscribe) return null;
  const why =
    'is set by the service when unsubscribe is on for this message; remove it, or turn unsubscribe off for this message';
  if (req.mime) {
    const f = splitMessage(req.mime.raw).fields.find((x) => UNSUBSCRIBE_FIELDS.has(x.name));
    if (!f) return null;
    const name = f.text.slice(0, f.text.indexOf(':')).trim();
    return apiError('invalid_request', `header ${name} ${why} (X-Posthorn-Unsubscribe: no)`, name);
  }
  const h = req.headers.find(([name]) => UNSUBSCRIBE_FIELDS.has(name.toLowerCase()));
  if (!h) return null;
  return apiError('invalid_request', `header ${h[0]} ${why} ("unsubscribe": false)`, `headers.${h[0]}`);
}
