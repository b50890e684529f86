import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Rate-limit state need not survive a crash (a restart at worst forgets one second of sends), so
 * on PostgreSQL its table is UNLOGGED: its updates write no WAL and their commits wait for no
 * fsync. Every send updates its domain's row, so a logged table capped one domain at about one
 * send per WAL flush (bench/send.ts measured ~1,000/s). SQLite has no such table kind; there the
 * memory limiter is used anyway.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`ALTER TABLE rate_limits SET UNLOGGED`.execute(db);
}
