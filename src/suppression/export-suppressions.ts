import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Deps } from '../deps.js';
import type { Database, SuppressionReason } from '../storage/database.js';
import { pgPool, sqliteConnection } from '../storage/open-database.js';
import { SUPPRESSION_COLUMNS } from './suppression-rows.js';

export type ExportFormat = 'csv' | 'ndjson';

/** Media types of the two export formats (docs/api.md, Suppressions). */
export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson',
};

/** Rows per query. Each page is one short read, formatted and handed on before the next is read. */
export const EXPORT_PAGE = 5000;

/** One row of a page: address, reason, created_at, domain, message_id (as SQLite's `.raw()` gives them, no object per row). */
type Row = [
  address: string,
  reason: SuppressionReason,
  createdAt: number,
  domain: string | null,
  messageId: string | null,
];

/** The CSV header line of an export. */
export const CSV_HEADER = `${SUPPRESSION_COLUMNS.join(',')}\n`;

// RFC 4180 §2: a field holding a comma, a double quote or a line break is quoted, and its quotes
// doubled. Hand-written rather than csv-stringify: it is these three lines, and csv-stringify cost
// about seven times as much per row, which the export's target speed (CONTRIBUTING.md, bench:suppressions)
// cannot spare.
const NEEDS_QUOTES = /[",\r\n]/;
function csvField(value: string | null): string {
  if (value === null) return '';
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * created_at as the export writes it (ISO 8601 in UTC), remembering the last one: the rows of one
 * import share its start time unless the file gave theirs, so most rows repeat the row before's
 * value, and formatting a Date was the largest cost per row after reading it.
 */
function isoTimes(): (ms: number | string) => string {
  let lastMs: number | string | null = null;
  let lastIso = '';
  return (ms) => {
    if (ms !== lastMs) {
      lastMs = ms;
      lastIso = new Date(Number(ms)).toISOString();
    }
    return lastIso;
  };
}

function csvLines(rows: readonly Row[], iso: (ms: number | string) => string): string {
  let out = '';
  for (const r of rows) {
    out += `${csvField(r[0])},${r[1]},${iso(r[2])},${csvField(r[3])},${csvField(r[4])}\n`;
  }
  return out;
}

function ndjsonLines(rows: readonly Row[], iso: (ms: number | string) => string): string {
  let out = '';
  for (const r of rows) {
    out += `${JSON.stringify({
      address: r[0],
      reason: r[1],
      created_at: iso(r[2]),
      domain: r[3],
      message_id: r[4],
    })}\n`;
  }
  return out;
}

/**
 * The account's whole suppression list as CSV (header line first) or NDJSON, in address order,
 * as a stream (`posthorn suppression export`, `GET /v1/suppressions/export`). It reads the list a
 * page at a time by keyset (address > the last one sent), and reads the next page only when the
 * consumer has taken the previous one, so memory holds one page whatever the list's size and a
 * slow reader slows the reads. It is not one snapshot: an address added or removed during a long
 * export may or may not be in it. The same list always exports to the same bytes.
 */
export function exportSuppressions(deps: Pick<Deps, 'db'>, accountId: string, format: ExportFormat): Readable {
  return Readable.from(exportChunks(deps, accountId, format), { objectMode: false });
}

async function* exportChunks(deps: Pick<Deps, 'db'>, accountId: string, format: ExportFormat): AsyncGenerator<string> {
  if (format === 'csv') yield CSV_HEADER;
  const iso = isoTimes();
  const readPage = pageReader(deps.db, accountId);
  let page: Promise<Row[]> | null = readPage(null);
  while (page !== null) {
    const rows: Row[] = await page;
    // The next page is asked for before this one is written out, so on PostgreSQL the database
    // reads it while this thread formats and sends (on SQLite the read is synchronous: no overlap).
    // Caught here only so that a download abandoned before it is read raises no unhandled
    // rejection; awaited above, it still throws.
    page = rows.length < EXPORT_PAGE ? null : readPage(rows[rows.length - 1]![0]);
    page?.catch(() => {});
    if (rows.length > 0) yield format === 'csv' ? csvLines(rows, iso) : ndjsonLines(rows, iso);
  }
}

const SQLITE_PAGE = `SELECT address, reason, created_at, domain, message_id FROM suppressions WHERE account_id = ? AND address > ? ORDER BY address LIMIT ${EXPORT_PAGE}`;

/**
 * Reads one page of the export: the EXPORT_PAGE addresses after `after` (from the first when null).
 * On SQLite, one prepared statement run on the connection Kysely lends (so it never runs inside
 * another caller's transaction): building and compiling the Kysely query for each page cost about
 * as much as SQLite's own reading. The empty string sorts before every address.
 */
// PostgreSQL: a named prepared statement (planned once per connection) answering rows as arrays,
// the form the writers take, rather than an object per row built by the driver and then copied.
// `address > ''` is every address: the first page needs no statement of its own.
const PG_PAGE = {
  name: 'posthorn_suppressions_export_v1',
  text: `SELECT address, reason, created_at, domain, message_id FROM suppressions WHERE account_id = $1 AND address > $2 ORDER BY address LIMIT ${EXPORT_PAGE}`,
};

function pageReader(db: Kysely<Database>, accountId: string): (after: string | null) => Promise<Row[]> {
  const sqlite = sqliteConnection(db);
  if (sqlite !== undefined) {
    const stmt = sqlite.prepare(SQLITE_PAGE).raw();
    return (after) => db.connection().execute(async () => stmt.all(accountId, after ?? '') as Row[]);
  }
  const pool = pgPool(db);
  if (pool === undefined) {
    // A database handle Posthorn did not open itself (a transaction of the caller's): through Kysely.
    return async (after) => {
      const rows = await db
        .selectFrom('suppressions')
        .select(['address', 'reason', 'created_at', 'domain', 'message_id'])
        .where('account_id', '=', accountId)
        .where('address', '>', after ?? '')
        .orderBy('address')
        .limit(EXPORT_PAGE)
        .execute();
      return rows.map((r): Row => [r.address, r.reason, r.created_at, r.domain, r.message_id]);
    };
  }
  return async (after) =>
    (await pool.query<Row>({ ...PG_PAGE, values: [accountId, after ?? ''], rowMode: 'array' })).rows;
}
