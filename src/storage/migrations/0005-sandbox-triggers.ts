import type { Kysely } from 'kysely';

/**
 * The sandbox's open@, click@ and unsubscribe@ (and later complain@) recipients act
 * after delivery. The mark lives on the mailbox row, so a restart between delivery and the action
 * picks it up again (sandbox/sandbox-triggers.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sandbox_messages')
    .addColumn('triggers_pending', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('sandbox_messages_triggers')
    .on('sandbox_messages')
    .columns(['triggers_pending', 'created_at'])
    .execute();
}
