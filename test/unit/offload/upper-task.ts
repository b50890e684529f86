// A task module for offload-pool.test.ts: what a feature's task looks like to the pool.

/** The input's bytes upper-cased (ASCII), as a new buffer the worker hands back transferred. */
export function upper(input: { text: Uint8Array }): Uint8Array {
  return Buffer.from(Buffer.from(input.text).toString('latin1').toUpperCase(), 'latin1');
}

/** Whether this ran off the main thread. */
export async function onWorkerThread(): Promise<boolean> {
  const { isMainThread } = await import('node:worker_threads');
  return !isMainThread;
}
