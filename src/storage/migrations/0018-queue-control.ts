import type { Kysely } from 'kysely';

/**
 * Queue control and scheduled send (docs/delivery.md):
 * - `delivery_holds`: a destination (a recipient domain or a mailbox provider) whose mail is held
 *   back, for every account (`account_id` null, set by the operator) or for one account's mail. The
 *   id is `<scope>:<value>:<account id or *>`, so one destination has one hold per owner and a
 *   second suspend replaces the first.
 * - `jobs.provider`: the mailbox provider of the MX host the last attempt went to (null until a
 *   route was resolved), so the queue can be listed and retried by provider.
 * - `jobs.held`: the id of the hold that pushed the job back without an attempt; resuming that hold
 *   makes exactly these jobs due again. `jobs.held_at`: when it was first held, so the time spent
 *   held is not counted against the queue lifetime (delivery/record-outcomes.ts).
 * - `messages.send_at`: the time a scheduled message was asked to go at (null: at once).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('delivery_holds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text')
    .addColumn('reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('until', 'bigint')
    .addColumn('actor', 'text', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('jobs').addColumn('provider', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('held', 'text').execute();
  await db.schema.alterTable('jobs').addColumn('held_at', 'bigint').execute();
  await db.schema.createIndex('jobs_held').on('jobs').column('held').execute();
  await db.schema.alterTable('messages').addColumn('send_at', 'bigint').execute();
}
