import pino from 'pino';
import { loadConfig } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import { createIds } from '../../src/core/ids.js';
import type { DnsResolver } from '../../src/core/dns-resolver.js';
import type { Deps } from '../../src/deps.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import { createDbRateLimiter } from '../../src/rate-limit/db-rate-limiter.js';
import { createMemoryRateLimiter } from '../../src/rate-limit/rate-limiter.js';
import type { DialectName } from '../../src/storage/open-database.js';
import { fakeClock, type FakeClock } from './fake-clock.js';
import { createTestDb, type TestDb } from './test-db.js';

/** A resolver that knows no names: tests that need DNS start test/helpers/dns-server.ts. */
const noDns: DnsResolver = {
  resolveTxt: async () => {
    throw Object.assign(new Error('no DNS in this test'), { code: 'ENOTFOUND' });
  },
  resolveCname: async () => {
    throw Object.assign(new Error('no DNS in this test'), { code: 'ENOTFOUND' });
  },
  resolveMx: async () => {
    throw Object.assign(new Error('no DNS in this test'), { code: 'ENOTFOUND' });
  },
  resolve4: async () => {
    throw Object.assign(new Error('no DNS in this test'), { code: 'ENOTFOUND' });
  },
  resolve6: async () => {
    throw Object.assign(new Error('no DNS in this test'), { code: 'ENOTFOUND' });
  },
};

export interface TestDeps extends Deps {
  clock: FakeClock;
  testDb: TestDb;
  close(): Promise<void>;
}

/**
 * Real Deps on a fresh database of `dialect`, with a fake clock, silent logs and production-mode
 * config (plus `env` overrides, using the variable names of docs/config.md).
 */
export async function createTestDeps(
  dialect: DialectName,
  opts: { env?: Record<string, string>; resolver?: DnsResolver; writerThread?: boolean } = {},
): Promise<TestDeps> {
  const testDb = await createTestDb(
    dialect,
    opts.writerThread === undefined ? {} : { writerThread: opts.writerThread },
  );
  const config: Readonly<Config> = loadConfig({
    POSTHORN_SANDBOX: '0',
    POSTHORN_HOSTNAME: 'mail.posthorn.test',
    ...testDb.env,
    ...opts.env,
  });
  const deps: TestDeps = {
    config,
    db: testDb.db,
    dialect,
    clock: fakeClock(),
    ids: createIds(),
    resolver: opts.resolver ?? noDns,
    log: pino({ level: 'silent' }),
    metrics: createMetrics(false),
    limiter: dialect === 'postgres' ? createDbRateLimiter(testDb.db) : createMemoryRateLimiter(),
    testDb,
    close: () => testDb.close(),
  };
  return deps;
}
