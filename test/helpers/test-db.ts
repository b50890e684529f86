import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../src/storage/migrate.js';
import { openDatabase, type DialectName, type OpenDatabase } from '../../src/storage/open-database.js';

/**
 * The databases every storage and pipeline test runs on (CONTRIBUTING.md, Tests on both databases):
 * SQLite always, PostgreSQL when POSTHORN_TEST_DATABASE_URL is set.
 */
export function testDialects(): DialectName[] {
  return process.env.POSTHORN_TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestDb extends OpenDatabase {
  /** What POSTHORN_DATABASE_URL / POSTHORN_DATA_DIR a child process needs to open the same database. */
  env: Record<string, string>;
  dataDir: string;
}

/**
 * A fresh, migrated database (up to `migrateUpTo` when given): a SQLite file in a new temp dir, or a new schema in the PostgreSQL
 * test database (search_path points at it), dropped on close.
 */
export async function createTestDb(
  dialect: DialectName,
  opts: { migrateUpTo?: string; writerThread?: boolean } = {},
): Promise<TestDb> {
  const dataDir = mkdtempSync(join(tmpdir(), 'posthorn-test-'));
  if (dialect === 'sqlite') {
    // One connection, as a CLI command opens it. The server writes on a thread of its own
    // (docs/architecture.md, "SQLite: a writer thread"): the e2e tests' servers and
    // test/unit/storage/sqlite-writer-thread.test.ts run that path, and
    // POSTHORN_TEST_SQLITE_WRITER=1 runs every in-process test on it too (about half again slower:
    // a thread and a round trip per statement for each test's database).
    const open = openDatabase({
      databaseUrl: null,
      dataDir,
      writerThread: opts.writerThread ?? process.env.POSTHORN_TEST_SQLITE_WRITER === '1',
    });
    await migrate(open.db, 'sqlite', opts.migrateUpTo).catch(async (err: unknown) => {
      await open.close();
      throw err;
    });
    return {
      ...open,
      dataDir,
      env: { POSTHORN_DATA_DIR: dataDir },
      close: async () => {
        await open.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const url = process.env.POSTHORN_TEST_DATABASE_URL as string;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const open = openDatabase({ databaseUrl: url, dataDir, pgSchema: schema });
  await migrate(open.db, 'postgres', opts.migrateUpTo).catch(async (err: unknown) => {
    await open.close();
    throw err;
  });
  const sep = url.includes('?') ? '&' : '?';
  return {
    ...open,
    dataDir,
    env: {
      POSTHORN_DATA_DIR: dataDir,
      POSTHORN_DATABASE_URL: `${url}${sep}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    },
    close: async () => {
      await open.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP SCHEMA ${schema} CASCADE`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
