import { createHash } from 'node:crypto';
import type { Mailbox } from '../core/mailbox.js';
import type { TrackingOverrides } from '../tracking/settings.js';

/** A validated send request, whatever it came in through (HTTP JSON or the SMTP relay). */
export interface SendRequest {
  from: Mailbox;
  /** Distinct recipients (compared case-insensitively, so a duplicate is sent once), in request order. */
  to: Mailbox[];
  subject: string;
  html: string | null;
  text: string | null;
  tags: string[];
  headers: [string, string][];
  /**
   * Per-message overrides of the domain's tracking defaults (docs/tracking.md): JSON `track_opens`,
   * `track_clicks`, `unsubscribe`, or the relay's X-Posthorn-* headers; absent means the default.
   */
  tracking?: TrackingOverrides;
  /**
   * A message submitted whole over the SMTP relay: its bytes pass through, only the
   * owned headers are rewritten; `html`, `text` and `headers` are then unused.
   */
  mime?: { raw: Buffer; fingerprint: string };
}

/**
 * SHA-256 of the canonical request: equal for a replay, different for a reused key (docs/api.md,
 * Idempotency). Computed only when the request carries an Idempotency-Key.
 */
export function requestFingerprint(r: SendRequest): string {
  if (r.mime) return r.mime.fingerprint;
  // The overrides are appended only when given, so fingerprints stored before those overrides
  // existed still match.
  const overrides =
    r.tracking && Object.keys(r.tracking).length > 0
      ? [[r.tracking.opens ?? null, r.tracking.clicks ?? null, r.tracking.unsubscribe ?? null]]
      : [];
  const canonical = JSON.stringify([
    r.from.name,
    r.from.address,
    r.to.map((m) => [m.name, m.address]),
    r.subject,
    r.html,
    r.text,
    r.tags,
    r.headers,
    ...overrides,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}
