import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, type Kysely } from 'kysely';
import type { Database, SuppressionReason } from './database.js';
import { sqliteConnection } from './open-database.js';

/** A suppression row to insert for one account. */
export interface SuppressionInsert {
  address: string;
  reason: SuppressionReason;
  created_at: number;
  domain: string | null;
  message_id: string | null;
}

const COLUMNS = '(account_id, address, reason, created_at, domain, message_id)';
const CONFLICT = 'ON CONFLICT (account_id, address) DO NOTHING';

// PostgreSQL: one array parameter per column, expanded by unnest: one statement per batch whose
// text and plan do not depend on how many rows it carries, and no parameter limit to split around.
const PG_INSERT = `INSERT INTO suppressions ${COLUMNS} SELECT $1, * FROM unnest($2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[]) ${CONFLICT}`;

// SQLite: one prepared single-row INSERT run once per row inside the batch's transaction. Measured
// against one prepared 5,000-row VALUES statement (bench:suppressions), it costs about a third less
// CPU per row: SQLite's per-row work is the same, and binding 30,000 parameters at once is not free.
const SQLITE_INSERT = `INSERT INTO suppressions ${COLUMNS} VALUES (?, ?, ?, ?, ?, ?) ${CONFLICT}`;
const sqliteStatements = new WeakMap<BetterSqlite3.Database, BetterSqlite3.Statement>();

/**
 * Inserts `rows` into the account's suppression list in one transaction, leaving every address
 * already listed as it is (`ON CONFLICT DO NOTHING`, also for an address repeated within `rows`),
 * and returns how many rows were added. This is the bulk path of the suppression import, written
 * per dialect rather than built by Kysely value by value, which cost more than running the insert.
 * Rows go in address order, so consecutive inserts touch neighbouring pages of the primary key.
 *
 * On SQLite the batch commits with `synchronous = NORMAL`: the WAL is written but not fsynced at
 * each batch, which was a third of an import's time (a batch of addresses in no order dirties
 * pages all over the key). The batch is durable once a later commit with Posthorn's usual `FULL`
 * syncs the WAL file; the import makes one (its audit entry, import-suppressions.ts) before it
 * answers, so nothing reported as imported can be lost to a power cut.
 */
export async function insertSuppressions(
  db: Kysely<Database>,
  accountId: string,
  rows: readonly SuppressionInsert[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const sorted = [...rows].sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  const sqlite = sqliteConnection(db);
  if (sqlite === undefined) {
    const result = await db.executeQuery(
      CompiledQuery.raw(PG_INSERT, [
        accountId,
        sorted.map((r) => r.address),
        sorted.map((r) => r.reason),
        sorted.map((r) => r.created_at),
        sorted.map((r) => r.domain),
        sorted.map((r) => r.message_id),
      ]),
    );
    return Number(result.numAffectedRows ?? 0);
  }
  // Kysely's SQLite driver runs everything on this one connection, and lends it to one caller at
  // a time: while it is lent here, the batch runs start to end synchronously (so nothing else can
  // run between the pragma and its reset), in its own transaction.
  return db.connection().execute(async () => {
    let stmt = sqliteStatements.get(sqlite);
    if (stmt === undefined) {
      stmt = sqlite.prepare(SQLITE_INSERT);
      sqliteStatements.set(sqlite, stmt);
    }
    const insert = stmt;
    const usual = sqlite.pragma('synchronous', { simple: true }) as number;
    sqlite.pragma('synchronous = NORMAL');
    try {
      return sqlite.transaction(() => {
        let inserted = 0;
        for (const r of sorted)
          inserted += insert.run(accountId, r.address, r.reason, r.created_at, r.domain, r.message_id).changes;
        return inserted;
      })();
    } finally {
      sqlite.pragma(`synchronous = ${usual}`);
    }
  });
}

/**
 * After a bulk import on PostgreSQL, refreshes the planner's statistics of the suppressions table
 * (ANALYZE samples a fixed number of rows, so this is quick whatever the size). Until autovacuum
 * gets to it, the planner would still think the list as short as before the import, and page the
 * export and the listing by sorting every row past the cursor instead of walking the primary key.
 * SQLite's planner uses the key without statistics: nothing to do there.
 */
export async function refreshSuppressionStats(db: Kysely<Database>): Promise<void> {
  if (sqliteConnection(db) !== undefined) return;
  await db.executeQuery(CompiledQuery.raw('ANALYZE suppressions'));
}
