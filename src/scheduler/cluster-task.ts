import type { Deps } from '../deps.js';

/**
 * How long a node holds a periodic task it started unless it renews the lease; it renews every third
 * of it while the task runs, so a long purge keeps its task, and the task of a node that died is
 * free for another after at most this long (then it runs at the next tick that finds its period due).
 */
export const CLUSTER_TASK_LEASE_MS = 60_000;

/** A claimed run: when it started (the node's clock) and which run of the cluster it is. */
export interface ClusterTaskRun {
  startedAt: number;
  run: number;
}

/**
 * Starts a run of task `name` for `nodeId` when its period is due and no live lease holds it, in
 * one atomic upsert (docs/scaling.md, What runs once per cluster): of several nodes asking at once
 * exactly one gets the run, the others null. The first ask ever creates the row.
 */
export async function claimClusterTask(
  deps: Pick<Deps, 'db' | 'clock'>,
  name: string,
  nodeId: string,
  periodMs: number,
  leaseMs = CLUSTER_TASK_LEASE_MS,
): Promise<ClusterTaskRun | null> {
  const now = deps.clock.now();
  const row = await deps.db
    .insertInto('cluster_tasks')
    .values({ name, locked_by: nodeId, locked_until: now + leaseMs, last_started_at: now, runs: 1 })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet((eb) => ({
          locked_by: eb.ref('excluded.locked_by'),
          locked_until: eb.ref('excluded.locked_until'),
          last_started_at: eb.ref('excluded.last_started_at'),
          runs: eb('cluster_tasks.runs', '+', 1),
        }))
        .where((eb) =>
          eb.and([
            eb('cluster_tasks.last_started_at', '<=', now - periodMs),
            eb.or([eb('cluster_tasks.locked_until', 'is', null), eb('cluster_tasks.locked_until', '<=', now)]),
          ]),
        ),
    )
    .returning(['last_started_at', 'runs'])
    .executeTakeFirst();
  return row ? { startedAt: Number(row.last_started_at), run: Number(row.runs) } : null;
}

/** Extends `nodeId`'s lease on `name` to `until`; nothing when another node took it meanwhile. */
export async function renewClusterTask(
  deps: Pick<Deps, 'db'>,
  name: string,
  nodeId: string,
  until: number,
): Promise<void> {
  await deps.db
    .updateTable('cluster_tasks')
    .set({ locked_until: until })
    .where('name', '=', name)
    .where('locked_by', '=', nodeId)
    .execute();
}

/** Ends `nodeId`'s run of `name`: the lease is released and the next run waits for the period. */
export async function finishClusterTask(
  deps: Pick<Deps, 'db'>,
  name: string,
  nodeId: string,
  now: number,
): Promise<void> {
  await deps.db
    .updateTable('cluster_tasks')
    .set({ locked_by: null, locked_until: null, last_finished_at: now })
    .where('name', '=', name)
    .where('locked_by', '=', nodeId)
    .execute();
}

/**
 * Runs `task` if this node wins its run for the period (claimClusterTask), renewing the lease every
 * third of it while it runs and releasing it after, also when the task throws (the error is
 * passed on). Returns the run, or null when the task was not due or another node holds it.
 */
export async function runClusterTask<T>(
  deps: Pick<Deps, 'db' | 'clock' | 'log'>,
  name: string,
  nodeId: string,
  periodMs: number,
  task: (run: ClusterTaskRun) => Promise<T>,
  leaseMs = CLUSTER_TASK_LEASE_MS,
): Promise<{ run: ClusterTaskRun; result: T } | null> {
  const run = await claimClusterTask(deps, name, nodeId, periodMs, leaseMs);
  if (!run) return null;
  const renewal = setInterval(
    () => {
      renewClusterTask(deps, name, nodeId, deps.clock.now() + leaseMs).catch((err: unknown) =>
        deps.log.error({ err, task: name }, 'renewing a scheduler task lease failed; retried at the next renewal'),
      );
    },
    Math.max(10, Math.floor(leaseMs / 3)),
  );
  renewal.unref();
  try {
    return { run, result: await task(run) };
  } finally {
    clearInterval(renewal);
    await finishClusterTask(deps, name, nodeId, deps.clock.now()).catch((err: unknown) =>
      deps.log.error({ err, task: name }, 'releasing a scheduler task failed; its lease ends by itself'),
    );
  }
}
