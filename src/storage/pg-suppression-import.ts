import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import type copyStreams from 'pg-copy-streams';
import type { SuppressionWriter, WriterResult } from './insert-suppressions.js';

/**
 * The staging tables of PostgreSQL suppression imports: `suppression_import_<hex>`, UNLOGGED, in
 * the schema of the list, one per import and dropped when it ends (pgStagedWriter).
 */
const STAGING_PREFIX = 'suppression_import_';
const STAGING_NAME = /^suppression_import_[0-9a-f]{16}$/;

/** Connections (and so server cores) the merge of a staged import runs on, one range of addresses each. */
export const PG_MERGE_PARTS = 2;

/**
 * A running import notes the time in its staging table's comment this often; a table whose note is
 * older than STAGING_STALE_MS (or missing: the import crashed before its first note) belongs to an
 * import that is gone, and dropStaleImportTables removes it.
 */
export const STAGING_HEARTBEAT_MS = 60_000;
export const STAGING_STALE_MS = 10 * 60_000;

/** Addresses kept to choose the merge's split points: at most twice this many (every k-th row, k doubling). */
const SAMPLE_MAX = 4096;

let copyFrom: typeof copyStreams.from | undefined;
// Loaded on first use, as pg is (open-database.ts): a SQLite installation never loads it.
const loadCopyFrom = (): typeof copyStreams.from =>
  (copyFrom ??= (createRequire(import.meta.url)('pg-copy-streams') as typeof copyStreams).from);

// COPY's text format: a tab between fields, a newline after the row, \N for null, and a backslash
// escaped. The fields of a checked row hold none of these in practice (suppression-rows.ts: an
// address, a domain and a message id that passed their checks, a reason, a number), but a row
// that did would otherwise shift its columns.
const COPY_SPECIAL = /[\\\t\n\r]/;
const copyField = (v: string | null): string =>
  v === null
    ? '\\N'
    : COPY_SPECIAL.test(v)
      ? v.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'))
      : v;

const COLUMNS = '(account_id, address, reason, created_at, domain, message_id)';

/**
 * The SuppressionWriter of a large import on PostgreSQL. Each batch is sent with COPY into an
 * UNLOGGED staging table of the import's own (no index, no WAL: the cheapest write PostgreSQL
 * has), numbered in file order; `finish` then adds the staged rows to the list in address order,
 * split by address range over PG_MERGE_PARTS connections that run at once. Inserting along the
 * primary key's order costs PostgreSQL much less than batches of addresses in no order (each of
 * which touches leaf pages all over the key), and the split keeps every core busy during the merge,
 * where one INSERT ... SELECT would run on one backend while the others idle.
 *
 * - Of an address repeated in the file the first row wins: a range holds every row of its
 *   addresses, and takes them by address, then file order (mergeRange).
 * - Counts are exact: each range's rows are counted in the transaction that merges them, and only a
 *   range that committed counts (a range that failed adds nothing, its rows are neither imported
 *   nor already suppressed).
 * - The table is dropped by `close`, also after an error. A crash (of Posthorn or of PostgreSQL)
 *   leaves it behind; the import keeps a heartbeat in the table's comment, and the next import or
 *   server start-up drops the tables whose heartbeat stopped (dropStaleImportTables).
 * - No session state: the staging table is an ordinary (unlogged) table, every statement stands
 *   alone, so it works through a transaction-mode pooler (PgBouncer) as the rest of Posthorn does.
 */
export function pgStagedWriter(pool: pg.Pool, accountId: string): SuppressionWriter {
  const table = `${STAGING_PREFIX}${randomBytes(8).toString('hex')}`;
  let created: Promise<void> | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  let staged = 0;
  // Every `stride`-th row's address, for the split points; decimated when it grows past SAMPLE_MAX.
  let sample: string[] = [];
  let stride = 1;
  // The database's clock, not this node's: the nodes that compare it (dropStaleImportTables) may disagree.
  const note = `DO $$ BEGIN EXECUTE format('COMMENT ON TABLE ${table} IS %L', 'posthorn import alive ' || floor(extract(epoch FROM now()) * 1000)); END $$`;
  const create = async (): Promise<void> => {
    await dropStaleImportTables(pool);
    // One query string, so one transaction: the table never exists without its first heartbeat.
    await pool.query(
      `CREATE UNLOGGED TABLE ${table} (n bigint NOT NULL, address text NOT NULL, reason text NOT NULL, ` +
        `created_at bigint NOT NULL, domain text, message_id text) WITH (autovacuum_enabled = false); ${note}`,
    );
    heartbeat = setInterval(() => void pool.query(note).catch(() => {}), STAGING_HEARTBEAT_MS);
    heartbeat.unref();
  };
  return {
    async add(rows) {
      if (rows.length === 0) return;
      await (created ??= create());
      let text = '';
      let n = staged;
      for (const r of rows) {
        if (n % stride === 0) sample.push(r.address);
        text += `${n++}\t${copyField(r.address)}\t${r.reason}\t${r.created_at}\t${copyField(r.domain)}\t${copyField(r.message_id)}\n`;
      }
      while (sample.length >= 2 * SAMPLE_MAX) {
        sample = sample.filter((_, i) => i % 2 === 0);
        stride *= 2;
      }
      const client = await pool.connect();
      try {
        await pipeline(Readable.from([text]), client.query(loadCopyFrom()(`COPY ${table} FROM STDIN`)));
      } finally {
        client.release();
      }
      // Counted once COPY has committed them: a batch whose COPY failed was not staged at all.
      staged = n;
    },
    async finish() {
      const done: WriterResult = { inserted: 0, merged: 0, error: null };
      if (staged === 0) return done;
      const ranges = await splitRanges(pool, sample).catch((err: unknown) => err as Error);
      if (ranges instanceof Error) return { ...done, error: ranges };
      // Every range runs to its end (allSettled): what the counts say is what committed.
      for (const r of await Promise.allSettled(ranges.map((range) => mergeRange(pool, table, accountId, range)))) {
        if (r.status === 'fulfilled') {
          done.inserted += r.value.inserted;
          done.merged += r.value.merged;
        } else done.error ??= r.reason as Error;
      }
      return done;
    },
    async close() {
      if (heartbeat !== null) clearInterval(heartbeat);
      if (created === null) return;
      // Settled whether or not the creation worked: a failed CREATE leaves nothing to drop.
      await created.catch(() => {});
      // Not an error of the import: what it reports is committed either way. A table that cannot be
      // dropped now (the connection lost) stops its heartbeat here, and the next sweep drops it.
      await pool.query(`DROP TABLE IF EXISTS ${table}`).catch(() => {});
    },
  };
}

