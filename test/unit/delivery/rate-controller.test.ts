import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  afterSuccess,
  afterThrottle,
  burstOf,
  floorRate,
  ROUND_MS,
  type RateState,
} from '../../../src/delivery/rate-controller.js';
import { gcraStep } from '../../../src/rate-limit/rate-limiter.js';

const start: RateState = { rate: 600, decreasedAt: 0, increasedAt: 0 };
const T = 1_000_000;

test('a throttling reply halves the rate, at most once per round, never under the floor', () => {
  const once = afterThrottle(start, 600, T);
  assert.deepEqual(once, { rate: 300, decreasedAt: T, increasedAt: 0 });
  assert.equal(afterThrottle(once, 600, T + ROUND_MS - 1), once, 'the replies of one burst are one signal');
  const twice = afterThrottle(once, 600, T + ROUND_MS);
  assert.equal(twice.rate, 150);
  let s = start;
  for (let i = 0; i < 20; i++) s = afterThrottle(s, 600, T + i * ROUND_MS);
  assert.equal(s.rate, floorRate(600));
  assert.equal(floorRate(600), 600 / 64);
  assert.equal(floorRate(30), 1, 'never under one per minute');
  assert.equal(floorRate(0.5), 0.5, 'nor over the maximum');
});

test('a rate above a lowered maximum is halved from the maximum', () => {
  assert.equal(afterThrottle({ rate: 1200, decreasedAt: 0, increasedAt: 0 }, 600, T).rate, 300);
});

test('recovery: a tenth of the maximum per clean round after the last decrease, up to the maximum', () => {
  const low: RateState = { rate: 100, decreasedAt: T, increasedAt: 0 };
  assert.equal(afterSuccess(low, 600, T + ROUND_MS - 1), low, 'not within the round of a decrease');
  const up = afterSuccess(low, 600, T + ROUND_MS);
  assert.deepEqual(up, { rate: 160, decreasedAt: T, increasedAt: T + ROUND_MS });
  assert.equal(afterSuccess(up, 600, T + ROUND_MS + 5), up, 'one increase per round');
  let s = up;
  let rounds = 1;
  for (let t = T + 2 * ROUND_MS; s.rate < 600; t += ROUND_MS, rounds++) s = afterSuccess(s, 600, t);
  assert.equal(s.rate, 600);
  assert.equal(rounds, 9, 'from 100 to 600 per minute: nine clean rounds of 60 more (the last capped)');
  assert.equal(afterSuccess(s, 600, T + 100 * ROUND_MS), s, 'at the maximum nothing changes');
});

test('AIMD: under a throttling reply every other round the rate settles well below the maximum; without, it returns to it', () => {
  let s = start;
  const rates: number[] = [];
  for (let round = 0; round < 40; round++) {
    const t = T + round * ROUND_MS;
    s = round % 2 === 0 ? afterThrottle(s, 600, t) : afterSuccess(s, 600, t + 1);
    rates.push(s.rate);
  }
  assert.ok(Math.max(...rates.slice(20)) < 200, rates.join(','));
  for (let round = 40; round < 60; round++) s = afterSuccess(s, 600, T + round * ROUND_MS);
  assert.equal(s.rate, 600);
});

test('burst: one second of the rate, at least one', () => {
  assert.equal(burstOf(1200), 20);
  assert.equal(burstOf(60), 1);
  assert.equal(burstOf(5), 1);
});

test('the pace (GCRA with a burst and a cost): a burst, then one interval per unit; a group takes its size', () => {
  const perSecond = 1; // 60 per minute
  let tat: number | undefined;
  const taken: number[] = [];
  for (let now = 0; now < 10_000; now += 250) {
    const step = gcraStep(tat, perSecond, now, { burst: 2 });
    if (step.ok) {
      tat = step.tat;
      taken.push(now);
    }
  }
  assert.deepEqual(taken.slice(0, 3), [0, 250, 1000]);
  assert.equal(taken.length, 11, 'two at once, then one a second');
  const group = gcraStep(undefined, perSecond, 0, { burst: 1, cost: 5 });
  assert.equal(group.ok, true, 'a group larger than the burst still goes after a pause');
  const after = gcraStep(group.tat, perSecond, 1000, { burst: 1 });
  assert.deepEqual([after.ok, after.waitMs], [false, 4000]);
});
