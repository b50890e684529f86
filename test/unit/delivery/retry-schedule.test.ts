import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextRetry, type RetryDecision } from '../../../src/delivery/retry-schedule.js';
import { CONFIG_SCHEMA } from '../../../src/config/schema.js';
import { parseDuration, parseDurations } from '../../../src/config/parse-value.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

/** The shipped defaults, read from the config schema so this test walks what operators get. */
function defaultOf(key: 'retrySchedule' | 'maxQueueLifetime'): unknown {
  const entry = CONFIG_SCHEMA.find((e) => e.key === key);
  assert.ok(entry, key);
  return entry.default({});
}
const DEFAULT_SCHEDULE = defaultOf('retrySchedule') as number[];
const DEFAULT_LIFETIME = defaultOf('maxQueueLifetime') as number;

/** Every retry time from a first attempt at `t0`, each attempt ending the moment it starts, until give-up. */
function walk(schedule: number[], maxLifetime: number, t0 = 1_700_000_000_000): number[] {
  const retries: number[] = [];
  let now = t0;
  for (let attempts = 1; attempts < 10_000; attempts++) {
    const next: RetryDecision = nextRetry({ attempts, firstAttemptAt: t0, now, schedule, maxLifetime });
    if (next.kind === 'give_up') return retries.map((at) => at - t0);
    retries.push(next.at);
    now = next.at;
  }
  throw new Error('never gave up');
}

test('the default schedule is 1m, 5m, 15m, 30m, 1h, 2h, 4h, then 4h until 72h', () => {
  assert.deepEqual(
    DEFAULT_SCHEDULE,
    [1, 5, 15, 30, 60, 120, 240].map((m) => m * MIN),
  );
  assert.equal(DEFAULT_LIFETIME, 72 * HOUR);
  const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((attempts) => {
    const next = nextRetry({
      attempts,
      firstAttemptAt: 0,
      now: 0,
      schedule: DEFAULT_SCHEDULE,
      maxLifetime: DEFAULT_LIFETIME,
    });
    return next.kind === 'retry' ? next.at / MIN : next.kind;
  });
  assert.deepEqual(delays, [1, 5, 15, 30, 60, 120, 240, 240, 240]);
});

test('a recipient that keeps deferring is retried 23 times over 72h, then given up on', () => {
  const retries = walk(DEFAULT_SCHEDULE, DEFAULT_LIFETIME);
  // 7 climbing steps take 7h51m; 16 more 4h steps reach 71h51m; the next would land at 75h51m.
  assert.equal(retries.length, 23);
  assert.deepEqual(
    retries.slice(0, 8).map((t) => t / MIN),
    [1, 6, 21, 51, 111, 231, 471, 711],
  );
  assert.equal(retries.at(-1), 71 * HOUR + 51 * MIN);
  assert.ok(retries.every((t) => t <= DEFAULT_LIFETIME));
});

test('the last step repeats however many attempts there have been', () => {
  for (const attempts of [3, 4, 50, 1000]) {
    assert.deepEqual(nextRetry({ attempts, firstAttemptAt: 0, now: 10, schedule: [5, 7, 11], maxLifetime: 1e12 }), {
      kind: 'retry',
      at: 21,
    });
  }
  assert.deepEqual(nextRetry({ attempts: 2, firstAttemptAt: 0, now: 10, schedule: [5, 7, 11], maxLifetime: 1e12 }), {
    kind: 'retry',
    at: 17,
  });
});

test('the delay counts from the end of the attempt, not from when it was due', () => {
  const slow = nextRetry({ attempts: 1, firstAttemptAt: 0, now: 30_000, schedule: [MIN], maxLifetime: HOUR });
  assert.deepEqual(slow, { kind: 'retry', at: 90_000 });
});

test('a retry due exactly at the lifetime boundary happens; one millisecond later is a give-up', () => {
  const base = { attempts: 10, firstAttemptAt: 1_000, schedule: [4 * HOUR], maxLifetime: 72 * HOUR };
  assert.deepEqual(nextRetry({ ...base, now: 1_000 + 68 * HOUR }), { kind: 'retry', at: 1_000 + 72 * HOUR });
  assert.deepEqual(nextRetry({ ...base, now: 1_000 + 68 * HOUR + 1 }), { kind: 'give_up' });
  assert.deepEqual(nextRetry({ ...base, now: 1_000 + 80 * HOUR }), { kind: 'give_up' });
});

test('a test schedule of 1s steps with a 20s lifetime retries every second, 20 times', () => {
  const retries = walk(parseDurations('1s'), parseDuration('20s'));
  assert.deepEqual(
    retries,
    Array.from({ length: 20 }, (_, i) => (i + 1) * 1000),
  );
});

test('a lifetime shorter than the first step gives up at once', () => {
  assert.deepEqual(nextRetry({ attempts: 1, firstAttemptAt: 0, now: 0, schedule: [MIN], maxLifetime: 30_000 }), {
    kind: 'give_up',
  });
});

test('an empty schedule or a count below 1 is a caller bug', () => {
  assert.throws(
    () => nextRetry({ attempts: 1, firstAttemptAt: 0, now: 0, schedule: [], maxLifetime: HOUR }),
    RangeError,
  );
  assert.throws(
    () => nextRetry({ attempts: 0, firstAttemptAt: 0, now: 0, schedule: [MIN], maxLifetime: HOUR }),
    RangeError,
  );
  assert.throws(
    () => nextRetry({ attempts: 1.5, firstAttemptAt: 0, now: 0, schedule: [MIN], maxLifetime: HOUR }),
    RangeError,
  );
});
