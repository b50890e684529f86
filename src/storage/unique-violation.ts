/**
 * True when `err` is the database refusing a row because a UNIQUE constraint or index already has
 * its value: SQLite's SQLITE_CONSTRAINT_UNIQUE (https://www.sqlite.org/rescode.html#constraint_unique)
 * or PostgreSQL's 23505 unique_violation. Lets a feature turn the loser of a race on a unique name
 * into the same `conflict` its own check gives, instead of an internal error.
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}
