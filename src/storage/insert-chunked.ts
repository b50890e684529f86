import type { Insertable, Kysely, Transaction } from 'kysely';
import type { Database } from './database.js';
import { compileOnce } from './compile-once.js';

// SQLite allows 32,766 bound parameters per statement and PostgreSQL 65,535; stay under both.
const MAX_PARAMS = 30_000;

type Db = Kysely<Database> | Transaction<Database>;
type Insert = (db: Db, args: [unknown[]], variant: string) => Promise<unknown>;

/** One compiled INSERT per table, its shapes keyed by the columns and the number of rows (compile-once.ts). */
const inserts = new Map<string, Insert>();

function insertFor(table: keyof Database & string): Insert {
  let insert = inserts.get(table);
  if (insert === undefined) {
    // The rows' values come flat, row after row in the order of `columns` (the variant's text).
    insert = compileOnce((db: Db, [values]: [unknown[]], variant: string) => {
      const columns = variant.split(',');
      const rows: Record<string, unknown>[] = [];
      for (let i = 0; i < values.length; i += columns.length)
        rows.push(Object.fromEntries(columns.map((c, k) => [c, values[i + k]])));
      // Kysely cannot narrow a generic table's row type; the rows are typed by insertChunked's signature.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      return db.insertInto(table).values(rows as any);
    });
    inserts.set(table, insert);
  }
  return insert;
}

/** A value Kysely binds as a parameter as it is (not an expression, a subquery or a function). */
function plain(v: unknown): boolean {
  return v === null || typeof v !== 'object' ? v !== undefined && typeof v !== 'function' : v instanceof Uint8Array;
}

/** Inserts rows with as few multi-row INSERT statements as the parameter limits allow. */
export async function insertChunked<T extends keyof Database & string>(
  db: Db,
  table: T,
  rows: Insertable<Database[T]>[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0] as object);
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    const values = flatten(chunk as Record<string, unknown>[], columns);
    if (values === null) {
      // Rows of other shapes (a missing column, an expression): Kysely compiles them as they are.
      await db
        .insertInto(table)
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        .values(chunk as any)
        .execute();
      continue;
    }
    await insertFor(table)(db, [values], columns.join(','));
  }
}

/** The rows' values row after row, or null unless every row has exactly `columns`, each a plain value. */
function flatten(rows: Record<string, unknown>[], columns: string[]): unknown[] | null {
  const values: unknown[] = [];
  for (const row of rows) {
    let n = 0;
    for (const c in row) {
      n++;
      if (!plain(row[c])) return null;
    }
    if (n !== columns.length) return null;
    for (const c of columns) {
      if (!(c in row)) return null;
      values.push(row[c]);
    }
  }
  return values;
}
