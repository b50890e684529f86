import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';

/** `bin/posthorn.js`, from src/processes/ and from dist/processes/ alike. */
const ENTRY = fileURLToPath(new URL('../../bin/posthorn.js', import.meta.url));

/** The environment variable naming a supervised child (its log field `process`); set by the supervisor only. */
export const SUPERVISED_VARIABLE = 'POSTHORN_SUPERVISED';

/** A child that exits sooner than this after it was started counts as a fast failure. */
const FAST_FAILURE_MS = 10_000;
/** Fast failures in a row after which the supervisor gives up (and the server stops, exit 1). */
const MAX_FAST_FAILURES = 5;
/** The first restart's wait; it doubles with each fast failure in a row, up to RESTART_MAX_MS. */
const RESTART_MIN_MS = 250;
const RESTART_MAX_MS = 8_000;
/** How long a scrape waits for the children's metrics; a child that has not answered is left out of that scrape. */
const METRICS_TIMEOUT_MS = 2_000;

export type ChildMetrics = MetricObjectWithValues<MetricValue<string>>[];

/** Messages between the supervisor and its children (Node's IPC channel, JSON). */
export type ToChild = { t: 'wake' } | { t: 'metrics'; id: number };
export type FromChild = { t: 'ready' } | { t: 'metrics'; id: number; metrics: ChildMetrics };

export interface Supervisor {
  /** Resolves once every child has reported ready once; rejects when the supervisor gave up first. */
  started: Promise<void>;
  /** Resolves with the reason when the supervisor gave up restarting a child. */
  failed: Promise<Error>;
  /** Wakes the children's delivery loops (after a local submit committed); several calls in one turn send once. */
  wake(): void;
  /** Every running child's metrics (prom-client's getMetricsAsJSON), for the one listener of the host. */
  metrics(): Promise<ChildMetrics[]>;
  /** Children running now: their names and process ids. */
  running(): { name: string; pid: number }[];
  /**
   * Stops the children: closes their IPC channel, which each takes as the order to stop gracefully,
   * waits up to `timeoutMs`, then kills with SIGKILL those still running. Restarts stop at once.
   */
  stop(timeoutMs: number): Promise<void>;
}

interface Slot {
  name: string;
  child: ChildProcess | null;
  startedAt: number;
  fastFailures: number;
  restart: NodeJS.Timeout | null;
  everReady: boolean;
}

/**
 * Starts `count` children running `posthorn serve --roles delivery` on this process's configuration
 * (`env`: its environment, with the children's own settings on top) and keeps them running (docs/scaling.md, "Several processes
 * on one host"): a child that exits unexpectedly is started again after a backoff; after
 * MAX_FAST_FAILURES exits in a row each within FAST_FAILURE_MS of its start the supervisor gives
 * up (`failed`). The children inherit stderr, so their JSON log lines (field `process`) join this
 * process's. Each child stops by itself when the IPC channel closes, which is also what happens
 * when this process dies, even by SIGKILL, so no child outlives it.
 */
