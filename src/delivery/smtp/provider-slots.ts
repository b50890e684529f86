/**
 * A counting semaphore per mailbox provider: at most `limit` transactions at once to all of one
 * provider's hosts together (docs/delivery.md), as each host's pool caps its own sessions.
 * Callers beyond the limit wait in FIFO order.
 */
export class ProviderSlots {
  private readonly busy = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  /** Resolves when one of `provider`'s `limit` slots is ours; give it back with release(). */
  acquire(provider: string, limit: number): Promise<void> {
    const n = this.busy.get(provider) ?? 0;
    if (n < limit) {
      this.busy.set(provider, n + 1);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const queue = this.waiting.get(provider) ?? [];
      queue.push(resolve);
      this.waiting.set(provider, queue);
    });
  }

  /** Hands the slot to the first waiter, or frees it. */
  release(provider: string): void {
    const queue = this.waiting.get(provider);
    const next = queue?.shift();
    if (queue !== undefined && queue.length === 0) this.waiting.delete(provider);
    if (next !== undefined) return next();
    const n = (this.busy.get(provider) ?? 1) - 1;
    if (n <= 0) this.busy.delete(provider);
    else this.busy.set(provider, n);
  }
}
