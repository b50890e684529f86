import { hostname } from 'node:os';
import type { Deps } from '../deps.js';
import { recheckDueDomains } from '../domains/recheck-domains.js';
import { retireExpiredDkimKeys, startScheduledRotations } from '../domains/dkim-rotation.js';
import { EVENT_RETENTION_MS, purgeRetention } from '../events/purge-retention.js';
import { ensureEventPartitions } from '../storage/event-partitions.js';
import { runClusterTask } from './cluster-task.js';
import { sendDueTlsReports } from '../delivery/security/send-tls-reports.js';

/**
 * The periodic tasks of the scheduler role, each run once per cluster per POSTHORN_SCHEDULER_INTERVAL
 * by whichever scheduler node claims it first (scheduler/cluster-task.ts, docs/scaling.md). Each
 * returns the fields of its log line, or null when it changed nothing worth an info line.
 */
export const SCHEDULER_TASKS = {
  'domain-recheck': async (deps: Deps) => {
    const checked = await recheckDueDomains(deps);
    return { checked };
  },
  // DKIM rotation (docs/delivery.md, DKIM key rotation): forget retired keys whose grace ended, start
  // the rotations the schedule asks for. The switch itself happens in the domain re-check.
  'dkim-rotation': async (deps: Deps) => {
    const retired = await retireExpiredDkimKeys(deps);
    const started = await startScheduledRotations(deps);
    if (retired > 0 || started.length > 0) deps.log.info({ retired, started }, 'DKIM rotation steps');
    return { retired, started: started.length };
  },
  'event-partitions': async (deps: Deps) => {
    const now = deps.clock.now();
    const made = await ensureEventPartitions(deps.db, deps.dialect, now - EVENT_RETENTION_MS, now);
    if (made.length > 0) deps.log.info({ partitions: made }, 'event partitions created');
    return { created: made.length };
  },
  'retention-purge': async (deps: Deps) => {
    const purged = await purgeRetention(deps);
    if (Object.values(purged).some((n) => n > 0)) deps.log.info({ purged }, 'retention purge');
    return { purged: Object.values(purged).reduce((a, b) => a + b, 0) };
  },
} as const satisfies Record<string, (deps: Deps) => Promise<Record<string, unknown>>>;

export type SchedulerTask = keyof typeof SCHEDULER_TASKS;

/**
 * How often a node asks whether a task is due: a fraction of the interval, so with nodes started at
 * different moments a due task still starts within about a quarter interval of its due time.
 */
export function schedulerTickMs(intervalMs: number): number {
  return Math.max(250, Math.min(10_000, Math.floor(intervalMs / 4)));
}

/**
 * Asks at once and then every tick whether each periodic task is due, and runs the ones this node
 * wins (never two ticks at once on a node; errors are logged). Any number of nodes may run the
 * scheduler role: a task runs once per cluster per interval.
 */
export function startScheduler(deps: Deps): { stop(): Promise<void> } {
  const nodeId = `${hostname()}:${process.pid}:${deps.ids.random(4).toString('hex')}`;
  const interval = deps.config.schedulerInterval;
  let running: Promise<void> | null = null;
  const tick = (): void => {
    if (running) return;
    running = schedulerTick(deps, nodeId, interval).finally(() => {
      running = null;
    });
  };
  tick();
  const timer = setInterval(tick, schedulerTickMs(interval));
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

async function schedulerTick(deps: Deps, nodeId: string, interval: number): Promise<void> {
  for (const [task, fn] of Object.entries(SCHEDULER_TASKS) as [SchedulerTask, (d: Deps) => Promise<object>][]) {
    const t0 = performance.now();
    try {
      const done = await runClusterTask(deps, task, nodeId, interval, () => fn(deps));
      // One line per run, on the node that ran it: a cluster's runs of a task are one grep.
      if (done)
        deps.log.info(
          {
            task,
            run: done.run.run,
            started_at: done.run.startedAt,
            ms: Math.round(performance.now() - t0),
            ...done.result,
          },
          'scheduler task ran',
        );
    } catch (err) {
      deps.log.error({ err, task }, `scheduler task ${task} failed`);
    }
  }
  try {
    // The day's TLS reports (RFC 8460), once the UTC day is over: checked every tick, sent once.
    const sent = await sendDueTlsReports(deps);
    if (sent > 0) deps.log.info({ sent }, 'TLS reports sent');
  } catch (err) {
    deps.log.error({ err }, 'sending TLS reports failed');
  }
}
