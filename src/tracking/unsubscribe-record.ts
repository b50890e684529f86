import type { Deps } from '../deps.js';
import { loadTrackedRecipient, recordFeedback } from './recipient.js';
import { readToken } from './token.js';

/** The outcome of an unsubscribe POST: recorded now, recorded before, or a token that is not ours. */
export type UnsubscribeResult = { kind: 'recorded' | 'already'; address: string } | { kind: 'invalid' };

/** The recipient an unsubscribe token names (for the confirmation page), or null for a bad token. */
export async function unsubscribeTarget(
  deps: Pick<Deps, 'db'>,
  secret: Buffer,
  token: string,
): Promise<{ address: string } | null> {
  const t = readToken(secret, 'unsubscribe', token);
  if (t === null) return null;
  const r = await loadTrackedRecipient(deps.db, t.recipientId);
  return r === null ? null : { address: r.address };
}

/**
 * POST /u/<token> (RFC 8058 §3.2 one-click, or the confirmation page's button): records
 * `unsubscribed`, which the event writer turns into a suppression (reason `unsubscribed`;
 * docs/tracking.md). Idempotent: the key `unsubscribed:<recipient id>` is taken in the same
 * transaction, so a repeat writes nothing.
 */
export async function recordUnsubscribe(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  secret: Buffer,
  hit: { token: string; userAgent: string; method: 'one-click' | 'page' },
): Promise<UnsubscribeResult> {
  const t = readToken(secret, 'unsubscribe', hit.token);
  if (t === null) return { kind: 'invalid' };
  const r = await loadTrackedRecipient(deps.db, t.recipientId);
  if (r === null) return { kind: 'invalid' };
  const recorded = await recordFeedback(deps, r, 'unsubscribed', { method: hit.method, user_agent: hit.userAgent }, [
    `unsubscribed:${r.recipientId}`,
  ]);
  return { kind: recorded ? 'recorded' : 'already', address: r.address };
}
