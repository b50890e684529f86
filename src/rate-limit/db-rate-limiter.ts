import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../storage/database.js';
import { sqliteConnection } from '../storage/open-database.js';
import type { RateLimiter } from './rate-limiter.js';

/**
 * GCRA (the generic cell rate algorithm) as one atomic upsert, so any number of nodes share one
 * limit (the limits live in the database, not in a process): the key's theoretical arrival time
 * `tat` moves on by `step` when it is at most `tolerance` (the burst) ahead of `now`; otherwise the
 * row is left as it is and the statement returns no row. The CASE is written out instead of
 * GREATEST/MAX so SQLite and PostgreSQL run the same statement. Times are in microseconds: in whole
 * milliseconds the emission interval of a rate above 1,000/s rounds up to 1 ms and silently caps
 * the domain at 1,000 sends per second.
 *
 * The rule's only SQL, as text over SQL expressions: `row` is the source of a new row (a VALUES or
 * SELECT of the key and `now + step`). createDbRateLimiter runs it with parameters; the send path on
 * PostgreSQL runs it inside the statement that checks a send (send/pg-send-path.ts), with the
 * account's rate read in the same statement.
 */
export function gcraUpsertSql(e: { row: string; now: string; step: string; tolerance: string }): string {
  return `INSERT INTO rate_limits (key, tat) ${e.row}
  ON CONFLICT (key) DO UPDATE
    SET tat = (CASE WHEN rate_limits.tat > ${e.now} THEN rate_limits.tat ELSE ${e.now} END) + ${e.step}
    WHERE rate_limits.tat - ${e.tolerance} <= ${e.now}
  RETURNING tat`;
}

/**
 * How long a refused take waits, in ms: until `tat` is back within `tolerance` of now (all in µs),
 * or one interval when the key has no row. At least 1 ms, so a Retry-After is never zero.
 */
export function gcraRetryAfterMs(tat: number | null, tolerance: number, nowUs: number, intervalUs: number): number {
  const waitUs = tat === null ? intervalUs : tat - tolerance - nowUs;
  return Math.max(1, waitUs / 1000);
}

/**
 * The limiter's statements in one dialect's parameter syntax. The upsert reads its numbers from a
 * one-row WITH, so each value is bound once, in order (now, step, tolerance, key) on both dialects:
 * SQLite's driver binds `?` in order of appearance. The WHERE of the SELECT is SQLite's: without it
 * `ON CONFLICT` would parse as a join constraint (sqlite.org/lang_upsert.html, "Parsing Ambiguity").
 */
function statements(sqlite: boolean): { take: string; read: string } {
  let n = 0;
  const p = () => (sqlite ? '?' : `$${++n}`);
  const int = () => `CAST(${p()} AS BIGINT)`;
  const numbers = `WITH v (now_us, step, tolerance) AS (VALUES (${int()}, ${int()}, ${int()}))`;
  const take = gcraUpsertSql({
    row: `SELECT ${p()}, now_us + step FROM v WHERE true`,
    now: '(SELECT now_us FROM v)',
    step: '(SELECT step FROM v)',
    tolerance: '(SELECT tolerance FROM v)',
  });
  return { take: `${numbers}\n${take}`, read: `SELECT tat FROM rate_limits WHERE key = ${sqlite ? '?' : '$1'}` };
}

export function createDbRateLimiter(db: Kysely<Database>): RateLimiter {
  const { take, read } = statements(sqliteConnection(db) !== undefined);
  const limiter: RateLimiter = {
    async take(key, perSecond, nowMs, opts = {}) {
      const now = Math.round(nowMs * 1000);
      const cost = opts.cost ?? 1;
      const interval = Math.max(1, Math.round(1_000_000 / perSecond));
      const tolerance = Math.round(interval * (Math.max(opts.burst ?? perSecond, cost) - cost));
      const step = interval * cost;
      const taken = await db.executeQuery(CompiledQuery.raw(take, [now, step, tolerance, key]));
      if (taken.rows.length > 0) return { ok: true };
      const current = await db.executeQuery<{ tat: number | string }>(CompiledQuery.raw(read, [key]));
      const tat = current.rows[0]?.tat;
      return {
        ok: false,
        retryAfterMs: gcraRetryAfterMs(tat === undefined ? null : Number(tat), tolerance, now, interval),
      };
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
