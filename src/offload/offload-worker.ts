/**
 * An offload worker thread (offload-pool.ts): runs one task at a time for piscina, calling the
 * function the task names. Bytes go back transferred, not copied. Loaded through
 * offload-worker-entry.js, which makes sure tsx is active in this thread.
 */
import { Piscina, transferableSymbol, valueSymbol } from 'piscina';
import { isTransferring, taskFunction, type OffloadTask } from './offload-pool.js';

export default async function offloadTask(task: OffloadTask): Promise<unknown> {
  const result = await (await taskFunction(task))(task.input);
  if (isTransferring(result))
    return Piscina.move({ [transferableSymbol]: result.buffers, [valueSymbol]: result.value });
  if (!(result instanceof Uint8Array)) return result;
  // Only a buffer that owns its whole ArrayBuffer is transferred: a slice of Buffer's shared pool would take the pool with it.
  const own =
    result.byteOffset === 0 && result.byteLength === result.buffer.byteLength
      ? result
      : Uint8Array.prototype.slice.call(result);
  return Piscina.move(own);
}
