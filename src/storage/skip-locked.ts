import type { SelectQueryBuilder } from 'kysely';
import type { DialectName } from './open-database.js';

/**
 * `FOR UPDATE SKIP LOCKED` on PostgreSQL, so workers on several nodes claim disjoint jobs without
 * waiting on each other. SQLite has one writer at a time and no row locks, so the clause is omitted.
 */
export function skipLocked<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  dialect: DialectName,
): SelectQueryBuilder<DB, TB, O> {
  return dialect === 'postgres' ? qb.forUpdate().skipLocked() : qb;
}
