import type { Deps } from '../deps.js';
import { RefusedError } from '../core/refused-error.js';
import { findMessage } from '../messages/message-view.js';
import { shownStatus, type RecipientStatusName } from '../messages/recipient-status.js';
import type { Provider } from '../delivery/providers.js';
import { queueDomain, queueProvider, type QueueScope } from './queue-scope.js';
import { providerNames } from '../delivery/providers.js';

/** Where a job stands (docs/delivery.md, Listing the queue). */
export const QUEUE_STATUSES = ['queued', 'deferred', 'scheduled', 'suspended'] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

/** One recipient's delivery job as the queue lists it. */
export interface QueueJob {
  id: string;
  message_id: string;
  recipient: string;
  domain: string;
  /** Mailbox provider of the MX host last tried; null before a route was resolved. */
  provider: Provider | null;
  /**
   * `queued` (not tried yet), `deferred` (tried, to be tried again), `scheduled` (its send time is
   * ahead), `suspended` (pushed back by a hold, waiting for it to end).
   */
  status: QueueStatus;
  attempts: number;
  next_attempt_at: string;
  /** The last temporary failure (the remote reply, or why no server was reached); null before one. */
  last_reply: string | null;
  /** The message's send time when it was scheduled, else null. */
  send_at: string | null;
  /** True while a delivery worker holds the job (an attempt is running). */
  in_attempt: boolean;
}

export interface QueueFilter {
  domain?: string;
  provider?: string;
  status?: QueueStatus;
  limit: number;
  cursor?: string;
}

/** The opaque cursor of a queue page: the last job's id (ids are time-ordered, so the order is acceptance order). */
function encodeCursor(id: string): string {
  return Buffer.from(id).toString('base64url');
}

function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^job_[0-9A-Z]{26}$/.test(id))
    throw new RefusedError('invalid', 'cursor is not one this API returned; pass next_cursor as it came', {
      field: 'cursor',
    });
  return id;
}

/** `status` of a filter: one of QUEUE_STATUSES, else refused naming `status`. */
export function queueStatus(value: string): QueueStatus {
  if (!(QUEUE_STATUSES as readonly string[]).includes(value))
    throw new RefusedError(
      'invalid',
      `status must be one of ${QUEUE_STATUSES.join(', ')}, got ${JSON.stringify(value.slice(0, 40))}`,
      {
        field: 'status',
      },
    );
  return value as QueueStatus;
}

function statusOf(row: { held: string | null; attempts: number; send_at: number | null }, now: number): QueueStatus {
  if (row.held !== null) return 'suspended';
  if (row.attempts === 0 && row.send_at !== null && Number(row.send_at) > now) return 'scheduled';
  return row.attempts > 0 ? 'deferred' : 'queued';
}

function baseQuery(deps: Pick<Deps, 'db'>, scope: QueueScope) {
  let q = deps.db
    .selectFrom('jobs as j')
    .innerJoin('recipients as r', 'r.id', 'j.recipient_id')
    .innerJoin('messages as m', 'm.id', 'j.message_id')
    .where('j.kind', '=', 'deliver')
    .select([
      'j.id',
      'j.message_id',
      'r.address',
      'r.domain',
      'j.provider',
      'j.held',
      'j.attempts',
      'j.run_at',
      'j.last_error',
      'j.locked_by',
      'j.locked_until',
      'm.send_at',
    ]);
  if ('accountId' in scope) q = q.where('m.account_id', '=', scope.accountId);
  return q;
}

type Row = Awaited<ReturnType<ReturnType<typeof baseQuery>['execute']>>[number];

