import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * On PostgreSQL, `events` becomes a table partitioned by month of `occurred_at` so retention
 * drops a month's partition instead of deleting rows one by one. This migration makes the
 * parent and its DEFAULT partition and moves the existing rows into it; the monthly partitions
 * are created by storage/event-partitions.ts from the scheduler role (at its start, then every
 * tick), which also moves any rows of their month out of DEFAULT. A partitioned table's primary
 * key must include the partition key, hence (id, occurred_at); ids stay unique because they are
 * ULIDs minted once.
 * SQLite keeps its single table: it has no partitions, and retention deletes in batches there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`ALTER TABLE events RENAME TO events_unpartitioned`.execute(db);
  for (const index of ['events_domain_time', 'events_domain_type_time', 'events_message']) {
    await sql`ALTER INDEX ${sql.ref(index)} RENAME TO ${sql.ref(`${index}_unpartitioned`)}`.execute(db);
  }
  await sql`ALTER TABLE events_unpartitioned RENAME CONSTRAINT events_pkey TO events_unpartitioned_pkey`.execute(db);
  await sql`CREATE TABLE events (LIKE events_unpartitioned INCLUDING DEFAULTS, PRIMARY KEY (id, occurred_at)) PARTITION BY RANGE (occurred_at)`.execute(
    db,
  );
  await sql`CREATE TABLE events_default PARTITION OF events DEFAULT`.execute(db);
  // GET /v1/events reads newest first per domain, optionally by type or message.
  await db.schema.createIndex('events_domain_time').on('events').columns(['domain_id', 'occurred_at', 'id']).execute();
  await db.schema
    .createIndex('events_domain_type_time')
    .on('events')
    .columns(['domain_id', 'event', 'occurred_at', 'id'])
    .execute();
  await db.schema.createIndex('events_message').on('events').columns(['message_id', 'occurred_at']).execute();
  await sql`INSERT INTO events SELECT * FROM events_unpartitioned`.execute(db);
  await sql`DROP TABLE events_unpartitioned`.execute(db);
}
