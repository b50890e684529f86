import type { Logger } from 'pino';

/** What a claim loop needs: how to claim work and how to run one claimed unit. */
export interface ClaimLoopOptions<T> {
  /** Units (SMTP transactions, webhook POSTs) in flight at once. */
  concurrency: number;
  /** Most rows one claim may take. */
  claimBatch: number;
  /** Wait between polls when nothing is due. */
  idlePollMs: number;
  log: Pick<Logger, 'error' | 'fatal'>;
  /** Names the loop in logs. */
  name: string;
  /** Claims up to `limit` rows (a lease is the caller's business) and returns the units to run. */
  claim(limit: number): Promise<T[]>;
  /** Runs one unit; must not throw (a rejection is logged). */
  run(unit: T): Promise<void>;
}

export interface ClaimLoop {
  /** Stops claiming and waits up to `timeoutMs` for units in flight; says whether they all finished. */
  stop(timeoutMs: number): Promise<'done' | 'timeout'>;
  /** Resolves when a claim made after this call found nothing and nothing is in flight (tests, benchmarks). */
  idle(): Promise<void>;
  /** Wakes the loop now instead of at the next poll. */
  nudge(): void;
  /** Units in flight now. */
  inFlight(): number;
  /** Resolves when every unit started so far has finished (after a timed-out stop, once they are aborted). */
  settled(): Promise<void>;
}

/**
 * The poll-claim-run loop shared by the delivery worker and the webhook dispatcher, with the
 * database as the queue (docs/architecture.md, "The database is the queue"; graphile-worker's
 * model): claim due rows in batches, keep up to `concurrency` units running, and claim again when a
 * quarter of the slots are free rather than after every finished unit — a claim is a write
 * transaction, an fsync on SQLite. A failing claim never ends the loop: what it took keeps its
 * lease and comes back when the lease ends.
 */
export function startClaimLoop<T>(opts: ClaimLoopOptions<T>): ClaimLoop {
  let running = true;
  let inFlight = 0;
  let wake: (() => void) | null = null;
  /** Callers of idle() with the claim round they were made in; only a later empty claim answers them. */
  let idleWaiters: { after: number; resolve: () => void }[] = [];
  let claimRound = 0;
  const active = new Set<Promise<void>>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        wake = null;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(t);
        wake = null;
        resolve();
      };
    });

  async function loop(): Promise<void> {
    while (running) {
      const room = opts.concurrency - inFlight;
      if (room <= 0 || (inFlight > 0 && room < Math.min(opts.claimBatch, Math.ceil(opts.concurrency / 4)))) {
        await sleep(opts.idlePollMs);
        continue;
      }
      const round = ++claimRound;
      let units: T[];
      try {
        units = await opts.claim(Math.min(room, opts.claimBatch));
      } catch (err) {
        opts.log.error({ err }, `${opts.name}: claiming failed`);
        await sleep(opts.idlePollMs * 5);
        continue;
      }
      if (units.length === 0) {
        if (inFlight === 0) {
          const ready = idleWaiters.filter((w) => w.after < round);
          idleWaiters = idleWaiters.filter((w) => w.after >= round);
          ready.forEach((w) => w.resolve());
        }
        await sleep(opts.idlePollMs);
        continue;
      }
      for (const unit of units) {
        inFlight++;
        const p = opts
          .run(unit)
          .catch((err: unknown) => opts.log.error({ err }, `${opts.name}: a unit failed unexpectedly`))
          .finally(() => {
            inFlight--;
            active.delete(p);
            if (running && wake) wake();
          });
        active.add(p);
      }
    }
  }

  const done = loop().catch((err: unknown) => opts.log.fatal({ err }, `${opts.name}: loop stopped`));

  return {
    async stop(timeoutMs) {
      running = false;
      wake?.();
      await done;
      const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), timeoutMs).unref());
      return Promise.race([Promise.all([...active]).then(() => 'done' as const), timer]);
    },
    async settled() {
      await Promise.all([...active]);
    },
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push({ after: claimRound, resolve });
        wake?.();
      });
    },
    nudge() {
      wake?.();
    },
    inFlight: () => inFlight,
  };
}
