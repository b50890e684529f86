import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from './config/schema.js';
import type { Clock } from './core/clock.js';
import type { DnsResolver } from './core/dns-resolver.js';
import type { Ids } from './core/ids.js';
import type { Metrics } from './metrics/metrics.js';
import type { RateLimiter } from './rate-limit/rate-limiter.js';
import type { Database } from './storage/database.js';
import type { DialectName } from './storage/open-database.js';

/**
 * Every side effect Posthorn has, passed in (CONTRIBUTING.md, Conventions). main.ts builds the real
 * ones; test/helpers/test-deps.ts builds real databases with a fake clock and a loopback resolver.
 */
export interface Deps {
  config: Readonly<Config>;
  db: Kysely<Database>;
  dialect: DialectName;
  clock: Clock;
  ids: Ids;
  resolver: DnsResolver;
  log: Logger;
  metrics: Metrics;
  limiter: RateLimiter;
}
