import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ByteGate } from '../../../src/offload/offload-pool.js';

test('admits while the bytes fit, then in arrival order as bytes are released', async () => {
  const gate = new ByteGate(10);
  const a = await gate.acquire(6)!;
  const order: string[] = [];
  const b = gate.acquire(6)!.then((r) => {
    order.push('b');
    return r;
  });
  // c would fit now (6 + 3 <= 10) but arrived after b: it waits behind it, so b is not starved.
  const c = gate.acquire(3)!.then((r) => {
    order.push('c');
    return r;
  });
  await Promise.resolve();
  assert.deepEqual(order, []);
  assert.equal(gate.waiting, 2);
  a();
  const releaseB = await b;
  const releaseC = await c;
  assert.deepEqual(order, ['b', 'c']);
  assert.equal(gate.inFlight, 9);
  releaseB();
  releaseB(); // a second call changes nothing
  releaseC();
  assert.equal(gate.inFlight, 0);
});

test('a request larger than the budget goes alone when nothing else holds bytes', async () => {
  const gate = new ByteGate(10);
  const big = await gate.acquire(25)!;
  assert.equal(gate.inFlight, 25);
  let small = false;
  const next = gate.acquire(1)!.then((r) => {
    small = true;
    return r;
  });
  await Promise.resolve();
  assert.equal(small, false);
  big();
  (await next)();
  assert.equal(gate.inFlight, 0);
});

test('with maxWaiting callers waiting, acquire refuses at once (null)', async () => {
  const gate = new ByteGate(1, 1);
  const first = await gate.acquire(1)!;
  const second = gate.acquire(1);
  assert.notEqual(second, null);
  assert.equal(gate.acquire(1), null);
  first();
  (await second!)();
});
