import type { Kysely } from 'kysely';

/**
 * Templates (docs/templates.md): one row per template of an account, by slug name (unique per
 * account), and its numbered versions, which never change once written (a new version is a new
 * row; the versions go with their template, ON DELETE CASCADE). A message sent with a template
 * records which version it was rendered from (`messages.template`, JSON `{"name","version"}`;
 * null for any other message).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('latest_version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('templates_account_name', ['account_id', 'name'])
    .execute();

  await db.schema
    .createTable('template_versions')
    .addColumn('template_id', 'text', (c) => c.notNull().references('templates.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('html', 'text')
    .addColumn('text', 'text')
    .addColumn('variables', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('template_versions_pk', ['template_id', 'version'])
    .execute();

  await db.schema.alterTable('messages').addColumn('template', 'text').execute();
}
