import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { DialectName } from './open-database.js';
import * as m0001 from './migrations/0001-initial.js';
import * as m0002 from './migrations/0002-delivery.js';
import * as m0003 from './migrations/0003-unlogged-rate-limits.js';
import * as m0004 from './migrations/0004-feedback.js';
import * as m0005 from './migrations/0005-sandbox-triggers.js';
import * as m0006 from './migrations/0006-partition-events.js';
import * as m0007 from './migrations/0007-sandbox-raw-bytes.js';
import * as m0008 from './migrations/0008-sandbox-raw-parts.js';
import * as m0009 from './migrations/0009-management.js';
import * as m0010 from './migrations/0010-domain-deletion.js';
import * as m0012 from './migrations/0012-message-status.js';
import * as m0014 from './migrations/0014-event-metadata.js';
import * as m0015 from './migrations/0015-templates.js';
import * as m0016 from './migrations/0016-users.js';
import * as m0017 from './migrations/0017-bounce-reason.js';
import * as m0018 from './migrations/0018-queue-control.js';
import * as m0019 from './migrations/0019-transport-security.js';
import * as m0020 from './migrations/0020-provider-shaping.js';
import * as m0021 from './migrations/0021-dkim-rotation.js';
import * as m0022 from './migrations/0022-cluster.js';

/** Numbered, forward-only migrations (CONTRIBUTING.md, Add a migration), listed in code so no file scan is needed. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-delivery': m0002,
  '0003-unlogged-rate-limits': m0003,
  '0004-feedback': m0004,
  '0005-sandbox-triggers': m0005,
  '0006-partition-events': m0006,
  '0007-sandbox-raw-bytes': m0007,
  '0008-sandbox-raw-parts': m0008,
  '0009-management': m0009,
  '0010-domain-deletion': m0010,
  '0012-message-status': m0012,
  '0014-event-metadata': m0014,
  '0015-templates': m0015,
  '0016-users': m0016,
  '0017-bounce-reason': m0017,
  '0018-queue-control': m0018,
  '0019-transport-security': m0019,
  '0020-provider-shaping': m0020,
  '0021-dkim-rotation': m0021,
  '0022-cluster': m0022,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/**
 * Brings the schema up to date; safe to run from several processes at once (Kysely's migration
 * lock). On PostgreSQL the migration tables live in the connection's current schema: left to
 * itself Kysely looks for them in every schema, and would take another schema's (another
 * Posthorn, another Kysely app on the same database) for ours. `upTo` stops after the named
 * migration (tests of a migration's data conversion).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function migrate(db: Kysely<any>, dialect: DialectName, upTo?: string): Promise<void> {
  if (upTo === undefined && (await allApplied(db, dialect))) return;
  const { migrator, migrationTableSchema } = await migratorFor(db, dialect);
  for (let attempt = 1; ; attempt++) {
    const { error, results } = upTo === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(upTo);
    if (!error) return;
    // Kysely looks for its migration table by listing the tables and columns of every schema in
    // the database. Another schema changed by someone else during that catalog read fails it: a
    // dropped schema with 3F000 (invalid schema name), a table or column dropped or renamed by a
    // concurrent migration with 42P01 or 42703 (from pg_get_serial_sequence). Kysely then returns
    // no results at all, as nothing was migrated yet: read again.
    if (attempt < 5 && results === undefined && isCatalogReadRace(error, migrationTableSchema)) continue;
    const failed = results?.find((r) => r.status === 'Error');
    const what = failed ? `migration ${failed.migrationName} failed` : 'migration failed';
    throw new Error(`${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/**
 * Whether the database has applied exactly this release's migrations: then there is nothing to do,
 * and one read answers it instead of Kysely's lock, table checks and listing (most of what a CLI
 * call did with the database). Anything else (no table yet, a migration missing, or one this
 * release does not know) goes through the Migrator, which migrates or refuses as before.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as migrate()
async function allApplied(db: Kysely<any>, dialect: DialectName): Promise<boolean> {
  try {
    const table =
      dialect === 'postgres'
        ? sql`${sql.id((await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db)).rows[0]?.schema ?? 'public', 'kysely_migration')}`
        : sql`kysely_migration`;
    const { rows } = await sql<{ name: string }>`SELECT name FROM ${table}`.execute(db);
    const applied = new Set(rows.map((r) => r.name));
    const known = Object.keys(MIGRATIONS);
    return applied.size === known.length && known.every((name) => applied.has(name));
  } catch {
    // No migration table yet (a new database): the Migrator creates it.
    return false;
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as migrate()
async function migratorFor(db: Kysely<any>, dialect: DialectName) {
  const migrationTableSchema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({ db, provider, ...(migrationTableSchema ? { migrationTableSchema } : {}) });
  return { migrator, migrationTableSchema };
}

/** The names of this release's migrations that the database has not applied yet, oldest first. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as migrate()
export async function pendingMigrations(db: Kysely<any>, dialect: DialectName): Promise<string[]> {
  const { migrator } = await migratorFor(db, dialect);
  return (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** True for a 3F000 naming a schema other than ours (a concurrent DROP SCHEMA elsewhere in the database). */
export function isOtherSchemaGone(error: unknown, ours: string | undefined): boolean {
  const e = error as { code?: string; message?: string };
  return e.code === '3F000' && ours !== undefined && !(e.message ?? '').includes(`"${ours}"`);
}

/**
 * True for an error that a concurrent change to another schema can cause while Kysely reads the
 * catalog before migrating: 3F000 for another schema (above), or 42P01/42703 (undefined table or
 * column, which pg_get_serial_sequence raises for a relation altered mid-read).
 */
export function isCatalogReadRace(error: unknown, ours: string | undefined): boolean {
  const code = (error as { code?: string }).code;
  return isOtherSchemaGone(error, ours) || (ours !== undefined && (code === '42P01' || code === '42703'));
}
