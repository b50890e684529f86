import { hostname } from 'node:os';
import type { Deps } from '../deps.js';
import { claimJobs } from '../queue/claim-jobs.js';
import { completeJobs, releaseJobs } from '../queue/finish-jobs.js';
import { createBatcher } from '../storage/batcher.js';
import { deliverGroup, type DeliveryContext, type GroupResult } from './deliver-group.js';
import { loadClaimed } from './load-claimed.js';
import { planOutcomes, writeOutcomes } from './record-outcomes.js';

/** How long a claimed job stays ours; a worker killed mid-delivery loses its jobs to others after it (issue 02 §1, §8). */
export const LEASE_MS = 5 * 60_000;

export interface DeliveryWorkerOptions {
  /** Groups (SMTP transactions) in flight at once. */
  concurrency: number;
  /** Jobs claimed per query. */
  claimBatch: number;
  /** Wait between polls when the queue is empty. */
  idlePollMs: number;
}

export interface DeliveryWorker {
  /** Stops claiming, waits up to `timeoutMs` for attempts in flight, and releases what never started. */
  stop(timeoutMs: number): Promise<void>;
  /** Resolves when the queue was found empty and nothing is in flight (tests and benchmarks). */
  idle(): Promise<void>;
  /** Wakes the loop now (after a local submit) instead of at the next poll. */
  nudge(): void;
}

/**
 * The `delivery` role: claims due jobs, delivers them in groups of one message and one recipient
 * domain, and records each outcome; the outcome writes of concurrent groups share transactions.
 */
export function startDeliveryWorker(deps: Deps, ctx: Omit<DeliveryContext, 'deps'>, opts: DeliveryWorkerOptions): DeliveryWorker {
  const workerId = `${hostname()}:${process.pid}:${deps.ids.random(4).toString('hex')}`;
  const context: DeliveryContext = { ...ctx, deps };
  let running = true;
  let inFlight = 0;
  let wake: (() => void) | null = null;
  /** Callers of idle() with the claim round they were made in; only a later empty claim answers them. */
  let idleWaiters: { after: number; resolve: () => void }[] = [];
  let claimRound = 0;
  const active = new Set<Promise<void>>();

  const recorder = createBatcher<GroupResult, void>(async (results) => {
    const now = deps.clock.now();
    const plan = planOutcomes(results, deps.config, deps.ids, now);
    await deps.db.transaction().execute((trx) => writeOutcomes(trx, plan, workerId, now));
    return results.map(() => undefined);
  }, { maxBatch: 200, concurrency: deps.dialect === 'postgres' ? 4 : 1 });

  const sleep = (ms: number) => new Promise<void>((resolve) => {
    const t = setTimeout(() => { wake = null; resolve(); }, ms);
    wake = () => { clearTimeout(t); wake = null; resolve(); };
  });

  async function runGroup(group: Parameters<typeof deliverGroup>[1]): Promise<void> {
    let result: GroupResult;
    try {
      result = await deliverGroup(context, group);
    } catch (err) {
      // A fault in the attempt counts as a deferral, so the retry schedule and the queue lifetime
      // apply to it too: a message that always fails this way ends as `failed`, not retried forever.
      deps.log.error({ err, message: group.message.id }, 'delivery attempt failed unexpectedly');
      const error = `internal error: ${(err as Error).message}`;
      result = { group, signedAt: null, outcomes: group.items.map(() => ({ kind: 'deferred', error, details: { reason: error } })) };
    }
    try {
      await recorder.submit(result);
    } catch (err) {
      // Not recorded: the jobs keep their lease and are tried again when it ends; nothing is lost.
      deps.log.error({ err, message: group.message.id }, 'recording a delivery outcome failed');
    }
  }

  async function loop(): Promise<void> {
    while (running) {
      const room = opts.concurrency - inFlight;
      // A claim is a write transaction (an fsync on SQLite): claim when a quarter of the slots are
      // free rather than for every finished group; a finishing group wakes the loop.
      if (room <= 0 || (inFlight > 0 && room < Math.min(opts.claimBatch, Math.ceil(opts.concurrency / 4)))) { await sleep(opts.idlePollMs); continue; }
      let claimed;
      const round = ++claimRound;
      try {
        claimed = await claimJobs(deps, 'deliver', workerId, Math.min(room, opts.claimBatch), LEASE_MS);
      } catch (err) {
        deps.log.error({ err }, 'claiming delivery jobs failed');
        await sleep(opts.idlePollMs * 5);
        continue;
      }
      if (claimed.length === 0) {
        if (inFlight === 0) {
          const ready = idleWaiters.filter((w) => w.after < round);
          idleWaiters = idleWaiters.filter((w) => w.after >= round);
          ready.forEach((w) => w.resolve());
        }
        await sleep(opts.idlePollMs);
        continue;
      }
      let groups;
      try {
        let orphans;
        ({ groups, orphans } = await loadClaimed(deps, claimed));
        if (orphans.length > 0) {
          deps.log.warn({ jobs: orphans.length }, 'dropping delivery jobs whose message or body is gone');
          await completeJobs(deps.db, orphans.map((j) => j.id), workerId);
        }
      } catch (err) {
        // A database fault or an unreadable row must not end the loop: these jobs keep their lease
        // and are tried again when it ends, and the loop goes on with the rest of the queue.
        deps.log.error({ err, jobs: claimed.length }, 'loading claimed delivery jobs failed');
        await sleep(opts.idlePollMs);
        continue;
      }
      for (const g of groups) {
        inFlight++;
        const p = runGroup(g).finally(() => { inFlight--; active.delete(p); if (running && wake) wake(); });
        active.add(p);
      }
    }
  }

  const done = loop().catch((err: unknown) => deps.log.fatal({ err }, 'delivery loop stopped'));

  return {
    async stop(timeoutMs) {
      running = false;
      wake?.();
      await done;
      const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), timeoutMs).unref());
      const finished = await Promise.race([Promise.all([...active]).then(() => 'done' as const), timer]);
      if (finished === 'timeout') deps.log.warn({ inFlight }, 'stopping with deliveries in flight: their leases expire and they are retried');
      await recorder.drain();
      // Whatever this worker still holds and did not finish goes back to the queue now, not after the lease.
      const held = await deps.db.selectFrom('jobs').select('id').where('locked_by', '=', workerId).execute();
      if (finished === 'done') await releaseJobs(deps.db, held.map((j) => j.id), workerId, deps.clock.now());
    },
    idle() {
      return new Promise<void>((resolve) => { idleWaiters.push({ after: claimRound, resolve }); wake?.(); });
    },
    nudge() { wake?.(); },
  };
}
