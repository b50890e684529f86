import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../config/schema.js';
import type { Ids } from '../core/ids.js';
import type { Database, WebhookAttemptTable } from '../storage/database.js';
import { insertChunked } from '../storage/insert-chunked.js';
import type { ClaimedDelivery } from './claim-deliveries.js';
import { disableEndpoint } from './disable-endpoint.js';
import type { WebhookFailure, WebhookResponse } from './post-webhook.js';

/** One POST made for a claimed delivery. */
export interface AttemptResult {
  delivery: ClaimedDelivery;
  attemptedAt: number;
  result: WebhookResponse | WebhookFailure;
}

/** What happens to a delivery after an attempt (retried with backoff for about a day: docs/webhooks.md, Retries). */
export type AttemptOutcome = { kind: 'delivered' } | { kind: 'retry'; at: number } | { kind: 'failed' };

/** 2xx is success (Standard Webhooks); every other status, 3xx included (never followed), is a failure. */
export function isSuccess(result: WebhookResponse | WebhookFailure): boolean {
  return 'status' in result && result.status >= 200 && result.status < 300;
}

/**
 * After attempt number `attempts` (1-based) at `now`: delivered on 2xx; else retried after
 * schedule[attempts − 1] (POSTHORN_WEBHOOK_RETRY_SCHEDULE, 5s,5m,30m,2h,5h,10h,10h by default),
 * and given up as `failed` once every step is used (8 attempts by default, over about 27 hours).
 */
export function nextWebhookAttempt(
  success: boolean,
  attempts: number,
  now: number,
  schedule: readonly number[],
): AttemptOutcome {
  if (success) return { kind: 'delivered' };
  const delay = schedule[attempts - 1];
  return delay === undefined ? { kind: 'failed' } : { kind: 'retry', at: now + delay };
}

/**
 * Writes a batch of attempts in the caller's transaction: one delivery-log row each, the delivery's
 * new state (only while `workerId` still holds it), and the endpoints' health: a 2xx ends a run of
 * failures; a failure starts one (failing_since); an endpoint whose failures have lasted
 * POSTHORN_WEBHOOK_DISABLE_AFTER, or that answered 410 Gone, is disabled with a notice.
 */
export async function recordAttempts(
  trx: Transaction<Database> | Kysely<Database>,
  results: readonly AttemptResult[],
  deps: { config: Pick<Config, 'webhookRetrySchedule' | 'webhookDisableAfter'>; ids: Ids },
  workerId: string,
  now: number,
): Promise<void> {
  if (results.length === 0) return;
  const log: WebhookAttemptTable[] = [];
  const delivered: string[] = [];
  const failed: string[] = [];
  const retries = new Map<number, string[]>();
  const healthy = new Set<string>();
  const failingFrom = new Map<string, number>();
  const gone = new Set<string>();
  for (const { delivery, attemptedAt, result } of results) {
    const attempt = delivery.attempts + 1;
    const ok = isSuccess(result);
    log.push({
      id: deps.ids.next('wha', attemptedAt),
      delivery_id: delivery.id,
      endpoint_id: delivery.endpoint_id,
      attempt,
      attempted_at: attemptedAt,
      status: 'status' in result ? result.status : null,
      duration_ms: 'status' in result ? result.durationMs : null,
      response_snippet: 'status' in result ? result.responseSnippet : null,
      error: 'error' in result ? result.error : null,
    });
    const next = nextWebhookAttempt(ok, attempt, now, deps.config.webhookRetrySchedule);
    if (next.kind === 'delivered') delivered.push(delivery.id);
    else if (next.kind === 'failed') failed.push(delivery.id);
    else retries.set(next.at, [...(retries.get(next.at) ?? []), delivery.id]);
    if (ok) healthy.add(delivery.endpoint_id);
    else
      failingFrom.set(
        delivery.endpoint_id,
        Math.min(attemptedAt, failingFrom.get(delivery.endpoint_id) ?? attemptedAt),
      );
    if ('status' in result && result.status === 410) gone.add(delivery.endpoint_id);
  }
  await insertChunked(trx, 'webhook_attempts', log);
  const finish = (ids: string[], state: 'delivered' | 'failed') =>
    trx
      .updateTable('webhook_deliveries')
      .set((eb) => ({ state, attempts: eb('attempts', '+', 1), finished_at: now, locked_by: null, locked_until: null }))
      .where('id', 'in', ids)
      .where('locked_by', '=', workerId)
      .execute();
  if (delivered.length > 0) await finish(delivered, 'delivered');
  if (failed.length > 0) await finish(failed, 'failed');
  for (const [at, ids] of retries) {
    await trx
      .updateTable('webhook_deliveries')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: at, locked_by: null, locked_until: null }))
      .where('id', 'in', ids)
      .where('locked_by', '=', workerId)
      .execute();
  }
  if (healthy.size > 0) {
    await trx
      .updateTable('webhook_endpoints')
      .set({ failing_since: null })
      .where('id', 'in', [...healthy])
      .where('failing_since', 'is not', null)
      .execute();
  }
  // An endpoint with a success in this batch is not failing, whatever else it answered.
  const failing = [...failingFrom].filter(([id]) => !healthy.has(id));
  for (const [id, from] of failing) {
    await trx
      .updateTable('webhook_endpoints')
      .set({ failing_since: from })
      .where('id', '=', id)
      .where('failing_since', 'is', null)
      .execute();
  }
  const expired =
    failing.length === 0
      ? []
      : await trx
          .selectFrom('webhook_endpoints')
          .select(['id', 'failing_since'])
          .where(
            'id',
            'in',
            failing.map(([id]) => id),
          )
          .where('status', '=', 'active')
          .where('failing_since', '<=', now - deps.config.webhookDisableAfter)
          .execute();
  for (const id of gone) await disableEndpoint(trx, deps.ids, now, id, 'it answered 410 Gone');
  for (const e of expired) {
    if (gone.has(e.id)) continue;
    const since = new Date(Number(e.failing_since)).toISOString();
    await disableEndpoint(
      trx,
      deps.ids,
      now,
      e.id,
      `every attempt has failed since ${since}, longer than POSTHORN_WEBHOOK_DISABLE_AFTER`,
    );
  }
}
