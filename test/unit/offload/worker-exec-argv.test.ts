// The flags worker threads get (src/offload/worker-exec-argv.ts), shared by the DKIM signer
// threads (src/delivery/dkim/signer-pool.ts) and the offload pool (src/offload/offload-pool.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { workerExecArgv } from '../../../src/offload/worker-exec-argv.js';

test("workers get this process's flags less those that pick the main thread's entry", () => {
  assert.deepEqual(
    workerExecArgv([
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      'code()',
      '--enable-source-maps',
      '--test',
      '--test-reporter',
      'spec',
      '--test-concurrency=2',
      '--conditions=dev',
      '--watch',
    ]),
    ['--import', 'tsx', '--enable-source-maps', '--conditions=dev'],
  );
});

test('per-process flags are not passed on (Node 24 gives test files every default as execArgv)', () => {
  assert.deepEqual(
    workerExecArgv([
      '--test-concurrency=0',
      '--stack-trace-limit=10',
      '--v8-pool-size=4',
      '--tls-cipher-list=HIGH',
      '--node-snapshot',
      '--secure-heap=0',
      '--require',
      '/x/preflight.cjs',
      '--import',
      'file:///x/loader.mjs',
      '--max-old-space-size=512',
      '--max-semi-space-size',
      '4',
      '--stack-size=2000',
    ]),
    ['--require', '/x/preflight.cjs', '--import', 'file:///x/loader.mjs'],
  );
});

test('a worker starts with the flags of a process run with V8 heap options', async () => {
  // Node refuses V8 options in a worker's execArgv (ERR_WORKER_INVALID_EXEC_ARGV): the worker
  // itself is the check, so a flag Node starts to refuse or to accept shows here.
  const execArgv = workerExecArgv(['--max-old-space-size=1536', '--max-semi-space-size=4', '--enable-source-maps']);
  const worker = new Worker("require('node:worker_threads').parentPort.postMessage('up')", { eval: true, execArgv });
  const [message] = (await once(worker, 'message')) as [string];
  assert.equal(message, 'up');
  await worker.terminate();
});
