import type { Kysely } from 'kysely';

/**
 * Why a bounce suppressed an address, in the taxonomy of docs/bounces.md (`user_unknown`,
 * `host_unknown`, …): null for complaints, unsubscribes, manual and imported entries, and for
 * entries made before the reason was recorded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('suppressions').addColumn('bounce_reason', 'text').execute();
}
