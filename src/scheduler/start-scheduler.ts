import type { Deps } from '../deps.js';
import { recheckDueDomains } from '../domains/recheck-domains.js';
import { retireExpiredDkimKeys, startScheduledRotations } from '../domains/dkim-rotation.js';
import { EVENT_RETENTION_MS, purgeRetention } from '../events/purge-retention.js';
import { ensureEventPartitions } from '../storage/event-partitions.js';

/**
 * How often the scheduler role re-checks due domains, takes the DKIM rotation steps that are due,
 * makes event partitions and purges what retention allows.
 */
const SCHEDULER_TICK_MS = 60_000;

/** Runs the periodic work once now and then every minute, never two runs at once; errors are logged. */
export function startScheduler(deps: Deps): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  const tick = (): void => {
    if (running) return;
    running = schedulerTick(deps).finally(() => {
      running = null;
    });
  };
  tick();
  const timer = setInterval(tick, SCHEDULER_TICK_MS);
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

async function schedulerTick(deps: Deps): Promise<void> {
  try {
    const checked = await recheckDueDomains(deps);
    if (checked > 0) deps.log.debug({ checked }, 'domains re-checked');
  } catch (err) {
    deps.log.error({ err }, 'domain re-check failed');
  }
  try {
    // DKIM rotation (docs/delivery-dkim-rotation.md): forget retired keys whose grace ended, start
    // the rotations the schedule asks for. The switch itself happens in the re-check above.
    const retired = await retireExpiredDkimKeys(deps);
    const started = await startScheduledRotations(deps);
    if (retired > 0 || started.length > 0) deps.log.info({ retired, started }, 'DKIM rotation steps');
  } catch (err) {
    deps.log.error({ err }, 'DKIM rotation steps failed');
  }
  try {
    const now = deps.clock.now();
    const made = await ensureEventPartitions(deps.db, deps.dialect, now - EVENT_RETENTION_MS, now);
    if (made.length > 0) deps.log.info({ partitions: made }, 'event partitions created');
  } catch (err) {
    deps.log.error({ err }, 'creating event partitions failed');
  }
  try {
    const purged = await purgeRetention(deps);
    if (Object.values(purged).some((n) => n > 0)) deps.log.info({ purged }, 'retention purge');
  } catch (err) {
    deps.log.error({ err }, 'retention purge failed');
  }
}
