import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startClaimLoop as startLoop, type ClaimLoop, type ClaimLoopOptions } from '../../../src/queue/claim-loop.js';

/** A promise with its resolve exposed, so a test decides when a unit finishes. */
function gate(): { promise: Promise<void>; open(): void } {
  let open: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Resolves once `check` holds, polling each turn of the event loop; fails after `ms`. */
async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A log that keeps what it was told, so tests can read the loop's complaints. */
function recordingLog(): ClaimLoopOptions<never>['log'] & { lines: { level: string; msg: string; err: unknown }[] } {
  const lines: { level: string; msg: string; err: unknown }[] = [];
  const at = (level: string) => (obj: unknown, msg?: string) => {
    lines.push({ level, msg: msg ?? '', err: (obj as { err?: unknown }).err });
  };
  return { lines, error: at('error'), fatal: at('fatal') } as unknown as ClaimLoopOptions<never>['log'] & {
    lines: typeof lines;
  };
}

/**
 * An in-memory queue of numbered units: `claim(limit)` takes up to `limit` from the front and
 * records each limit it was asked for; `run` waits on the unit's gate when `hold` is set.
 */
function memoryQueue(count: number, opts: { hold?: boolean } = {}) {
  const pending = Array.from({ length: count }, (_, i) => i);
  const claims: number[] = [];
  const ran: number[] = [];
  const gates = new Map<number, ReturnType<typeof gate>>();
  let running = 0;
  let maxRunning = 0;
  let hold = opts.hold ?? false;
  releases.push(() => {
    hold = false;
    for (const g of gates.values()) g.open();
  });
  return {
    pending,
    claims,
    ran,
    gates,
    maxRunning: () => maxRunning,
    /** Lets every held unit finish, and later ones run straight through. */
    releaseAll(): void {
      hold = false;
      for (const g of gates.values()) g.open();
    },
    async claim(limit: number): Promise<number[]> {
      claims.push(limit);
      return pending.splice(0, limit);
    },
    async run(unit: number): Promise<void> {
      running++;
      maxRunning = Math.max(maxRunning, running);
      try {
        if (hold) {
          const g = gate();
          gates.set(unit, g);
          await g.promise;
        }
        ran.push(unit);
      } finally {
        running--;
      }
    },
  };
}

/** Held units and loops of the current test, released and stopped after it even when it fails, so a failure cannot hang the run. */
const releases: (() => void)[] = [];
const loops: ClaimLoop[] = [];

function startClaimLoop<T>(opts: ClaimLoopOptions<T>): ClaimLoop {
  const loop = startLoop(opts);
  loops.push(loop);
  return loop;
}

describe('claim loop', () => {
  afterEach(async () => {
    for (const release of releases.splice(0)) release();
    for (const loop of loops.splice(0)) await loop.stop(1_000);
  });

  test('runs every claimed unit exactly once, never more than `concurrency` at a time, in claims of at most claimBatch', async () => {
    const q = memoryQueue(250);
    const loop = startClaimLoop({
      concurrency: 16,
      claimBatch: 10,
      idlePollMs: 5,
      log: recordingLog(),
      name: 't',
      claim: (n) => q.claim(n),
      run: (u) => q.run(u),
    });
    await loop.idle();
    assert.equal(await loop.stop(1_000), 'done');
    assert.deepEqual(
      [...q.ran].sort((a, b) => a - b),
      Array.from({ length: 250 }, (_, i) => i),
      'every unit ran once, none lost or repeated',
    );
    assert.ok(q.maxRunning() <= 16, `at most 16 in flight, saw ${q.maxRunning()}`);
    assert.ok(
      q.claims.every((n) => n >= 1 && n <= 10),
      `every claim asks for 1 to 10 rows: ${q.claims.join(',')}`,
    );
    assert.equal(loop.inFlight(), 0);
  });

  test('with units in flight it claims again only once a quarter of the slots are free, and only for the free slots', async () => {
    const q = memoryQueue(100, { hold: true });
    const loop = startClaimLoop({
      concurrency: 8,
      claimBatch: 8,
      idlePollMs: 60_000,
      log: recordingLog(),
      name: 't',
      claim: (n) => q.claim(n),
      run: (u) => q.run(u),
    });
    await until(() => q.gates.size === 8, 'the first claim to fill every slot');
    assert.deepEqual(q.claims, [8]);
    q.gates.get(0)?.open();
    await until(() => q.ran.length === 1, 'unit 0 to finish');
    // One free slot of eight is under a quarter: the loop waits. The next finish frees a quarter.
    q.gates.get(1)?.open();
    await until(() => q.claims.length === 2, 'the second claim');
    assert.deepEqual(
      q.claims,
      [8, 2],
      'no claim for a single slot; the second claim asks for exactly the two free slots',
    );
    await until(() => q.gates.size === 10, 'the two new units to start');
    assert.equal(loop.inFlight(), 8);
    assert.ok(q.maxRunning() <= 8);
    q.releaseAll();
    await loop.idle();
    assert.equal(await loop.stop(1_000), 'done');
    assert.equal(q.ran.length, 100, 'every unit ran once released');
  });

  test('a failing claim is logged and retried after a longer pause; nothing it did not take is lost', async () => {
    const q = memoryQueue(5);
    const log = recordingLog();
    let failures = 1;
    const callTimes: number[] = [];
    const idlePollMs = 20;
    const loop = startClaimLoop({
      concurrency: 4,
      claimBatch: 4,
      idlePollMs,
      log,
      name: 'jobs',
      claim: async (n) => {
        callTimes.push(performance.now());
        if (failures-- > 0) throw new Error('database is gone');
        return q.claim(n);
      },
      run: (u) => q.run(u),
    });
    await loop.idle();
    assert.equal(await loop.stop(1_000), 'done');
    assert.deepEqual([...q.ran].sort(), [0, 1, 2, 3, 4]);
    const failed = log.lines.find((l) => l.msg === 'jobs: claiming failed');
    assert.ok(failed, `the failure is logged with the loop's name: ${JSON.stringify(log.lines)}`);
    assert.equal((failed.err as Error).message, 'database is gone');
    // The pause after a failure is five idle polls (a lower bound: timers never fire early by more than a millisecond).
    const gap = (callTimes[1] as number) - (callTimes[0] as number);
    assert.ok(
      gap >= idlePollMs * 5 - 2,
      `backed off ${gap.toFixed(1)} ms after the failed claim, expected at least ${idlePollMs * 5}`,
    );
  });

  test('a unit that rejects is logged and frees its slot; the loop goes on', async () => {
    const log = recordingLog();
    const pending = [1, 2, 3];
    const done: number[] = [];
    const loop = startClaimLoop({
      concurrency: 1,
      claimBatch: 1,
      idlePollMs: 5,
      log,
      name: 'hooks',
      claim: async (n) => pending.splice(0, n),
      run: async (u) => {
        if (u === 2) throw new Error('unit 2 broke');
        done.push(u);
      },
    });
    await loop.idle();
    assert.equal(await loop.stop(1_000), 'done');
    assert.deepEqual(done, [1, 3]);
    const line = log.lines.find((l) => l.msg === 'hooks: a unit failed unexpectedly');
    assert.equal((line?.err as Error | undefined)?.message, 'unit 2 broke');
    assert.equal(loop.inFlight(), 0);
  });

  test('nudge wakes a loop that sleeps on an empty queue without waiting for the poll', async () => {
    const q = memoryQueue(0);
    // An hour's poll: if nudge did not wake the loop, the unit would never run and the test would time out.
    const loop = startClaimLoop({
      concurrency: 2,
      claimBatch: 2,
      idlePollMs: 3_600_000,
      log: recordingLog(),
      name: 't',
      claim: (n) => q.claim(n),
      run: (u) => q.run(u),
    });
    await until(() => q.claims.length === 1, 'the first (empty) claim');
    q.pending.push(42);
    loop.nudge();
    await until(() => q.ran.includes(42), 'the nudged unit to run');
    assert.equal(await loop.stop(1_000), 'done');
  });

  test('idle() answers only after a claim made after the call comes back empty with nothing in flight', async () => {
    const q = memoryQueue(3, { hold: true });
    const loop = startClaimLoop({
      concurrency: 3,
      claimBatch: 3,
      idlePollMs: 5,
      log: recordingLog(),
      name: 't',
      claim: (n) => q.claim(n),
      run: (u) => q.run(u),
    });
    await until(() => q.gates.size === 3, 'three units in flight');
    let idle = false;
    const waiting = loop.idle().then(() => {
      idle = true;
    });
    q.gates.get(0)?.open();
    q.gates.get(1)?.open();
    await until(() => q.ran.length === 2, 'two units to finish');
    assert.equal(idle, false, 'not idle while a unit is in flight');
    q.gates.get(2)?.open();
    await waiting;
    assert.equal(q.ran.length, 3);
    assert.equal(loop.inFlight(), 0);
    assert.equal(await loop.stop(1_000), 'done');
  });

  test('stop ends claiming at once; a unit still running after the timeout gives "timeout", and settled() waits for it', async () => {
    const q = memoryQueue(10, { hold: true });
    const loop = startClaimLoop({
      concurrency: 1,
      claimBatch: 1,
      idlePollMs: 5,
      log: recordingLog(),
      name: 't',
      claim: (n) => q.claim(n),
      run: (u) => q.run(u),
    });
    await until(() => q.gates.size === 1, 'the first unit to start');
    // stop's timer is unref'd (it must not hold a server's exit); in this test nothing else keeps
    // the process alive while the held unit waits, so a ref'd timer stands in for the server's sockets.
    const keepAlive = setInterval(() => {}, 1_000);
    const stopped = await loop.stop(20).finally(() => clearInterval(keepAlive));
    assert.equal(stopped, 'timeout');
    assert.equal(loop.inFlight(), 1);
    q.gates.get(0)?.open();
    await loop.settled();
    assert.equal(loop.inFlight(), 0);
    assert.deepEqual(q.ran, [0]);
    assert.equal(q.pending.length, 9, 'nothing is claimed after stop: the rest stays in the queue for another worker');
    assert.equal(q.claims.length, 1);
  });
});
