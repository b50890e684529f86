import { sql, type Kysely } from 'kysely';
import type { Database } from '../storage/database.js';
import type { RateLimiter } from './rate-limiter.js';

/**
 * GCRA in one atomic upsert, so any number of nodes share one limit (DESIGN.md: rate limits live
 * in the database). The CASE is written out instead of GREATEST/MAX so SQLite and PostgreSQL run
 * the same statement.
 */
export function createDbRateLimiter(db: Kysely<Database>): RateLimiter {
  return {
    async take(key, perSecond, now) {
      const interval = 1000 / perSecond;
      const tolerance = interval * (perSecond - 1);
      const next = Math.ceil(now + interval);
      const rows = await sql<{ tat: number }>`
        INSERT INTO rate_limits (key, tat) VALUES (${key}, ${next})
        ON CONFLICT (key) DO UPDATE
          SET tat = (CASE WHEN rate_limits.tat > ${now} THEN rate_limits.tat ELSE ${now} END) + ${Math.ceil(interval)}
          WHERE rate_limits.tat - ${Math.floor(tolerance)} <= ${now}
        RETURNING tat`.execute(db);
      if (rows.rows.length > 0) return { ok: true };
      const current = await db.selectFrom('rate_limits').select('tat').where('key', '=', key).executeTakeFirst();
      const wait = current ? Number(current.tat) - Math.floor(tolerance) - now : interval;
      return { ok: false, retryAfterMs: Math.max(1, wait) };
    },
  };
}
