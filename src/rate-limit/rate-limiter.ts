/** Outcome of asking for one unit of a rate limit. */
export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number };

/**
 * A per-key rate limit of `perSecond` with a burst of the same size. The memory implementation
 * serves SQLite (one process holds all state); PostgreSQL deployments use the database one, so
 * the limit is shared by every node (docs/architecture.md, Roles).
 */
export interface RateLimiter {
  take(key: string, perSecond: number, now: number, opts?: TakeOptions): Promise<RateDecision>;
}

/** A burst other than `perSecond`, and units taken at once (delivery pacing: delivery/provider-gate.ts). */
export interface TakeOptions {
  /** Units allowed at once after a pause; default `perSecond`, at least `cost`. */
  burst?: number;
  /** Units this request takes; default 1. */
  cost?: number;
}

/**
 * The Generic Cell Rate Algorithm: one timestamp per key (the theoretical arrival time), no
 * timers. A request is allowed while the TAT is at most (burst - 1) intervals ahead of now.
 */
export function gcraStep(
  tat: number | undefined,
  perSecond: number,
  now: number,
  opts: TakeOptions = {},
): { ok: boolean; tat: number; waitMs: number } {
  const cost = opts.cost ?? 1;
  const interval = 1000 / perSecond;
  const tolerance = interval * (Math.max(opts.burst ?? perSecond, cost) - cost);
  const current = tat === undefined || tat < now ? now : tat;
  const allowAt = current - tolerance;
  if (now < allowAt) return { ok: false, tat: current, waitMs: allowAt - now };
  return { ok: true, tat: current + interval * cost, waitMs: 0 };
}

/** In-process GCRA limiter; forgets keys whose TAT has passed so memory stays bounded. */
export function createMemoryRateLimiter(): RateLimiter {
  const tats = new Map<string, number>();
  let lastSweep = 0;
  return {
    async take(key, perSecond, now, opts) {
      if (now - lastSweep > 60_000) {
        for (const [k, t] of tats) if (t < now) tats.delete(k);
        lastSweep = now;
      }
      const step = gcraStep(tats.get(key), perSecond, now, opts);
      if (!step.ok) return { ok: false, retryAfterMs: step.waitMs };
      tats.set(key, step.tat);
      return { ok: true };
    },
  };
}
