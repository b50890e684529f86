import type { Kysely } from 'kysely';

/**
 * The management API (docs/management.md): account tokens (`pha_…`, stored as SHA-256 like API
 * keys, with a role), the audit log of every management change, when each API key and SMTP login
 * was last used, the domain a suppression came from (so an export imported elsewhere exports the
 * same), and a message's metadata (docs/api.md, Sending).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('account_tokens_account').on('account_tokens').column('account_id').execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('audit_log_account_time').on('audit_log').columns(['account_id', 'at', 'id']).execute();

  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'bigint').execute();
  await db.schema.alterTable('smtp_credentials').addColumn('last_used_at', 'bigint').execute();
  await db.schema.alterTable('suppressions').addColumn('domain', 'text').execute();
  await db.schema
    .alterTable('messages')
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
}
