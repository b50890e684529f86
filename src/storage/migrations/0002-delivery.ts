import type { Kysely } from 'kysely';

/** Delivery: the sandbox mailbox, and the optional second (Ed25519, RFC 8463) DKIM key per domain. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sandbox_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('mail_from', 'text', (c) => c.notNull())
    .addColumn('recipients', 'text', (c) => c.notNull())
    .addColumn('raw', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sandbox_messages_time').on('sandbox_messages').column('created_at').execute();
  await db.schema.alterTable('domains').addColumn('ed25519_selector', 'text').execute();
  await db.schema.alterTable('domains').addColumn('ed25519_private_key', 'text').execute();
  await db.schema.alterTable('domains').addColumn('ed25519_public_key', 'text').execute();
}
