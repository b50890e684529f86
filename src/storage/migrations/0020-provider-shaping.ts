import type { Kysely } from 'kysely';

/**
 * Automatic delivery shaping per mailbox provider (docs/delivery.md). `provider_throttles`
 * holds each provider's adaptive pace, shared by every node of a PostgreSQL cluster (each reads it
 * with a short cache); `provider_suspensions` holds the providers a node (its sending IP, named by
 * POSTHORN_HOSTNAME) stopped sending to after a reputation block, and until when. Manual holds are
 * not here: these rows are only ever written by the delivery engine.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('provider_throttles')
    .addColumn('provider', 'text', (c) => c.primaryKey())
    .addColumn('rate', 'double precision', (c) => c.notNull())
    .addColumn('decreased_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('increased_at', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('throttle_events', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_throttle_at', 'bigint')
    .addColumn('last_reply', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('provider_suspensions')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('node', 'text', (c) => c.notNull())
    .addColumn('since', 'bigint', (c) => c.notNull())
    .addColumn('until', 'bigint', (c) => c.notNull())
    .addColumn('reply', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('provider_suspensions_pk', ['provider', 'node'])
    .execute();
}
