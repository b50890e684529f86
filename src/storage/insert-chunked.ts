import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Database } from './database.js';

// SQLite allows 32,766 bound parameters per statement and PostgreSQL 65,535; stay under both.
const MAX_PARAMS = 30_000;

/** Inserts rows with as few multi-row INSERT statements as the parameter limits allow. */
export async function insertChunked<T extends keyof Database & string>(
  db: Kysely<Database> | Transaction<Database>,
  table: T,
  rows: Insertable<Database[T]>[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0] as object).length;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns));
  for (let i = 0; i < rows.length; i += perStatement) {
    // Kysely cannot narrow a generic table's row type; the rows are typed by the signature above.
    await db
      .insertInto(table)
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      .values(rows.slice(i, i + perStatement) as any)
      .execute();
  }
}
