import type { Deps } from '../deps.js';
import { classifyOpen } from './automated.js';
import { loadTrackedRecipient, recordFeedback } from './recipient.js';
import { readToken } from './token.js';

/** What a tracking request tells about its client. */
export interface TrackingHit {
  token: string;
  userAgent: string;
  /** The client's address; null when unknown (the sandbox). */
  ip: string | null;
  /** Extra dedupe key for a caller that may repeat itself after a crash (the sandbox triggers). */
  onceKey?: string;
}

type TrackingDeps = Pick<Deps, 'db' | 'clock' | 'ids'>;

/** When the recipient's `delivered` event happened, if it did. */
async function deliveredAt(deps: TrackingDeps, messageId: string, address: string): Promise<number | null> {
  const row = await deps.db
    .selectFrom('events')
    .select('occurred_at')
    .where('message_id', '=', messageId)
    .where('recipient', '=', address)
    .where('event', '=', 'delivered')
    .orderBy('occurred_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.occurred_at) : null;
}

/**
 * GET /t/o/<token>: records `opened` for a valid token of a message with open tracking on.
 * Every open is an event (a reader who opens twice opened twice); `automated` says which ones a
 * proxy or prefetch made. Returns whether an event was written; a bad token records nothing.
 */
export async function recordOpen(deps: TrackingDeps, secret: Buffer, hit: TrackingHit): Promise<boolean> {
  const t = readToken(secret, 'open', hit.token);
  if (t === null) return false;
  const r = await loadTrackedRecipient(deps.db, t.recipientId);
  if (r === null || !r.trackOpens) return false;
  const verdict = classifyOpen(hit.userAgent, deps.clock.now(), await deliveredAt(deps, r.messageId, r.address));
  const details = {
    user_agent: hit.userAgent,
    ...(hit.ip !== null ? { ip: hit.ip } : {}),
    automated: verdict.automated,
    ...(verdict.reason !== undefined ? { automated_reason: verdict.reason } : {}),
    ...(verdict.proxy !== undefined ? { proxy: verdict.proxy } : {}),
  };
  return recordFeedback(deps, r, 'opened', details, hit.onceKey !== undefined ? [hit.onceKey] : []);
}

/**
 * GET /t/c/<token>: the original URL of a valid click token (null for a tampered, unsigned or
 * garbled one: never a redirect), and `clicked` recorded when the message had click tracking on.
 */
export async function recordClick(
  deps: TrackingDeps,
  secret: Buffer,
  hit: TrackingHit,
): Promise<{ url: string; recorded: boolean } | null> {
  const t = readToken(secret, 'click', hit.token);
  if (t === null) return null;
  const r = await loadTrackedRecipient(deps.db, t.recipientId);
  // A valid token's URL is one we signed: the link keeps working even when nothing is recorded.
  if (r === null || !r.trackClicks) return { url: t.payload, recorded: false };
  const details = { url: t.payload, user_agent: hit.userAgent, ...(hit.ip !== null ? { ip: hit.ip } : {}) };
  const recorded = await recordFeedback(deps, r, 'clicked', details, hit.onceKey !== undefined ? [hit.onceKey] : []);
  return { url: t.payload, recorded };
}
