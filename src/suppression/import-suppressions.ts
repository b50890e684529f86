import type { Readable } from 'node:stream';
import type { Deps } from '../deps.js';
import type { Actor } from '../core/actor.js';
import { recordAudit } from '../audit/audit-log.js';
import { RefusedError } from '../core/refused-error.js';
import {
  insertSuppressions,
  refreshSuppressionStats,
  startSuppressionWriter,
  type SuppressionWriter,
} from '../storage/insert-suppressions.js';
import { readImport, type ImportFormat } from './read-import.js';
import { checkRow, isProblem, type CheckedRow } from './suppression-rows.js';

/** What an import did (docs/api.md, Suppressions): the answer of POST /v1/suppressions/import. */
export interface ImportResult {
  /** Rows added to the list. */
  imported: number;
  /** Valid rows whose address was already on the list (or earlier in the same file): left as they were. */
  already_suppressed: number;
  invalid_count: number;
  /** The first MAX_INVALID_SHOWN invalid rows: where, the value at fault, and what is wrong. */
  invalid: { line: number; value: string; message: string }[];
}

export const MAX_INVALID_SHOWN = 100;

/**
 * The most valid rows an import writes in one insert, in one transaction (on any database). A
 * larger import goes to a writer (insert-suppressions.ts, startSuppressionWriter) that stages its
 * rows and adds them in address order once the body is read: on SQLite a thread of its own, on
 * PostgreSQL COPY into an unlogged table and a merge over two connections (pg-suppression-import.ts).
 * Batches of addresses in no order rewrite pages all over the primary key at every commit (on
 * SQLite 1,000,000 rows wrote 3.4 GB of WAL in batches of 10,000, under 1 GB in batches of 50,000,
 * and about 0.2 GB in address order; on PostgreSQL they cost its backends about half again as much
 * CPU per row as the staged merge, bench:suppressions).
 */
export const IMPORT_BATCH = 20_000;

/**
 * Rows per batch handed to an import's writer once it has one (after the first IMPORT_BATCH rows):
 * batches this small are collected before the next minor GC, so they are not promoted to the old
 * generation and the heap does not grow with the import.
 */
export const HANDOVER_ROWS = 2_000;

/** An import that adds at least this many rows refreshes the database's statistics of the list. */
const STATS_AFTER = 10_000;

/**
 * An import that stopped before the end of its body (the upload was cut off, too slow, or over
 * the size limit): the rows read before it are committed, and `result` says how many were added.
 */
export class ImportInterrupted extends Error {
  constructor(
    readonly result: ImportResult,
    override readonly cause: unknown,
  ) {
    super(`the import stopped after ${result.imported} rows were imported: ${(cause as Error).message}`);
  }
}

/**
 * Imports a CSV or NDJSON body into the account's suppression list (`posthorn suppression import`,
 * `POST /v1/suppressions/import`), streaming: rows are parsed as they arrive and written with
 * `ON CONFLICT DO NOTHING` a batch at a time (IMPORT_BATCH), so memory stays flat whatever the size,
 * an address already listed keeps its entry, and importing the same file again imports nothing.
 * Invalid rows are counted and the first MAX_INVALID_SHOWN reported by line; the valid ones are
 * imported all the same. A row without created_at gets the time the import started. The import
 * is recorded in the audit log once, with its counts, when it ends (or when it stops part-way
 * after adding rows: an ImportInterrupted, whose committed rows stay).
 */
export async function importSuppressions(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  accountId: string,
  input: { format: ImportFormat; body: Readable },
  actor: Actor,
  batchSize = IMPORT_BATCH,
): Promise<ImportResult> {
  const now = deps.clock.now();
  const result: ImportResult = { imported: 0, already_suppressed: 0, invalid_count: 0, invalid: [] };
  let pending: CheckedRow[] = [];
  // An import of more than one batch gives its rows to a writer of its own (insert-suppressions.ts),
  // one batch at a time while the next is read: `adding` is the batch being handed over. A smaller
  // import is one insert on the usual connection, with no thread to start.
  let writer = null as SuppressionWriter | null;
  let adding: Promise<void> | null = null;
  const settle = async (): Promise<void> => {
    const batch = adding;
    adding = null;
    await batch;
  };
  const flush = async (last: boolean): Promise<void> => {
    if (pending.length === 0) return;
    const rows = pending;
    pending = [];
    await settle();
    if (writer === null && last) {
      const inserted = await insertSuppressions(deps.db, accountId, rows);
      result.imported += inserted;
      result.already_suppressed += rows.length - inserted;
      return;
    }
    writer ??= startSuppressionWriter(deps.db, accountId);
    adding = writer.add(rows);
    // Its failure is thrown where it is awaited (settle); until then it is no unhandled rejection.
    adding.catch(() => {});
  };
  // What the writer inserted: also after a fault, the rows it was given before are inserted.
  let finished = false;
  const finish = async (): Promise<void> => {
    if (writer === null || finished) return;
    finished = true;
    const done = await writer.finish();
    result.imported += done.inserted;
    result.already_suppressed += done.merged - done.inserted;
    if (done.error !== null) throw done.error;
  };
  try {
    try {
      const handOver = Math.min(batchSize, HANDOVER_ROWS);
      for await (const batch of readImport(input.body, input.format, handOver)) {
        for (const row of batch) {
          const checked = 'fields' in row ? checkRow(row.fields, now) : row;
          if (isProblem(checked)) {
            result.invalid_count++;
            if (result.invalid.length < MAX_INVALID_SHOWN)
              result.invalid.push({ line: row.line, value: checked.value, message: checked.message });
            continue;
          }
          pending.push(checked);
        }
        if (pending.length >= (writer === null ? batchSize : handOver)) await flush(false);
      }
      await flush(true);
      await settle();
      await finish();
    } catch (err) {
      // A refused header comes before any row: no writer was started.
      await settle().catch(() => {});
      await finish().catch(() => {});
      throw err;
    } finally {
      await writer?.close();
    }
    if (result.imported >= STATS_AFTER) await refreshSuppressionStats(deps.db);
  } catch (err) {
    // A refused header comes before any row: nothing was imported, the refusal is the answer.
    if (err instanceof RefusedError) throw err;
    // With rows imported, the entry is also the syncing commit that makes them durable (as below).
    if (result.imported > 0) await audit(deps, accountId, actor, result, 'stopped');
    throw new ImportInterrupted(result, err);
  }
  // Also what makes the batches durable on SQLite (insert-suppressions.ts): this commit syncs.
  await audit(deps, accountId, actor, result);
  return result;
}

async function audit(
  deps: Pick<Deps, 'db' | 'clock' | 'ids'>,
  accountId: string,
  actor: Actor,
  r: ImportResult,
  stopped?: 'stopped',
): Promise<void> {
  await recordAudit(deps.db, deps, {
    accountId,
    actor,
    action: 'suppression.import',
    target: `${r.imported} imported, ${r.already_suppressed} already suppressed, ${r.invalid_count} invalid${stopped ? ' (stopped part-way)' : ''}`,
  });
}
