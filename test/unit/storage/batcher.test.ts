import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createBatcher } from '../../../src/storage/batcher.js';

/** A promise with its resolve exposed, so a test decides when a flush ends. */
interface Gate {
  promise: Promise<void>;
  resolve(): void;
}

function deferred(): Gate {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  return { promise, resolve: () => resolve() };
}

/** Resolves once `check` holds, polling each turn of the event loop; fails after `ms`. */
async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('batcher (group commit)', () => {
  test('items submitted in the same turn share one flush, and each caller gets its own result in order', async () => {
    const batches: number[][] = [];
    const sizes: number[] = [];
    const b = createBatcher<number, string>(
      async (items) => {
        batches.push(items);
        return items.map((i) => `r${i}`);
      },
      { maxBatch: 100, concurrency: 1, onBatch: (n) => sizes.push(n) },
    );
    const results = await Promise.all([1, 2, 3, 4, 5].map((i) => b.submit(i)));
    assert.deepEqual(results, ['r1', 'r2', 'r3', 'r4', 'r5']);
    assert.deepEqual(batches, [[1, 2, 3, 4, 5]], 'one flush for the whole turn');
    assert.deepEqual(sizes, [5], 'onBatch reports each flush size');
  });

  test('a batch is at most maxBatch items; the rest go to the next flushes', async () => {
    const batches: number[][] = [];
    const b = createBatcher<number, number>(
      async (items) => {
        batches.push(items);
        return items.map((i) => i * 10);
      },
      { maxBatch: 4, concurrency: 1 },
    );
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => b.submit(i)));
    assert.deepEqual(
      results,
      Array.from({ length: 10 }, (_, i) => i * 10),
    );
    assert.deepEqual(
      batches.map((x) => x.length),
      [4, 4, 2],
    );
    assert.deepEqual(
      batches.flat(),
      Array.from({ length: 10 }, (_, i) => i),
      'submission order is kept across batches',
    );
  });

  test('items that arrive while a flush runs wait for it and then go together in the next one', async () => {
    const batches: number[][] = [];
    const gates: Gate[] = [];
    const b = createBatcher<number, number>(
      async (items) => {
        batches.push(items);
        const g = deferred();
        gates.push(g);
        await g.promise;
        return items;
      },
      { maxBatch: 100, concurrency: 1 },
    );
    const first = b.submit(1);
    await until(() => batches.length === 1, 'the first flush to start');
    const later = [2, 3, 4].map((i) => b.submit(i));
    // Several turns pass while the first flush is held: the waiting items must not start a second flush.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(batches.length, 1, 'concurrency 1: no second flush while the first runs');
    gates[0]?.resolve();
    assert.equal(await first, 1);
    await until(() => batches.length === 2, 'the second flush');
    assert.deepEqual(batches[1], [2, 3, 4]);
    gates[1]?.resolve();
    assert.deepEqual(await Promise.all(later), [2, 3, 4]);
  });

  test('never runs more than `concurrency` flushes at once', async () => {
    let running = 0;
    let most = 0;
    const gates: Gate[] = [];
    const b = createBatcher<number, number>(
      async (items) => {
        running++;
        most = Math.max(most, running);
        const g = deferred();
        gates.push(g);
        await g.promise;
        running--;
        return items;
      },
      { maxBatch: 1, concurrency: 3 },
    );
    const all = Promise.all(Array.from({ length: 7 }, (_, i) => b.submit(i)));
    await until(() => gates.length === 3, 'three flushes to start');
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(gates.length, 3, 'a fourth flush waits for a free slot');
    // Free the slots one by one until every item was flushed.
    for (let opened = 0; opened < 7; opened++) {
      await until(() => gates.length > opened, `flush ${opened + 1} to start`);
      gates[opened]?.resolve();
    }
    assert.deepEqual(await all, [0, 1, 2, 3, 4, 5, 6]);
    assert.equal(most, 3);
  });

  test('a failing flush rejects every caller of that batch with its error, and later batches still run', async () => {
    let calls = 0;
    const boom = new Error('disk full');
    const b = createBatcher<string, string>(
      async (items) => {
        calls++;
        if (calls === 1) throw boom;
        return items.map((s) => s.toUpperCase());
      },
      { maxBatch: 100, concurrency: 1 },
    );
    const failed = await Promise.allSettled(['a', 'b', 'c'].map((s) => b.submit(s)));
    assert.deepEqual(
      failed.map((r) => r.status),
      ['rejected', 'rejected', 'rejected'],
    );
    for (const r of failed)
      assert.equal((r as PromiseRejectedResult).reason, boom, 'each waiter sees the flush error itself');
    assert.equal(await b.submit('d'), 'D', 'the batcher goes on after a failed flush');
    await b.drain();
  });

  test('drain resolves at once when idle, else only when nothing is queued or in flight', async () => {
    const gates: Gate[] = [];
    const b = createBatcher<number, number>(
      async (items) => {
        const g = deferred();
        gates.push(g);
        await g.promise;
        return items;
      },
      { maxBatch: 1, concurrency: 1 },
    );
    await b.drain();
    const submitted = [b.submit(1), b.submit(2)];
    let drained = false;
    const draining = b.drain().then(() => {
      drained = true;
    });
    await until(() => gates.length === 1, 'the first flush');
    gates[0]?.resolve();
    await until(() => gates.length === 2, 'the second flush');
    assert.equal(drained, false, 'an item is still in flight');
    gates[1]?.resolve();
    await draining;
    assert.deepEqual(await Promise.all(submitted), [1, 2]);
  });

  test('drain also waits out a failing flush', async () => {
    const b = createBatcher<number, number>(
      async () => {
        throw new Error('no');
      },
      { maxBatch: 10, concurrency: 1 },
    );
    const p = b.submit(1).catch((e: unknown) => e);
    await b.drain();
    assert.equal(((await p) as Error).message, 'no');
  });
});
