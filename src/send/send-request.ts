import { createHash } from 'node:crypto';
import type { Mailbox } from '../core/mailbox.js';

/** A validated send request, whatever it came in through (HTTP JSON now, the SMTP relay in issue 03). */
export interface SendRequest {
  from: Mailbox;
  /** Distinct recipients (compared case-insensitively, decisions §3), in request order. */
  to: Mailbox[];
  subject: string;
  html: string | null;
  text: string | null;
  tags: string[];
  headers: [string, string][];
  /**
   * A message submitted whole over the SMTP relay: its bytes pass through (issue 03), only the
   * owned headers are rewritten; `html`, `text` and `headers` are then unused.
   */
  mime?: { raw: Buffer; fingerprint: string };
}

/**
 * SHA-256 of the canonical request: equal for a replay, different for a reused key (decisions §7).
 * Computed only when the request carries an Idempotency-Key.
 */
export function requestFingerprint(r: SendRequest): string {
  if (r.mime) return r.mime.fingerprint;
  const canonical = JSON.stringify([r.from.name, r.from.address, r.to.map((m) => [m.name, m.address]), r.subject, r.html, r.text, r.tags, r.headers]);
  return createHash('sha256').update(canonical).digest('hex');
}
