import { sql, type Kysely } from 'kysely';

/**
 * Message status and search (docs/api.md, Messages): the indexes behind `GET /v1/messages` and
 * its `to=` filter, and the DKIM-Signature fields of each signing, so that
 * `GET /v1/messages/{id}/content` gives back the signed source as delivered.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The list reads a domain's messages newest first, ties by id (the cursor's order).
  await db.schema
    .createIndex('messages_domain_created')
    .on('messages')
    .columns(['domain_id', 'created_at', 'id'])
    .execute();
  // `to=` compares addresses case-insensitively; lower() is the same function on both sides of the
  // comparison, so SQLite (ASCII folding) and PostgreSQL (Unicode folding) each agree with themselves.
  await db.schema
    .createIndex('recipients_address')
    .on('recipients')
    .expression(sql`lower(address), message_id`)
    .execute();

  // One row per signing of a delivery group (one recipient domain, or one recipient of a tracked
  // message): its DKIM-Signature fields and a digest of the whole signed message. The rest of the
  // message is rendered again from the stored body, and the digest proves it is the same bytes.
  await db.schema
    .createTable('message_signatures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('recipient_ids', 'text', (c) => c.notNull())
    .addColumn('signed_at', 'bigint', (c) => c.notNull())
    .addColumn('fields', 'text', (c) => c.notNull())
    .addColumn('digest', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('message_signatures_message')
    .on('message_signatures')
    .columns(['message_id', 'signed_at'])
    .execute();
  await db.schema.createIndex('message_signatures_time').on('message_signatures').column('signed_at').execute();
}
