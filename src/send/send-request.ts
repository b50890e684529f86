import { createHash } from 'node:crypto';
import type { Mailbox } from '../core/mailbox.js';
import type { TrackingOverrides } from '../tracking/settings.js';
import type { TemplateRef } from '../templates/send-template.js';

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
  /**
   * The template the message is rendered from (docs/api.md, Sending with a template): until the
   * pipeline's render step, `subject` is '' (or the send's own, also in `template.subject`) and
   * `html` and `text` are null.
   */
  template?: TemplateRef;
  /** The template and version the render step rendered; recorded on the message and its `accepted-by-system` events. */
  rendered?: { name: string; version: number };
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
  // Likewise the template, as requested (not as rendered: a replay after a new version must still match).
  const template = r.template ? [['template', r.template.name, r.template.version, r.template.variables]] : [];
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
    ...template,
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}
