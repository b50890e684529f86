/**
 * Group commit: items submitted while a flush is running, or
 * within the same event-loop turn, are handed to `flush` together, so many requests share one
 * transaction and one fsync. `flush` returns one result per item, in order.
 */
export interface Batcher<I, R> {
  submit(item: I): Promise<R>;
  /** Resolves when nothing is queued or in flight (used by graceful shutdown and tests). */
  drain(): Promise<void>;
}

interface Pending<I, R> {
  item: I;
  resolve: (r: R) => void;
  reject: (e: unknown) => void;
}

/** Creates a batcher running at most `concurrency` flushes at once, each of at most `maxBatch` items. */
export function createBatcher<I, R>(
  flush: (items: I[]) => Promise<R[]>,
  opts: { maxBatch: number; concurrency: number; onBatch?: (size: number) => void },
): Batcher<I, R> {
  let queue: Pending<I, R>[] = [];
  let running = 0;
  let scheduled = false;
  let idle: (() => void)[] = [];

  const settleIdle = () => {
    if (queue.length === 0 && running === 0) {
      const waiters = idle;
      idle = [];
      for (const w of waiters) w();
    }
  };

  const run = async (batch: Pending<I, R>[]) => {
    running++;
    opts.onBatch?.(batch.length);
    try {
      const results = await flush(batch.map((p) => p.item));
      batch.forEach((p, i) => p.resolve(results[i] as R));
    } catch (err) {
      for (const p of batch) p.reject(err);
    } finally {
      running--;
      pump();
      settleIdle();
    }
  };

  function pump() {
    while (queue.length > 0 && running < opts.concurrency) {
      const batch = queue.slice(0, opts.maxBatch);
      queue = queue.slice(batch.length);
      void run(batch);
    }
  }

  return {
    submit(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          // Let every request that is already readable in this turn join the batch.
          setImmediate(() => {
            scheduled = false;
            pump();
          });
        }
      });
    },
    drain() {
      if (queue.length === 0 && running === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idle.push(resolve));
    },
  };
}
