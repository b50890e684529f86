import type { Kysely } from 'kysely';

/**
 * Dashboard users and their sessions (docs/management.md, Users and sign-in). A user belongs to
 * one account with a role, as an account token does; the password is kept as an scrypt hash, the
 * TOTP secret sealed like the other stored secrets (secrets/secret-fields.ts), recovery codes as
 * SHA-256 hashes. Sessions are stored server-side under the SHA-256 of the cookie value, so
 * signing out or removing the user ends them at once, and a database leak gives no usable cookie.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('totp_secret', 'text')
    .addColumn('totp_pending', 'text')
    .addColumn('totp_last_step', 'bigint')
    .addColumn('recovery_codes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('sandbox', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_sign_in_at', 'bigint')
    .execute();
  await db.schema.createIndex('users_account').on('users').column('account_id').execute();

  await db.schema
    .createTable('user_sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_sessions_user').on('user_sessions').column('user_id').execute();
  await db.schema.createIndex('user_sessions_expires').on('user_sessions').column('expires_at').execute();
}
