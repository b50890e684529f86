import type { Kysely } from 'kysely';

/**
 * Periodic work that must run once per cluster, not once per node (scheduler/cluster-task.ts): one
 * row per task, claimed with a lease written in the row like a job (docs/scaling.md). Plain rows,
 * no advisory lock or LISTEN, so it works the same through a transaction-mode connection pooler
 * and on SQLite.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('cluster_tasks')
    .ifNotExists()
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'bigint')
    .addColumn('last_started_at', 'bigint', (c) => c.notNull())
    .addColumn('last_finished_at', 'bigint')
    .addColumn('runs', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}
