import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { DialectName } from './open-database.js';

/**
 * True when the JSON array of strings in `column` (a TEXT column written with JSON.stringify, such
 * as `messages.tags`) has `value` as an element: exactly, case included, with no substring false
 * positives. The JSON functions differ: SQLite's json_each (JSON1, built into better-sqlite3) and
 * PostgreSQL's jsonb `?` (a top-level string element).
 */
export function jsonArrayHas(dialect: DialectName, column: string, value: string): RawBuilder<SqlBool> {
  return dialect === 'postgres'
    ? sql<SqlBool>`(${sql.ref(column)})::jsonb ? ${value}`
    : sql<SqlBool>`exists (select 1 from json_each(${sql.ref(column)}) where json_each.value = ${value})`;
}
