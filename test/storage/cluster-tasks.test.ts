// Periodic work runs once per cluster per period (scheduler/cluster-task.ts, docs/scaling.md):
// nodes asking at once get one run between them, a running task keeps its lease, and a task whose
// node died is taken by another once its lease ends. The scheduler role on three nodes sharing one
// database runs each of its tasks once.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from '../../src/storage/open-database.js';
import { claimClusterTask, runClusterTask } from '../../src/scheduler/cluster-task.js';
import { SCHEDULER_TASKS, startScheduler } from '../../src/scheduler/start-scheduler.js';
import type { Deps } from '../../src/deps.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';

const PERIOD = 60_000;
const LEASE = 300;

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

for (const dialect of testDialects()) {
  describe(`tasks run once per cluster (${dialect})`, () => {
    let d: TestDeps | undefined;
    const extra: { close(): Promise<void> }[] = [];
    afterEach(async () => {
      for (const e of extra.splice(0)) await e.close();
      await d?.close();
      d = undefined;
    });
    const row = (name: string) =>
      d!.db.selectFrom('cluster_tasks').selectAll().where('name', '=', name).executeTakeFirst();

    test('of nodes asking at once one gets the run; the next run waits for the period', async () => {
      d = await createTestDeps(dialect);
      const ask = (node: string) => claimClusterTask(d!, 'purge', node, PERIOD, LEASE);
      const first = await Promise.all(['a', 'b', 'c', 'd', 'e'].map(ask));
      assert.equal(first.filter((r) => r !== null).length, 1, 'exactly one node runs it');
      assert.equal(first.find((r) => r !== null)?.run, 1);
      assert.equal((await row('purge'))?.runs, 1);
      // Finished at once; still not due until the period has passed.
      await d.db.updateTable('cluster_tasks').set({ locked_by: null, locked_until: null }).execute();
      d.clock.advance(PERIOD - 1);
      assert.deepEqual(
        (await Promise.all(['a', 'b', 'c'].map(ask))).filter((r) => r !== null),
        [],
      );
      d.clock.advance(1);
      const second = await Promise.all(['a', 'b', 'c'].map(ask));
      assert.equal(second.filter((r) => r !== null).length, 1);
      assert.equal(second.find((r) => r !== null)?.run, 2);
    });

    test('a running task keeps its lease past the period; a dead node’s task is taken after the lease', async () => {
      d = await createTestDeps(dialect);
      let release: () => void = () => {};
      const blocked = new Promise<void>((resolve) => {
        release = resolve;
      });
      const running = runClusterTask(d, 'recheck', 'node-a', 100, () => blocked, LEASE);
      await until('node a to hold the task', async () => (await row('recheck'))?.locked_by === 'node-a');
      // Time passes in steps shorter than the lease, to several leases and periods: a renews each time.
      for (let step = 0; step < 6; step++) {
        d.clock.advance(LEASE / 2);
        const now = d.clock.now();
        await until(
          'the lease to be renewed',
          async () => Number((await row('recheck'))?.locked_until) === now + LEASE,
        );
        assert.equal(await claimClusterTask(d, 'recheck', 'node-b', 100, LEASE), null, 'b cannot take a held task');
      }
      release();
      const done = await running;
      assert.equal(done?.run.run, 1);
      const after = await row('recheck');
      assert.equal(after?.locked_by, null, 'released when it finished');

      // Node a starts a run and dies (never renews, never releases): b gets it once the lease ends.
      d.clock.advance(100);
      assert.ok(await claimClusterTask(d, 'recheck', 'node-a', 100, LEASE));
      d.clock.advance(LEASE - 1);
      assert.equal(await claimClusterTask(d, 'recheck', 'node-b', 100, LEASE), null, 'still leased to a');
      d.clock.advance(1);
      assert.equal((await claimClusterTask(d, 'recheck', 'node-b', 100, LEASE))?.run, 3, 'b takes it over');
    });

    test('a task that throws releases its lease and passes the error on', async () => {
      d = await createTestDeps(dialect);
      await assert.rejects(
        runClusterTask(d, 'partitions', 'node-a', PERIOD, async () => {
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal((await row('partitions'))?.locked_by, null);
    });

    test('the scheduler role on three nodes sharing one database runs each task once', async () => {
      d = await createTestDeps(dialect);
      const nodes: Deps[] = [d];
      for (let i = 0; i < 2; i++) {
        // Each node its own connection pool on the same database, as separate processes would have.
        const open = openDatabase({
          databaseUrl: d.config.databaseUrl,
          dataDir: d.testDb.dataDir,
        });
        extra.push(open);
        nodes.push({ ...d, db: open.db });
      }
      const schedulers = nodes.map((n) => startScheduler(n));
      const names = Object.keys(SCHEDULER_TASKS);
      try {
        await until('every task to have run', async () => {
          const rows = await d!.db.selectFrom('cluster_tasks').selectAll().execute();
          return names.every((n) => rows.some((r) => r.name === n && r.last_finished_at !== null));
        });
      } finally {
        await Promise.all(schedulers.map((s) => s.stop()));
      }
      const rows = await d.db.selectFrom('cluster_tasks').select(['name', 'runs']).orderBy('name').execute();
      assert.deepEqual(
        rows.map((r) => [r.name, Number(r.runs)]),
        names.sort().map((n) => [n, 1]),
      );
    });
  });
}
