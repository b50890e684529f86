import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * A large sandbox message is kept in slices (`sandbox_message_parts`, 1 MiB each, in `seq` order)
 * with `sandbox_messages.raw` left empty: on SQLite one statement writing a large tracked message
 * whole (tens of MB) held the main thread for well over a hundred milliseconds (docs/security.md,
 * "Connections and memory"). The parts go with their row (ON DELETE CASCADE; SQLite has
 * `foreign_keys = ON`, storage/open-database.ts). Existing rows keep their bytes in `raw`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
  await db.schema
    .createTable('sandbox_message_parts')
    .addColumn('sandbox_message_id', 'text', (c) => c.notNull().references('sandbox_messages.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('bytes', bytes, (c) => c.notNull())
    .addPrimaryKeyConstraint('sandbox_message_parts_pk', ['sandbox_message_id', 'seq'])
    .execute();
}
