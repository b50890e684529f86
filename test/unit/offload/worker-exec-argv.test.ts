// The flags worker threads get (src/offload/worker-exec-argv.ts), shared by the DKIM signer
// threads (src/delivery/dkim/signer-pool.ts) and the offload pool (src/offload/offload-pool.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
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
    ]),
    ['--require', '/x/preflight.cjs', '--import', 'file:///x/loader.mjs', '--max-old-space-size=512'],
  );
});
