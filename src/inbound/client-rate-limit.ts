/**
 * Transactions per minute per client IP for the inbound MX (POSTHORN_INBOUND_RATE_LIMIT), as GCRA
 * with a burst of the whole minute's allowance. In memory: each node limits what it is sent,
 * which is what protects it; the keys of idle clients are forgotten.
 */
export interface ClientRateLimit {
  /** Takes one unit for `ip` at `now`; the wait in ms when over the limit. */
  take(ip: string, now: number): { ok: true } | { ok: false; retryAfterMs: number };
}

/** A limiter of `perMinute` transactions per client IP. */
export function createClientRateLimit(perMinute: number): ClientRateLimit {
  const interval = 60_000 / perMinute;
  const tolerance = interval * (perMinute - 1);
  const tats = new Map<string, number>();
  let lastSweep = 0;
  return {
    take(ip, now) {
      if (now - lastSweep > 60_000) {
        for (const [k, t] of tats) if (t < now) tats.delete(k);
        lastSweep = now;
      }
      const current = Math.max(tats.get(ip) ?? now, now);
      if (current - tolerance > now) return { ok: false, retryAfterMs: current - tolerance - now };
      tats.set(ip, current + interval);
      return { ok: true };
    },
  };
}
