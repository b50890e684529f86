/**
 * What became of one recipient of a message, as GET /v1/messages shows it (docs/api.md, Messages):
 * - `queued`: waiting for (or in) its first delivery attempt;
 * - `deferred`: an attempt failed temporarily and another is scheduled (`last_reply` says why);
 * - `delivered`: the recipient's server accepted it (a later complaint does not change that);
 * - `failed`: refused permanently, bounced later, or given up after the queue lifetime;
 * - `rejected`: never sent: no mail server for the domain, or refused before queueing for a reason
 *   other than suppression;
 * - `suppressed`: refused before queueing because the address is on the suppression list;
 * - `scheduled`: held until the send time it was given.
 */
export const RECIPIENT_STATUSES = [
  'queued',
  'deferred',
  'delivered',
  'failed',
  'rejected',
  'suppressed',
  'scheduled',
] as const;
export type RecipientStatusName = (typeof RECIPIENT_STATUSES)[number];

/** The stored `recipients.status` values each shown status stands for (`suppressed` has no row: see message-view.ts). */
export const STORED_STATUSES: Record<RecipientStatusName, readonly string[]> = {
  queued: ['queued', 'sending'],
  deferred: ['deferred'],
  // A complaint (feedback/apply-report.ts) comes after delivery; it is in the events.
  delivered: ['delivered', 'complained'],
  failed: ['failed'],
  rejected: ['rejected'],
  suppressed: [],
  scheduled: ['scheduled'],
};

const BY_STORED = new Map<string, RecipientStatusName>(
  Object.entries(STORED_STATUSES).flatMap(([shown, stored]) => stored.map((s) => [s, shown as RecipientStatusName])),
);

/**
 * The shown status of a stored one. A value this release does not know (written by a newer node
 * during a rolling upgrade) reads as `queued`: not finished, as far as this node can tell.
 */
export function shownStatus(stored: string): RecipientStatusName {
  return BY_STORED.get(stored) ?? 'queued';
}

/** The status of a recipient refused before queueing, from its `rejected-by-system` event's details. */
export function refusedStatus(details: Record<string, unknown>): RecipientStatusName {
  return details.reason === 'suppressed' ? 'suppressed' : 'rejected';
}
