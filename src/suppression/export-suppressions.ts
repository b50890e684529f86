import { Readable } from 'node:stream';
import type { Deps } from '../deps.js';
import type { SuppressionReason } from '../storage/database.js';
import { SUPPRESSION_COLUMNS } from './suppression-rows.js';

export type ExportFormat = 'csv' | 'ndjson';

/** Media types of the two export formats (docs/api.md, Suppressions). */
export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson',
};

/** Rows per query. Each page is one short read, formatted and handed on before the next is read. */
export const EXPORT_PAGE = 5000;

interface Row {
  address: string;
  reason: SuppressionReason;
  created_at: number;
  domain: string | null;
  message_id: string | null;
}

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

function csvLines(rows: readonly Row[]): string {
  let out = '';
  for (const r of rows) {
    out += `${csvField(r.address)},${r.reason},${new Date(Number(r.created_at)).toISOString()},${csvField(r.domain)},${csvField(r.message_id)}\n`;
  }
  return out;
}

function ndjsonLines(rows: readonly Row[]): string {
  let out = '';
  for (const r of rows) {
    out += `${JSON.stringify({
      address: r.address,
      reason: r.reason,
      created_at: new Date(Number(r.created_at)).toISOString(),
      domain: r.domain,
      message_id: r.message_id,
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
  let after: string | null = null;
  for (;;) {
    let q = deps.db
      .selectFrom('suppressions')
      .select(['address', 'reason', 'created_at', 'domain', 'message_id'])
      .where('account_id', '=', accountId);
    if (after !== null) q = q.where('address', '>', after);
    const rows: Row[] = await q.orderBy('address').limit(EXPORT_PAGE).execute();
    if (rows.length === 0) return;
    yield format === 'csv' ? csvLines(rows) : ndjsonLines(rows);
    if (rows.length < EXPORT_PAGE) return;
    after = rows[rows.length - 1]!.address;
  }
}
