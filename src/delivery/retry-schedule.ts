/** When to try a soft-bouncing recipient again, or that it is time to give up: soft bounces are retried with backoff until the queue lifetime ends. */
export type RetryDecision = { kind: 'retry'; at: number } | { kind: 'give_up' };

export interface RetryInput {
  /** Attempts already made, the one that just deferred included (≥ 1). */
  attempts: number;
  /** When the first attempt was made (ms since the epoch). */
  firstAttemptAt: number;
  /** When the attempt that just deferred ended. */
  now: number;
  /** POSTHORN_RETRY_SCHEDULE in ms; the delay after attempt n is step n, and the last step repeats. */
  schedule: readonly number[];
  /** POSTHORN_MAX_QUEUE_LIFETIME in ms (72 h by default). */
  maxLifetime: number;
}

/**
 * The next retry: `now` plus schedule[min(attempts − 1, last)], unless that lands after
 * firstAttemptAt + maxLifetime, in which case the recipient is given up on (`failed`). A retry due
 * exactly at the deadline still happens. Throws on an empty schedule or attempts < 1 (caller bugs).
 *
 * No jitter, by choice: the delay is a pure function of the inputs, so event timelines and tests
 * are exact, and recipients that deferred together are paced by the delivery workers' claim
 * batches and per-host connection limits, not by scattering their due times.
 */
export function nextRetry(input: RetryInput): RetryDecision {
  const { attempts, firstAttemptAt, now, schedule, maxLifetime } = input;
  if (schedule.length === 0) throw new RangeError('retry schedule has no steps');
  if (!Number.isInteger(attempts) || attempts < 1)
    throw new RangeError(`attempts must be a whole number ≥ 1, got ${attempts}`);
  const delay = schedule[Math.min(attempts - 1, schedule.length - 1)] as number;
  const at = now + delay;
  return at > firstAttemptAt + maxLifetime ? { kind: 'give_up' } : { kind: 'retry', at };
}
