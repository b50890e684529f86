import type { DialectName } from '../../src/storage/open-database.js';
import { runCli, type CliResult } from './run-cli.js';
import { createTestDb, type TestDb } from './test-db.js';

/** A fresh test database and a `posthorn` CLI pointed at it in production mode. */
export interface CliDb extends TestDb {
  /** Runs `posthorn <args>` as a child process against this database. */
  cli(...args: string[]): Promise<CliResult>;
}

/** For CLI end-to-end tests: a migrated database plus the environment a production operator would have. */
export async function createCliDb(dialect: DialectName): Promise<CliDb> {
  const db = await createTestDb(dialect);
  const env = { ...db.env, POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: 'mail.posthorn.test' };
  return Object.assign(db, { cli: (...args: string[]) => runCli(args, env) });
}
