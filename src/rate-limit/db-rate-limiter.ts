import { sql, type Kysely } from 'kysely';
import type { Database } from '../storage/database.js';
import type { RateLimiter } from './rate-limiter.js';

/**
 * GCRA in one atomic upsert, so any number of nodes share one limit (the limits live in the
 * database, not in a process). The CASE is written out instead of GREATEST/MAX so SQLite and
 * PostgreSQL run the same statement. Times are in microseconds: in whole milliseconds the emission
 * interval of a rate above 1,000/s rounds up to 1 ms and silently caps the domain at 1,000 sends
 * per second.
 */
export function createDbRateLimiter(db: Kysely<Database>): RateLimiter {
  const limiter: RateLimiter = {
    async take(key, perSecond, nowMs, opts = {}) {
      const now = Math.round(nowMs * 1000);
      const cost = opts.cost ?? 1;
      const interval = Math.max(1, Math.round(1_000_000 / perSecond));
      const tolerance = Math.round(interval * (Math.max(opts.burst ?? perSecond, cost) - cost));
      const step = interval * cost;
      const rows = await sql<{ tat: number }>`
        INSERT INTO rate_limits (key, tat) VALUES (${key}, ${now + step})
        ON CONFLICT (key) DO UPDATE
          SET tat = (CASE WHEN rate_limits.tat > ${now} THEN rate_limits.tat ELSE ${now} END) + ${step}
          WHERE rate_limits.tat - ${tolerance} <= ${now}
        RETURNING tat`.execute(db);
      if (rows.rows.length > 0) return { ok: true };
      const current = await db.selectFrom('rate_limits').select('tat').where('key', '=', key).executeTakeFirst();
      const waitUs = current ? Number(current.tat) - tolerance - now : interval;
      return { ok: false, retryAfterMs: Math.max(1, waitUs / 1000) };
    },
  };
  limiterDbs.set(limiter, db);
  return limiter;
}

const limiterDbs = new WeakMap<RateLimiter, Kysely<Database>>();

/**
 * True when `limiter` is this module's limiter on `db`: then a caller may take the same limit with
 * the same upsert inside a statement of its own (send/pg-send-path.ts, which folds a send's checks
 * into one statement) and the limit stays one.
 */
export function isDbRateLimiterOf(limiter: RateLimiter, db: Kysely<Database>): boolean {
  return limiterDbs.get(limiter) === db;
}
