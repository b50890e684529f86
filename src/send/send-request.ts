import { createHash } from 'node:crypto';
import type { Mailbox } from '../core/mailbox.js';
import type { TrackingOverrides } from '../tracking/settings.js';
import type { TemplateRef } from '../templates/send-template.js';
import type { Attachment } from './attachments.js';

/** A validated send request, whatever it came in through (HTTP JSON or the SMTP relay). */
export interface SendRequest {
  from: Mailbox;
  /** Distinct recipients (compared case-insensitively, so a duplicate is sent once), in request order. */
  to: Mailbox[];
  /**
   * Copy recipients, shown in the Cc header (docs/api.md, Fields). Absent (a relayed message):
   * none; the relay's recipients are all in `to`, from its envelope.
   */
  cc?: Mailbox[];
  /** Blind copy recipients: delivered like the others, never named in the message. */
  bcc?: Mailbox[];
  /** The Reply-To header's addresses. */
  replyTo?: Mailbox[];
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
  /** Files attached, inline ones (with a content id) first referred to by the html. */
  attachments?: Attachment[];
  /** Flat string values the caller attached; every event of the message carries them (docs/api.md, Fields). */
  metadata?: Record<string, string>;
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
  /**
   * When a scheduled message is to go (epoch ms; `send_at`, or the relay's X-Posthorn-Send-At):
   * its jobs are not due before then (send/send-at.ts). Absent: at once.
   */
  sendAt?: number;
  /**
   * A large JSON send's bodies, serialised on the offload thread that validated it (send/offload.ts):
   * the UTF-8 of `JSON.stringify(draftBodies(...))` (mime/message-draft.ts), moved to the
   * pipeline's thread instead of crossing as strings that the compose step would stringify again.
   * When set, `html` and `text` are null and each attachment's `content` is '': the bodies are only
   * here, and `fingerprint` is the request's (when it was asked for: an Idempotency-Key came with it).
   */
  prepared?: { bodies: Uint8Array; fingerprint: string | null };
}

/**
 * Every distinct recipient (compared case-insensitively) of `to`, `cc` and `bcc`, in that order:
 * who gets a recipients row, a delivery and events.
 */
export function allRecipients(r: Pick<SendRequest, 'to' | 'cc' | 'bcc'>): Mailbox[] {
  const seen = new Set<string>();
  const out: Mailbox[] = [];
  for (const m of [...r.to, ...(r.cc ?? []), ...(r.bcc ?? [])]) {
    const key = m.address.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(m);
  }
  return out;
}

/**
 * SHA-256 of the canonical request: equal for a replay, different for a reused key (docs/api.md,
 * Idempotency). Computed only when the request carries an Idempotency-Key.
 */
export function requestFingerprint(r: SendRequest): string {
  if (r.mime) return r.mime.fingerprint;
  if (r.prepared) {
    if (r.prepared.fingerprint === null) throw new Error('a prepared send request was not fingerprinted');
    return r.prepared.fingerprint;
  }
  // The overrides and the later fields are appended only when given, so fingerprints stored before
  // they existed still match.
  const overrides =
    r.tracking && Object.keys(r.tracking).length > 0
      ? [[r.tracking.opens ?? null, r.tracking.clicks ?? null, r.tracking.unsubscribe ?? null]]
      : [];
  // Likewise the template, as requested (not as rendered: a replay after a new version must still match).
  const template = r.template ? [['template', r.template.name, r.template.version, r.template.variables]] : [];
  const mailboxes = (list: Mailbox[] | undefined) => (list ?? []).map((m) => [m.name, m.address]);
  const additions =
    (r.cc?.length ?? 0) + (r.bcc?.length ?? 0) + (r.replyTo?.length ?? 0) + (r.attachments?.length ?? 0) > 0 ||
    Object.keys(r.metadata ?? {}).length > 0
      ? [
          {
            cc: mailboxes(r.cc),
            bcc: mailboxes(r.bcc),
            reply_to: mailboxes(r.replyTo),
            attachments: (r.attachments ?? []).map((a) => [a.filename, a.contentType, a.contentId, a.digest]),
            // Sorted: the order of an object's keys is the JSON's formatting, not the request.
            metadata: Object.entries(r.metadata ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
          },
        ]
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
    ...template,
    ...additions,
    // Appended only when given, like the others, so earlier fingerprints still match.
    ...(r.sendAt !== undefined ? [['send_at', r.sendAt]] : []),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}
