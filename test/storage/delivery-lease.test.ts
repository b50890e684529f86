// Delivery leases (POSTHORN_QUEUE_LEASE): a worker renews the jobs of its running attempts, so a
// long attempt keeps them; a worker that stops renewing (it died) loses them to another after the
// lease; and an outcome is recorded only for jobs the worker still holds.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { claimJobs } from '../../src/queue/claim-jobs.js';
import { completeJobs } from '../../src/queue/finish-jobs.js';
import {
  createDeliveryHarness,
  MX_DOMAIN,
  SENDER_DOMAIN,
  type DeliveryHarness,
  type HarnessOptions,
} from '../helpers/delivery-harness.js';
import { testDialects } from '../helpers/test-db.js';

const at = (local: string) => `${local}@${MX_DOMAIN}`;
const LEASE = 600;

/** Polls `check` until it is true, or fails after `timeoutMs`. */
async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const dialect of testDialects()) {
  describe(`delivery leases (${dialect})`, () => {
    let h: DeliveryHarness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });
    const harness = async (opts: HarnessOptions = {}) => {
      h = await createDeliveryHarness(dialect, { ...opts, env: { POSTHORN_QUEUE_LEASE: `${LEASE}ms`, ...opts.env } });
      return h;
    };
    const send = async (hx: DeliveryHarness, to: string): Promise<string> => {
      const res = await hx.send({ from: `hello@${SENDER_DOMAIN}`, to, subject: 's', text: 'hello' });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      return res.body.id;
    };
    const job = (hx: DeliveryHarness) => hx.deps.db.selectFrom('jobs').selectAll().executeTakeFirst();

    test('a worker that stops renewing (crashed) loses its job to another right after the lease, not minutes later', async () => {
      const hx = await harness();
      await hx.worker.stop(1_000); // this test plays both workers by hand
      await send(hx, at('ok-crash'));
      const clock = hx.deps.clock;
      const [claimed] = await claimJobs(hx.deps, 'deliver', 'worker-a', 10, hx.deps.config.queueLease);
      assert.ok(claimed, 'worker A claimed the job');
      assert.equal(Number(claimed.locked_until), clock.now() + LEASE);
      clock.advance(LEASE - 1);
      assert.deepEqual(await claimJobs(hx.deps, 'deliver', 'worker-b', 10, LEASE), [], 'still leased to A');
      clock.advance(1);
      const taken = await claimJobs(hx.deps, 'deliver', 'worker-b', 10, LEASE);
      assert.deepEqual(
        taken.map((j) => j.id),
        [claimed.id],
        'B takes it once the lease has ended',
      );
      // A coming back late cannot finish what B now holds.
      await completeJobs(hx.deps.db, [claimed.id], 'worker-a');
      assert.equal((await job(hx))?.locked_by, 'worker-b');
    });

    test('a long attempt keeps its lease: another worker cannot take the job while it runs; delivered once', async () => {
      const hx = await harness({ sink: { slowDataMs: 5_000 } });
      const to = at('slow-long');
      const id = await send(hx, to);
      hx.worker.nudge();
      await until('the attempt to start', () => hx.sink!.openConnections > 0);
      // Time passes in steps shorter than the lease (as it does for real), to five leases in all;
      // after each step the worker has renewed the lease from the new time.
      for (let step = 0; step < 10; step++) {
        hx.deps.clock.advance(LEASE / 2);
        const now = hx.deps.clock.now();
        await until('the lease to be renewed', async () => Number((await job(hx))?.locked_until ?? 0) === now + LEASE);
      }
      assert.equal(hx.received(to).length, 0, 'the attempt is still running');
      assert.deepEqual(
        await claimJobs(hx.deps, 'deliver', 'worker-b', 10, LEASE),
        [],
        'the running attempt still holds its job',
      );
      await hx.run();
      assert.equal(hx.received(to).length, 1);
      assert.deepEqual(await hx.timeline(id, to), ['accepted-by-system', 'accepted-by-mta', 'delivered']);
      assert.equal(await job(hx), undefined);
    });

    test('an outcome is not recorded for a job another worker took meanwhile', async () => {
      const hx = await harness({ sink: { slowDataMs: 2_000 } });
      const to = at('slow-taken');
      const id = await send(hx, to);
      hx.worker.nudge();
      await until('the attempt to start', () => hx.sink!.openConnections > 0);
      // As if the lease had ended and worker B had claimed the job.
      await hx.deps.db.updateTable('jobs').set({ locked_by: 'worker-b' }).execute();
      await until('the attempt to end', () => hx.received(to).length === 1);
      await hx.run();
      assert.deepEqual(await hx.timeline(id, to), ['accepted-by-system'], 'A records nothing for a job it lost');
      const rcpt = await hx.deps.db
        .selectFrom('recipients')
        .select('status')
        .where('message_id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(rcpt.status, 'queued');
      assert.equal((await job(hx))?.locked_by, 'worker-b', 'the job stays with B');
    });
  });
}
