import { PostgresAdapter, sql, type Kysely } from 'kysely';

/** Rows converted per statement on SQLite, so a large mailbox is not read into memory at once. */
const BATCH = 50;

/**
 * The sandbox mailbox keeps each message's bytes as bytes (`sandbox_messages.raw`): a latin1 text
 * value made the delivery engine build a string of the whole signed message, and the driver a
 * second, UTF-8 copy of it, on the main thread (tens of MB for a large tracked message, see
 * docs/security.md, "Connections and memory"). Existing rows keep every byte: each latin1 character
 * is the byte of the same value.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`ALTER TABLE sandbox_messages ALTER COLUMN raw TYPE bytea USING convert_to(raw, 'LATIN1')`.execute(db);
    return;
  }
  // SQLite keeps a BLOB as it is in a column declared text, so only the values change.
  for (let after = ''; ;) {
    const { rows } = await sql<{ id: string; raw: string }>`SELECT id, raw FROM sandbox_messages
      WHERE id > ${after} AND typeof(raw) = 'text' ORDER BY id LIMIT ${BATCH}`.execute(db);
    for (const row of rows)
      await sql`UPDATE sandbox_messages SET raw = ${Buffer.from(row.raw, 'latin1')} WHERE id = ${row.id}`.execute(db);
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}
