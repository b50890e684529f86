import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createBodyBudget, SMALL_BODY } from '../../../src/http/body-guard.js';

test('large bodies fill at most the budget less the small share; small ones still get the rest', () => {
  const budget = createBodyBudget(1_000_000, 200_000);
  assert.equal(budget.tryReserve(500_000), true);
  assert.equal(budget.tryReserve(300_000), true);
  // 800,000 large bytes held: one more large body would eat into the small share.
  assert.equal(budget.tryReserve(SMALL_BODY), false);
  // Small bodies use the share, up to the whole budget.
  assert.equal(budget.tryReserve(SMALL_BODY - 1), true);
  assert.equal(budget.tryReserve(SMALL_BODY - 1), true);
  assert.equal(budget.tryReserve(SMALL_BODY - 1), true);
  assert.equal(budget.tryReserve(SMALL_BODY - 1), false);
  assert.equal(budget.inFlight(), 800_000 + 3 * (SMALL_BODY - 1));
  // A large body released makes room for large ones again.
  budget.release(300_000);
  assert.equal(budget.tryReserve(100_000), true);
  assert.equal(budget.inFlight(), 600_000 + 3 * (SMALL_BODY - 1));
});

test('a chunked body whose chunks are small but which has grown large counts against the large part', () => {
  const budget = createBodyBudget(100_000, 40_000);
  // Chunks of a body already past SMALL_BODY are reserved as large, whatever their own size.
  let taken = 0;
  while (budget.tryReserve(1_000, true)) taken += 1_000;
  assert.equal(taken, 60_000);
  // The small share is still there for small requests.
  assert.equal(budget.tryReserve(30_000), true);
  budget.release(taken, true);
  budget.release(30_000);
  assert.equal(budget.inFlight(), 0);
  assert.equal(budget.tryReserve(60_000, true), true);
});

test('with no small share (the default), one pool for every body', () => {
  const budget = createBodyBudget(100_000);
  assert.equal(budget.tryReserve(90_000), true);
  assert.equal(budget.tryReserve(10_000), true);
  assert.equal(budget.tryReserve(1), false);
});