function toJob(r: Row, now: number): QueueJob {
  const sendAt = r.send_at === null || r.send_at === undefined ? null : Number(r.send_at);
  return {
    id: r.id,
    message_id: r.message_id,
    recipient: r.address,
    domain: r.domain,
    provider: (r.provider ?? null) as Provider | null,
    status: statusOf({ held: r.held ?? null, attempts: Number(r.attempts), send_at: sendAt }, now),
    attempts: Number(r.attempts),
    next_attempt_at: new Date(Number(r.run_at)).toISOString(),
    last_reply: r.last_error,
    send_at: sendAt === null ? null : new Date(sendAt).toISOString(),
    in_attempt: r.locked_by !== null && r.locked_until !== null && Number(r.locked_until) > now,
  };
}

/**
 * The delivery jobs not finished yet, oldest accepted first, filtered and paged (`GET /v1/queue`,
 * `posthorn queue list`). Filters combine.
 */
export async function listQueue(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  scope: QueueScope,
  filter: QueueFilter,
): Promise<{ jobs: QueueJob[]; next_cursor: string | null }> {
  const now = deps.clock.now();
  let q = baseQuery(deps, scope);
  if (filter.domain !== undefined) q = q.where('r.domain', '=', queueDomain(filter.domain));
  if (filter.provider !== undefined)
    q = q.where('j.provider', '=', queueProvider(filter.provider, providerNames(deps.config)));
  switch (filter.status) {
    case undefined:
      break;
    case 'suspended':
      q = q.where('j.held', 'is not', null);
      break;
    case 'scheduled':
      q = q.where('j.held', 'is', null).where('j.attempts', '=', 0).where('m.send_at', '>', now);
      break;
    case 'queued':
      q = q
        .where('j.held', 'is', null)
        .where('j.attempts', '=', 0)
        .where((eb) => eb.or([eb('m.send_at', 'is', null), eb('m.send_at', '<=', now)]));
      break;
    case 'deferred':
      q = q.where('j.held', 'is', null).where('j.attempts', '>', 0);
      break;
  }
  if (filter.cursor !== undefined) q = q.where('j.id', '>', decodeCursor(filter.cursor));
  const rows = await q
    .orderBy('j.id')
    .limit(filter.limit + 1)
    .execute();
  const more = rows.length > filter.limit;
  const shown = more ? rows.slice(0, filter.limit) : rows;
  const last = shown[shown.length - 1];
  return { jobs: shown.map((r) => toJob(r, now)), next_cursor: more && last ? encodeCursor(last.id) : null };
}

/** One message's queue state (`GET /v1/queue/{message_id}`, `posthorn queue show`). */
export interface MessageQueue {
  message_id: string;
  send_at: string | null;
  /** Every recipient: its status (as GET /v1/messages shows it) and its job while one is left. */
  recipients: { address: string; status: RecipientStatusName; job: QueueJob | null }[];
}

/** The queue state of message `idText` as `scope` may see it; 404 for another account's or an unknown one. */
export async function showQueue(
  deps: Pick<Deps, 'db' | 'clock'>,
  scope: QueueScope,
  idText: string,
): Promise<MessageQueue> {
  const head = await findMessage(deps, 'any' in scope ? { any: true } : scope, idText);
  const now = deps.clock.now();
  const [recipients, jobs, message] = await Promise.all([
    deps.db
      .selectFrom('recipients')
      .select(['id', 'address', 'status'])
      .where('message_id', '=', head.id)
      .orderBy('id')
      .execute(),
    baseQuery(deps, scope).where('j.message_id', '=', head.id).select('j.recipient_id').execute(),
    deps.db.selectFrom('messages').select('send_at').where('id', '=', head.id).executeTakeFirst(),
  ]);
  const byRecipient = new Map(jobs.map((j) => [j.recipient_id, toJob(j, now)]));
  const sendAt = message?.send_at ?? null;
  return {
    message_id: head.id,
    send_at: sendAt === null ? null : new Date(Number(sendAt)).toISOString(),
    recipients: recipients.map((r) => ({
      address: r.address,
      status: shownStatus(r.status),
      job: byRecipient.get(r.id) ?? null,
    })),
  };
}