// An address range [from, to), null for no bound: as $2, $3 of the merge, as $1, $2 of its count.
const RANGE = '($2::text IS NULL OR address >= $2) AND ($3::text IS NULL OR address < $3)';
const COUNT_RANGE = '($1::text IS NULL OR address >= $1) AND ($2::text IS NULL OR address < $2)';

/**
 * Adds the staged rows of one address range to the list, in address order, in one transaction on a
 * connection of its own, and says how many rows the range held (`merged`) and how many were added.
 * The first try inserts without `ON CONFLICT`: the rows already listed are left out by an anti-join
 * and the repeats of an address by DISTINCT ON (address, then file order: the first row wins), and
 * a plain insert costs PostgreSQL about a third less than a speculative one (`ON CONFLICT` probes
 * the key, inserts, then confirms each row with a WAL record of its own). Should another writer add
 * one of the addresses meanwhile (a bounce, a complaint), that insert fails on the key and the
 * range is merged again with `ON CONFLICT DO NOTHING`.
 */
async function mergeRange(
  pool: pg.Pool,
  table: string,
  accountId: string,
  [from, to]: [string | null, string | null],
): Promise<{ inserted: number; merged: number }> {
  const select = `SELECT DISTINCT ON (address) $1, address, reason, created_at, domain, message_id FROM ${table} t WHERE ${RANGE}`;
  const plain =
    `INSERT INTO suppressions ${COLUMNS} ${select} AND NOT EXISTS ` +
    `(SELECT 1 FROM suppressions s WHERE s.account_id = $1 AND s.address = t.address) ORDER BY address, n`;
  const guarded = `INSERT INTO suppressions ${COLUMNS} ${select} ORDER BY address, n ON CONFLICT (account_id, address) DO NOTHING`;
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    for (const insert of [plain, guarded]) {
      await client.query('BEGIN');
      try {
        // Counted in the same transaction: a range that rolls back counts for nothing.
        const counted = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE ${COUNT_RANGE}`, [
          from,
          to,
        ]);
        const result = await client.query(insert, [accountId, from, to]);
        await client.query('COMMIT');
        return { inserted: result.rowCount ?? 0, merged: Number(counted.rows[0]!.n) };
      } catch (err) {
        await client.query('ROLLBACK').catch((e: unknown) => (broken = e as Error));
        if (insert === guarded || (err as { code?: string }).code !== '23505' || broken) throw err;
      }
    }
    throw new Error('unreachable');
  } finally {
    client.release(broken);
  }
}

/**
 * The address ranges [from, to) of the merge (null: unbounded), PG_MERGE_PARTS of them with about as
 * many rows each: split at quantiles of the sampled addresses, taken in the database's own order
 * (the collation of the key, which JavaScript's string order is not), so the ranges cover every
 * address once whatever the collation.
 */
async function splitRanges(pool: pg.Pool, sample: readonly string[]): Promise<[string | null, string | null][]> {
  const fractions = Array.from({ length: PG_MERGE_PARTS - 1 }, (_, i) => (i + 1) / PG_MERGE_PARTS);
  const { rows } = await pool.query<{ q: string[] | null }>(
    'SELECT percentile_disc($2::float8[]) WITHIN GROUP (ORDER BY a) AS q FROM unnest($1::text[]) AS a',
    [sample, fractions],
  );
  // Equal quantiles (few distinct addresses) would make empty ranges: one split each.
  const splits = [...new Set(rows[0]?.q ?? [])];
  const bounds = [null, ...splits, null];
  return bounds.slice(1).map((to, i) => [bounds[i]!, to]);
}

/**
 * Drops the staging tables of suppression imports that are gone (a crash, a lost connection): those
 * in the list's schema whose heartbeat (pgStagedWriter) is older than STAGING_STALE_MS. Run before
 * each large import on PostgreSQL and at server start-up; a table of an import still running on
 * another node is left alone. Returns the tables dropped.
 */
export async function dropStaleImportTables(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    `SELECT relname AS name FROM (SELECT c.relname, ` +
      `coalesce(substring(obj_description(c.oid, 'pg_class') FROM 'alive ([0-9]+)$')::bigint, 0) AS alive ` +
      `FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND c.relname LIKE $1) t ` +
      `WHERE alive < extract(epoch FROM now()) * 1000 - $2`,
    [`${STAGING_PREFIX.replaceAll('_', '\\_')}%`, STAGING_STALE_MS],
  );
  const dropped: string[] = [];
  for (const { name } of rows) {
    if (!STAGING_NAME.test(name)) continue;
    await pool.query(`DROP TABLE IF EXISTS ${name}`);
    dropped.push(name);
  }
  return dropped;
}
