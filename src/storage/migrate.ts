import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as m0001 from './migrations/0001-initial.js';
import * as m0002 from './migrations/0002-delivery.js';

/** Numbered, forward-only migrations (DESIGN.md convention 3), listed in code so no file scan is needed. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-delivery': m0002,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Brings the schema up to date; safe to run from several processes at once (Kysely's migration lock). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function migrate(db: Kysely<any>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const what = failed ? `migration ${failed.migrationName} failed` : 'migration failed';
    throw new Error(`${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
