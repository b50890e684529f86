import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Deleting a domain (docs/api.md, Management API): the row stays with `deleted_at` set, so the
 * mail it already accepted is still signed and delivered and bounces for it are still matched,
 * while its key, SMTP logins and webhook end at once. Its name becomes free for a new domain,
 * so the name is unique among live domains only: the table-wide UNIQUE becomes a partial unique
 * index, with a plain index beside it for lookups that also see deleted rows (the inbound MX).
 *
 * SQLite cannot drop a column's UNIQUE constraint, so the table is rebuilt the way SQLite documents
 * for schema changes it cannot ALTER (https://www.sqlite.org/lang_altertable.html#otheralter):
 * foreign keys off, a new table from the stored definition minus UNIQUE, the rows copied, the old
 * table dropped, the new one renamed, a foreign-key check, all in one transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`ALTER TABLE domains ADD COLUMN deleted_at bigint`.execute(db);
    const unique = await sql<{ conname: string }>`SELECT conname FROM pg_constraint
      WHERE conrelid = 'domains'::regclass AND contype = 'u' AND pg_get_constraintdef(oid) = 'UNIQUE (name)'`.execute(
      db,
    );
    for (const { conname } of unique.rows)
      await sql`ALTER TABLE domains DROP CONSTRAINT ${sql.ref(conname)}`.execute(db);
    await createNameIndexes(db);
    return;
  }
  // Kysely runs SQLite migrations outside a transaction, which is what lets the pragma take effect
  // (SQLite ignores foreign_keys inside one).
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await sql`BEGIN IMMEDIATE`.execute(db);
    try {
      await rebuildSqliteDomains(db);
      const broken = await sql`PRAGMA foreign_key_check`.execute(db);
      if (broken.rows.length > 0) throw new Error(`foreign key check failed: ${JSON.stringify(broken.rows)}`);
      await sql`COMMIT`.execute(db);
    } catch (err) {
      await sql`ROLLBACK`.execute(db);
      throw err;
    }
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}

async function rebuildSqliteDomains(db: Kysely<unknown>): Promise<void> {
  const columns = await sql<{ name: string }>`SELECT name FROM pragma_table_info('domains')`.execute(db);
  // Another process migrating the same file got here first.
  if (columns.rows.some((c) => c.name === 'deleted_at')) return;
  const stored = await sql<{
    sql: string;
  }>`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'domains'`.execute(db);
  const definition = stored.rows[0]?.sql ?? '';
  // The definition as 0001-initial.ts created it (Kysely quotes every identifier), plus the
  // columns later migrations added with ALTER TABLE, which SQLite appends to the stored text.
  const uniqueName = /"name" text not null unique/i;
  if (!uniqueName.test(definition) || !/^create table "domains" \(/i.test(definition))
    throw new Error(`unexpected definition of domains: ${definition}`);
  const rebuilt = definition
    .replace(/^create table "domains" \(/i, 'create table "domains_rebuilt" (')
    .replace(uniqueName, '"name" text not null')
    .replace(/\)\s*$/, ', "deleted_at" bigint)');
  const names = columns.rows.map((c) => sql.ref(c.name));
  await sql.raw(rebuilt).execute(db);
  await sql`INSERT INTO domains_rebuilt (${sql.join(names)}) SELECT ${sql.join(names)} FROM domains`.execute(db);
  await sql`DROP TABLE domains`.execute(db);
  await sql`ALTER TABLE domains_rebuilt RENAME TO domains`.execute(db);
  await sql`CREATE INDEX domains_account ON domains (account_id)`.execute(db);
  await createNameIndexes(db);
}

async function createNameIndexes(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE UNIQUE INDEX domains_live_name ON domains (name) WHERE deleted_at IS NULL`.execute(db);
  await sql`CREATE INDEX domains_name ON domains (name)`.execute(db);
}
