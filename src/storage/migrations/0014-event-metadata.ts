import type { Kysely } from 'kysely';

/**
 * Every event carries its message's metadata (docs/api.md, Fields), as it carries the tags: a copy
 * on the event row, so reading events and building webhook bodies needs no join, and an event of a
 * refused send (which has no message row) has it too. `{}` for the events written before. On
 * PostgreSQL the column is added to the partitioned parent, which adds it to every partition; a
 * constant default makes it a catalog change, no table rewrite.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('events')
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
}
