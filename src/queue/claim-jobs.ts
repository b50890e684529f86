import type { Deps } from '../deps.js';
import type { JobTable } from '../storage/database.js';
import { skipLocked } from '../storage/skip-locked.js';

/**
 * Claims up to `limit` due jobs of `kind` for `workerId`. A claim moves `run_at` to the end of the
 * lease, so jobs of a worker that crashed become due again by themselves when the lease ends
 * and nothing is lost; completing or rescheduling a job replaces that `run_at`.
 */
export async function claimJobs(
  deps: Pick<Deps, 'db' | 'dialect' | 'clock'>,
  kind: string,
  workerId: string,
  limit: number,
  leaseMs: number,
): Promise<JobTable[]> {
  const now = deps.clock.now();
  return deps.db
    .updateTable('jobs')
    .set({ locked_by: workerId, locked_until: now + leaseMs, run_at: now + leaseMs })
    .where('id', 'in', (eb) =>
      skipLocked(
        eb
          .selectFrom('jobs')
          .select('id')
          .where('kind', '=', kind)
          .where('run_at', '<=', now)
          .orderBy('run_at')
          .limit(limit),
        deps.dialect,
      ),
    )
    .returningAll()
    .execute();
}
