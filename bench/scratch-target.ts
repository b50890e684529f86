// A fresh data dir, and for PostgreSQL a fresh database, for one benchmark run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DialectName } from '../src/storage/open-database.js';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Where a run keeps its data: env for a `posthorn serve` child, and a cleanup that removes it all. */
export interface ScratchTarget {
  env: Record<string, string>;
  dataDir: string;
  url: string | null;
  cleanup(): Promise<void>;
}

/** Creates the scratch target (PostgreSQL at BENCH_DATABASE_URL's server, a database named after `label`). */
export async function scratchTarget(dialect: DialectName, label: string): Promise<ScratchTarget> {
  const dataDir = mkdtempSync(join(tmpdir(), 'posthorn-bench-'));
  if (dialect === 'sqlite')
    return {
      env: { POSTHORN_DATA_DIR: dataDir },
      dataDir,
      url: null,
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  const name = `posthorn_bench_${label}_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return {
    env: { POSTHORN_DATA_DIR: dataDir, POSTHORN_DATABASE_URL: url.toString() },
    dataDir,
    url: url.toString(),
    cleanup: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
