import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../storage/database.js';

type Db = Kysely<Database> | Transaction<Database>;

/** Removes finished jobs, but only while `workerId` still holds them (a lease lost to another worker is not ours to finish). */
export async function completeJobs(db: Db, ids: string[], workerId: string): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('jobs').where('id', 'in', ids).where('locked_by', '=', workerId).execute();
}

/** Puts jobs back in the queue for `runAt`, counting the attempt just made, and releases the lease. */
export async function rescheduleJobs(db: Db, ids: string[], workerId: string, runAt: number, error: string): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('jobs')
    .set((eb) => ({ run_at: runAt, attempts: eb('attempts', '+', 1), locked_by: null, locked_until: null, last_error: error.slice(0, 1000) }))
    .where('id', 'in', ids).where('locked_by', '=', workerId).execute();
}

/** Releases jobs without counting an attempt (graceful shutdown before they were tried). */
export async function releaseJobs(db: Db, ids: string[], workerId: string, now: number): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('jobs').set({ run_at: now, locked_by: null, locked_until: null })
    .where('id', 'in', ids).where('locked_by', '=', workerId).execute();
}
