import type { Readable } from 'node:stream';
import { parse as parseCsv, type CsvError } from 'csv-parse';
import split2 from 'split2';
import { RefusedError } from '../core/refused-error.js';
import { SUPPRESSION_COLUMNS, shownValue, type ImportFields, type SuppressionColumn } from './suppression-rows.js';

export type ImportFormat = 'csv' | 'ndjson';

/**
 * One row of an import file as read: its fields, or why it could not be read at all. `line` is
 * where the row starts in the file (the CSV header is line 1). `last` marks a fault after which
 * nothing more of the file can be read (an unclosed quote, an over-long line).
 */
export type ReadRow =
  { line: number; fields: ImportFields } | { line: number; value: string; message: string; last?: true };

/**
 * A CSV record or an NDJSON line longer than this is refused. It bounds what one row can make the
 * parser hold: a stray quote would otherwise read the rest of the file into one field.
 */
export const MAX_ROW_BYTES = 64 * 1024;

/**
 * Rows of an import body in batches of up to `batch`, read as they arrive: the parser is pulled
 * only when the previous batch has been handled, so a slow database slows the upload (TCP
 * backpressure) instead of filling memory. A CSV whose header is missing, lacks `address`, or
 * names unknown or repeated columns is refused (a RefusedError naming the column) before any row.
 */
export function readImport(body: Readable, format: ImportFormat, batch: number): AsyncIterable<ReadRow[]> {
  return format === 'csv' ? readCsv(body, batch) : readNdjson(body, batch);
}

type CsvItem = string[] | { skipped: CsvError };

async function* readCsv(body: Readable, batch: number): AsyncGenerator<ReadRow[]> {
  // csv-parse reports a record it cannot parse through on_skip, while parsing: pushing a marker
  // into its output keeps the fault in file order with the records around it.
  const parser = parseCsv({
    bom: true,
    relax_column_count: true,
    skip_records_with_error: true,
    max_record_size: MAX_ROW_BYTES,
    on_skip: (err) => {
      if (err !== undefined) parser.push({ skipped: err });
      return undefined;
    },
  });
  feed(body, parser);
  let columns: SuppressionColumn[] | null = null;
  let line = 1;
  yield* csvRows();

  async function* csvRows(): AsyncGenerator<ReadRow[]> {
    for await (const items of pull<CsvItem>(parser, batch)) {
      const rows: ReadRow[] = [];
      for (const item of items) {
        if (!Array.isArray(item)) {
          const err = item.skipped;
          // Past these, the parser is inside a quoted field that never ends: nothing after can be read.
          const last = err.code === 'CSV_MAX_RECORD_SIZE' || err.code === 'CSV_QUOTE_NOT_CLOSED';
          if (columns === null) throw headerRefusal(`the header line cannot be read: ${err.message}`);
          rows.push({
            line,
            value: '',
            message: last
              ? `a quoted field that never closes (or a row over ${MAX_ROW_BYTES} bytes) starts here; nothing from this line on was read`
              : `this row is not valid CSV (RFC 4180): ${err.message}`,
            ...(last ? { last: true as const } : {}),
          });
          if (last) {
            yield rows;
            return;
          }
          line = Math.max(line, Number(err.lines ?? line)) + 1;
          continue;
        }
        const start = line;
        line += 1 + newlinesIn(item);
        if (columns === null) {
          columns = checkHeader(item);
          continue;
        }
        // A blank line is no row.
        if (item.length === 1 && item[0]!.trim() === '') continue;
        if (item.length !== columns.length) {
          rows.push({
            line: start,
            value: shownValue(item.join(',')),
            message: `this row has ${item.length} fields; the header line names ${columns.length}`,
          });
          continue;
        }
        const fields: ImportFields = {};
        for (let i = 0; i < columns.length; i++) fields[columns[i]!] = item[i]!;
        rows.push({ line: start, fields });
      }
      if (rows.length > 0) yield rows;
    }
    if (columns === null) throw headerRefusal('the body is empty');
  }
}

function newlinesIn(fields: string[]): number {
  let n = 0;
  for (const f of fields) {
    if (f.length === 0 || !f.includes('\n')) continue;
    for (let i = f.indexOf('\n'); i !== -1; i = f.indexOf('\n', i + 1)) n++;
  }
  return n;
}

const COLUMN_LIST = SUPPRESSION_COLUMNS.join(',');

function headerRefusal(why: string): RefusedError {
  return new RefusedError(
    'invalid',
    `${why}; a CSV import starts with a header line naming its columns: address, and optionally reason, created_at, domain, message_id (as the export writes: ${COLUMN_LIST})`,
    { field: 'header' },
  );
}

