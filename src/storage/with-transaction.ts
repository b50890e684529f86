import type { Kysely, Transaction } from 'kysely';
import type { Database } from './database.js';

/**
 * Runs `fn` in a transaction: the caller's, when `db` already is one (the sandbox bootstrap adds its
 * domain inside its own), or a new one. Kysely refuses to nest transactions, so a feature that
 * must commit its change and its audit entry together uses this rather than `db.transaction()`.
 */
export function withTransaction<T>(
  db: Kysely<Database> | Transaction<Database>,
  fn: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? fn(db as Transaction<Database>) : db.transaction().execute(fn);
}