export function startSupervisor(opts: {
  count: number;
  log: Logger;
  /** The children's environment: this process's, with their own settings on top (main.ts). */
  env: Readonly<Record<string, string | undefined>>;
  /** Arguments after `bin/posthorn.js` (tests may run another entry). */
  args?: string[];
}): Supervisor {
  const { log } = opts;
  let stopping = false;
  let giveUp: (err: Error) => void = () => {};
  const failed = new Promise<Error>((resolve) => {
    giveUp = resolve;
  });
  let gaveUp = false;
  let nextId = 0;
  const waiting = new Map<number, { resolve: (m: ChildMetrics | null) => void }>();
  const readyWaiters: (() => void)[] = [];
  const slots: Slot[] = Array.from({ length: opts.count }, (_, i) => ({
    name: `delivery-${i + 1}`,
    child: null,
    startedAt: 0,
    fastFailures: 0,
    restart: null,
    everReady: false,
  }));

  const spawn = (slot: Slot): void => {
    const child = fork(ENTRY, opts.args ?? ['serve', '--roles', 'delivery'], {
      execArgv: process.execArgv,
      env: { ...opts.env, [SUPERVISED_VARIABLE]: slot.name },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    slot.child = child;
    slot.startedAt = performance.now();
    log.info({ child: slot.name, pid: child.pid }, 'delivery process started');
    child.on('message', (m: FromChild) => {
      if (m.t === 'ready') {
        slot.everReady = true;
        readyWaiters.splice(0).forEach((w) => w());
      } else if (m.t === 'metrics') {
        waiting.get(m.id)?.resolve(m.metrics);
      }
    });
    // A send to a child that has just died fails asynchronously; its exit is handled below.
    child.on('error', (err) => log.warn({ err, child: slot.name }, 'delivery process: IPC error'));
    child.once('exit', (code, signal) => {
      slot.child = null;
      if (stopping) {
        log.info({ child: slot.name, code, signal }, 'delivery process stopped');
        return;
      }
      const ranMs = performance.now() - slot.startedAt;
      slot.fastFailures = ranMs < FAST_FAILURE_MS ? slot.fastFailures + 1 : 0;
      if (slot.fastFailures >= MAX_FAST_FAILURES) {
        gaveUp = true;
        const err = new Error(
          `delivery process ${slot.name} exited ${slot.fastFailures} times in a row within ${FAST_FAILURE_MS / 1000} s of starting (last: ${signal ?? `exit code ${code}`}); not restarting it (its log lines above say why)`,
        );
        log.fatal({ child: slot.name, code, signal }, err.message);
        readyWaiters.splice(0).forEach((w) => w());
        giveUp(err);
        return;
      }
      const waitMs = Math.min(RESTART_MAX_MS, RESTART_MIN_MS * 2 ** Math.max(0, slot.fastFailures - 1));
      log.error(
        { child: slot.name, code, signal, ran_ms: Math.round(ranMs), restart_in_ms: waitMs },
        'delivery process exited unexpectedly; restarting it',
      );
      slot.restart = setTimeout(() => {
        slot.restart = null;
        if (!stopping) spawn(slot);
      }, waitMs);
    });
  };
  slots.forEach(spawn);

  const send = (slot: Slot, m: ToChild): boolean => {
    const c = slot.child;
    if (c === null || !c.connected) return false;
    c.send(m, (err) => {
      if (err) log.debug({ err, child: slot.name }, 'delivery process: message not sent');
    });
    return true;
  };

  let wakeQueued = false;
  const started = (async () => {
    while (!gaveUp && !slots.every((s) => s.everReady))
      await new Promise<void>((resolve) => readyWaiters.push(resolve));
    if (gaveUp) throw await failed;
  })();
  // Rejection is read by whoever awaits `started`; `failed` says the same to the server loop.
  started.catch(() => {});

  return {
    started,
    failed,
    wake() {
      if (wakeQueued) return;
      wakeQueued = true;
      // Commits finished in one turn of the event loop wake the children once.
      setImmediate(() => {
        wakeQueued = false;
        for (const s of slots) send(s, { t: 'wake' });
      });
    },
    async metrics() {
      const answers = slots.map(
        (s) =>
          new Promise<ChildMetrics | null>((resolve) => {
            const id = ++nextId;
            const timer = setTimeout(() => done(null), METRICS_TIMEOUT_MS);
            const done = (m: ChildMetrics | null): void => {
              clearTimeout(timer);
              waiting.delete(id);
              resolve(m);
            };
            waiting.set(id, { resolve: done });
            if (!send(s, { t: 'metrics', id })) done(null);
          }),
      );
      return (await Promise.all(answers)).filter((m): m is ChildMetrics => m !== null);
    },
    running: () => slots.flatMap((s) => (s.child?.pid === undefined ? [] : [{ name: s.name, pid: s.child.pid }])),
    async stop(timeoutMs) {
      stopping = true;
      const live = slots.flatMap((s) => {
        if (s.restart) clearTimeout(s.restart);
        s.restart = null;
        return s.child ? [s.child] : [];
      });
      const exited = live.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('exit', () => resolve());
          }),
      );
      for (const c of live) if (c.connected) c.disconnect();
      let timer: NodeJS.Timeout | undefined;
      const timedOut = await Promise.race([
        Promise.all(exited).then(() => false),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(true), timeoutMs);
        }),
      ]);
      clearTimeout(timer);
      if (timedOut) {
        const left = live.filter((c) => c.exitCode === null && c.signalCode === null);
        log.error({ pids: left.map((c) => c.pid) }, 'delivery processes did not stop in time; killing them');
        for (const c of left) c.kill('SIGKILL');
        await Promise.all(exited);
      }
    },
  };
}
