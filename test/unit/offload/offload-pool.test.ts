// The offload pool (src/offload/offload-pool.ts) runs a task named by module and exported function,
// inline with 0 threads and on a worker thread otherwise, with the same result either way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createOffloadPool } from '../../../src/offload/offload-pool.js';

const TASK = new URL('./upper-task.js', import.meta.url).href;

for (const threads of [0, 1]) {
  test(`${threads} threads: the named function runs with the input, ${threads === 0 ? 'inline' : 'off the main thread'}`, async () => {
    const pool = createOffloadPool(threads);
    try {
      const out = (await pool.run({
        module: TASK,
        fn: 'upper',
        input: { text: Buffer.from('hello, pool') },
      })) as Uint8Array;
      assert.equal(Buffer.from(out).toString('latin1'), 'HELLO, POOL');
      assert.equal(await pool.run({ module: TASK, fn: 'onWorkerThread', input: null }), threads > 0);
      assert.equal(pool.offThread(), threads === 0 ? 0 : 2);
    } finally {
      await pool.close();
    }
  });

  test(`${threads} threads: a function the module does not export is refused by name`, async () => {
    const pool = createOffloadPool(threads);
    try {
      await assert.rejects(
        pool.run({ module: TASK, fn: 'missing', input: null }),
        /offload task missing is not exported/,
      );
    } finally {
      await pool.close();
    }
  });
}

test('threads must be an integer >= 0', () => {
  assert.throws(() => createOffloadPool(-1), /offload threads must be an integer >= 0/);
});
