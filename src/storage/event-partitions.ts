import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './database.js';
import type { DialectName } from './open-database.js';

/** Months of partitions made ahead of the current one, so rows never wait on a missing partition. */
export const PARTITION_MONTHS_AHEAD = 2;

/** One monthly partition of `events`: rows with `from <= occurred_at < to` (epoch ms, UTC months). */
export interface EventPartition {
  name: string;
  from: number;
  to: number;
}

const NAME = /^events_p(\d{4})(\d{2})$/;
// Serialises partition changes between nodes and processes (pg_advisory_xact_lock key).
const LOCK_KEY = 0x70687474; // "phtt"

/** The partition holding `ms`: its UTC calendar month. */
export function partitionFor(ms: number): EventPartition {
  const d = new Date(ms);
  const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  const to = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return { name: `events_p${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`, from, to };
}

/** The monthly partitions of `events` in the connection's schema, oldest first. */
export async function listEventPartitions(db: Kysely<Database> | Transaction<Database>): Promise<EventPartition[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
    JOIN pg_namespace n ON n.oid = p.relnamespace
    WHERE p.relname = 'events' AND n.nspname = current_schema()`.execute(db);
  return rows
    .flatMap(({ name }) => {
      const m = NAME.exec(name);
      return m ? [partitionFor(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1))] : [];
    })
    .sort((a, b) => a.from - b.from);
}

/**
 * Makes sure `events` has a partition for every month from the one holding `oldest` to
 * PARTITION_MONTHS_AHEAD after the one holding `now` (PostgreSQL only; SQLite has one table).
 * A month whose rows already sit in the DEFAULT partition (the server was off when its partition
 * was due) gets them moved into its new partition in the same transaction. Returns the names made.
 */
export async function ensureEventPartitions(
  db: Kysely<Database>,
  dialect: DialectName,
  oldest: number,
  now: number,
): Promise<string[]> {
  if (dialect !== 'postgres') return [];
  const wanted: EventPartition[] = [];
  for (let p = partitionFor(oldest); p.from <= partitionFor(now).from || wanted.length === 0; p = partitionFor(p.to))
    wanted.push(p);
  for (let i = 0; i < PARTITION_MONTHS_AHEAD; i++) wanted.push(partitionFor(wanted[wanted.length - 1]!.to));
  const have = new Set((await listEventPartitions(db)).map((p) => p.name));
  const missing = wanted.filter((p) => !have.has(p.name));
  if (missing.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${LOCK_KEY})`.execute(trx);
    // Inserts wait until this commits. Without it an insert routed to DEFAULT between the move
    // below and the ATTACH either breaks the ATTACH (DEFAULT would hold a row of the new month) or
    // fails itself ("violates partition constraint", a 500 for its whole group commit). SHARE ROW
    // EXCLUSIVE conflicts with the ROW EXCLUSIVE lock every INSERT takes and lets reads through.
    await sql`LOCK TABLE events IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
    const present = new Set((await listEventPartitions(trx)).map((p) => p.name));
    const made: string[] = [];
    for (const p of missing) {
      if (present.has(p.name)) continue; // another node made it meanwhile
      // CREATE … PARTITION OF would fail if DEFAULT holds rows of this month: build the table,
      // move those rows into it, then attach (PostgreSQL adds the parent's indexes on attach).
      await sql`CREATE TABLE ${sql.ref(p.name)} (LIKE events INCLUDING DEFAULTS)`.execute(trx);
      await sql`WITH moved AS (DELETE FROM events_default WHERE occurred_at >= ${p.from} AND occurred_at < ${p.to} RETURNING *)
        INSERT INTO ${sql.ref(p.name)} SELECT * FROM moved`.execute(trx);
      await sql`ALTER TABLE events ATTACH PARTITION ${sql.ref(p.name)} FOR VALUES FROM (${sql.lit(p.from)}) TO (${sql.lit(p.to)})`.execute(
        trx,
      );
      made.push(p.name);
    }
    return made;
  });
}

/**
 * Drops the monthly partitions that end at or before `cutoff`: retention as a partition drop, with
 * no row-by-row delete and no table bloat (PostgreSQL only). Returns the names dropped.
 */
export async function dropExpiredEventPartitions(
  db: Kysely<Database>,
  dialect: DialectName,
  cutoff: number,
): Promise<string[]> {
  if (dialect !== 'postgres') return [];
  const expired = (await listEventPartitions(db)).filter((p) => p.to <= cutoff);
  if (expired.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${LOCK_KEY})`.execute(trx);
    const still = new Set((await listEventPartitions(trx)).map((p) => p.name));
    const dropped: string[] = [];
    for (const p of expired) {
      if (!still.has(p.name)) continue;
      await sql`DROP TABLE ${sql.ref(p.name)}`.execute(trx);
      dropped.push(p.name);
    }
    return dropped;
  });
}