/** The header line's columns, in order; a RefusedError when it is not an acceptable header. */
function checkHeader(header: string[]): SuppressionColumn[] {
  const names = header.map((h) => h.trim().toLowerCase());
  if (!names.includes('address')) {
    throw new RefusedError(
      'invalid',
      `the CSV has no address column: its first line must be a header line naming the columns (address, and optionally reason, created_at, domain, message_id); it is "${shownValue(header.join(','))}"`,
      { field: 'address' },
    );
  }
  const seen = new Set<string>();
  for (const name of names) {
    if (!(SUPPRESSION_COLUMNS as readonly string[]).includes(name))
      throw headerRefusal(`the header line names an unknown column "${shownValue(name)}"`);
    if (seen.has(name)) throw headerRefusal(`the header line names the column "${name}" twice`);
    seen.add(name);
  }
  return names as SuppressionColumn[];
}

async function* readNdjson(body: Readable, batch: number): AsyncGenerator<ReadRow[]> {
  const lines = split2('\n', { maxLength: MAX_ROW_BYTES });
  feed(body, lines);
  let line = 0;
  try {
    for await (const texts of pull<string>(lines, batch)) {
      const rows: ReadRow[] = [];
      for (const raw of texts) {
        line++;
        const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        if (text.trim() === '') continue;
        rows.push(ndjsonRow(line, text));
      }
      if (rows.length > 0) yield rows;
    }
  } catch (err) {
    // split2's one error of its own: a line over maxLength. Anything else (the upload cut off, too
    // slow, too large) is the body's and goes up as it is.
    if ((err as Error).message === 'maximum buffer reached') {
      yield [
        {
          line: line + 1,
          value: '',
          message: `this line is over ${MAX_ROW_BYTES} bytes; nothing from this line on was read`,
          last: true,
        },
      ];
      return;
    }
    throw err;
  }
}

function ndjsonRow(line: number, text: string): ReadRow {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { line, value: shownValue(text), message: `this line is not JSON: ${(err as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { line, value: shownValue(text), message: 'each line must be a JSON object such as {"address":"…"}' };
  const fields: ImportFields = {};
  for (const [key, v] of Object.entries(value)) {
    if (!(SUPPRESSION_COLUMNS as readonly string[]).includes(key))
      return {
        line,
        value: shownValue(text),
        message: `unknown field "${shownValue(key)}"; the fields are ${SUPPRESSION_COLUMNS.join(', ')}`,
      };
    if (v !== null && typeof v !== 'string')
      return {
        line,
        value: shownValue(text),
        message: `${key} must be a string${key === 'address' ? '' : ' or null'}`,
      };
    fields[key as SuppressionColumn] = v;
  }
  return { line, fields };
}

/**
 * Pipes the body into its parser, and a fault of the body (the upload cut off, too slow, too large)
 * into the parser, so the reader sees it. Not stream.pipeline: that would also destroy the body
 * when the reading stops early (a refused header, a line that cannot be read), and destroying a
 * request still being received resets its connection before the answer can be sent. The body's
 * owner (the HTTP request, the CLI's file) ends it.
 */
function feed(body: Readable, parser: NodeJS.WritableStream & Readable): void {
  body.once('error', (err) => parser.destroy(err));
  body.once('close', () => {
    if (!body.readableEnded) parser.destroy(new Error('the body ended before it was complete'));
  });
  // The reader reports the parser's errors while it reads; after it has stopped, one is of no use.
  parser.on('error', () => {});
  body.pipe(parser);
}

/**
 * The objects of an object-mode stream in arrays of up to `size`: one await per array instead of
 * one per object (what `for await` on the stream costs), reading only when the consumer asks.
 */
async function* pull<T>(stream: Readable, size: number): AsyncGenerator<T[]> {
  let ended = false;
  let failed: Error | null = null;
  let wake: (() => void) | null = null;
  const signal = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  stream.on('readable', signal);
  stream.once('end', () => {
    ended = true;
    signal();
  });
  stream.once('error', (err: Error) => {
    failed = err;
    signal();
  });
  stream.once('close', () => {
    // Destroyed without an error or an end (an aborted request): there is nothing more to read.
    if (!ended && failed === null) failed = new Error('the request body ended before it was complete');
    signal();
  });
  try {
    for (;;) {
      const out: T[] = [];
      let item: T | null;
      while (out.length < size && (item = stream.read() as T | null) !== null) out.push(item);
      if (out.length > 0) {
        yield out;
        continue;
      }
      if (failed !== null) throw failed;
      if (ended) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  } finally {
    stream.off('readable', signal);
  }
}
