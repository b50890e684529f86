/**
 * True for an insert refused by a unique constraint or primary key, on either database
 * (PostgreSQL's SQLSTATE 23505, SQLite's extended result codes): a concurrent writer took the
 * same name first, which a feature reports as a conflict rather than a fault.
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
