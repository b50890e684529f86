import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../storage/database.js';
import { compileOnce } from '../storage/compile-once.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Ids per statement, well under the bound-parameter limits of SQLite and PostgreSQL. */
const CHUNK = 1000;

// The statements of every recorded delivery, compiled once per number of ids (compile-once.ts).
const heldQuery = compileOnce((db, [ids, workerId]: [string[], string], variant) => {
  const q = db.selectFrom('jobs').select('id').where('id', 'in', ids).where('locked_by', '=', workerId);
  return variant === 'postgres' ? q.forUpdate() : q;
});
const deleteQuery = compileOnce((db, [ids, workerId]: [string[], string]) =>
  db.deleteFrom('jobs').where('id', 'in', ids).where('locked_by', '=', workerId),
);

/**
 * Of `ids`, those `workerId` still holds, locked until the caller's transaction ends on PostgreSQL
 * (FOR UPDATE: a claim by another worker skips them meanwhile); SQLite has one writer at a time.
 */
export async function heldJobs(
  db: Db,
  ids: string[],
  workerId: string,
  dialect: 'sqlite' | 'postgres',
): Promise<Set<string>> {
  const held = new Set<string>();
  for (let i = 0; i < ids.length; i += CHUNK) {
    const { rows } = await heldQuery(db, [ids.slice(i, i + CHUNK), workerId], dialect);
    for (const r of rows) held.add(r.id);
  }
  return held;
}

/** Extends the lease of jobs `workerId` still holds to `until`; a job another worker took stays theirs. */
export async function renewJobs(db: Db, ids: string[], workerId: string, until: number): Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK) {
    await db
      .updateTable('jobs')
      .set({ locked_until: until, run_at: until })
      .where('id', 'in', ids.slice(i, i + CHUNK))
      .where('locked_by', '=', workerId)
      .execute();
  }
}

/** Removes finished jobs, but only while `workerId` still holds them (a lease lost to another worker is not ours to finish). */
export async function completeJobs(db: Db, ids: string[], workerId: string): Promise<void> {
  if (ids.length === 0) return;
  for (let i = 0; i < ids.length; i += CHUNK) await deleteQuery(db, [ids.slice(i, i + CHUNK), workerId]);
}

/**
 * Puts jobs back in the queue for `runAt`, counting the attempt just made, and releases the lease;
 * `provider` (of the MX host tried) is kept when known, and a hold the job waited for is over.
 */
export async function rescheduleJobs(
  db: Db,
  ids: string[],
  workerId: string,
  runAt: number,
  error: string,
  provider: string | null = null,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('jobs')
    .set((eb) => ({
      run_at: runAt,
      attempts: eb('attempts', '+', 1),
      locked_by: null,
      locked_until: null,
      last_error: error.slice(0, 1000),
      held: null,
      ...(provider !== null ? { provider } : {}),
    }))
    .where('id', 'in', ids)
    .where('locked_by', '=', workerId)
    .execute();
}

/** Releases jobs without counting an attempt (graceful shutdown before they were tried). */
export async function releaseJobs(db: Db, ids: string[], workerId: string, now: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('jobs')
    .set({ run_at: now, locked_by: null, locked_until: null })
    .where('id', 'in', ids)
    .where('locked_by', '=', workerId)
    .execute();
}
