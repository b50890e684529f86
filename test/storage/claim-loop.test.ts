import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { claimJobs } from '../../src/queue/claim-jobs.js';
import { startClaimLoop, type ClaimLoop } from '../../src/queue/claim-loop.js';
import { completeJobs } from '../../src/queue/finish-jobs.js';
import type { JobTable } from '../../src/storage/database.js';
import { seedDomain } from '../helpers/seed.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';

const LEASE_MS = 60_000;
const silent = pino({ level: 'silent' });

/** One message with `count` recipients, each with a due `test` job (the delivery queue's shape). */
async function seedJobs(deps: TestDeps, count: number): Promise<string[]> {
  const { accountId, domainId } = await seedDomain(deps, { domain: 'example.com' });
  const now = deps.clock.now();
  const messageId = deps.ids.next('msg', now);
  await deps.db
    .insertInto('messages')
    .values({
      id: messageId,
      account_id: accountId,
      domain_id: domainId,
      from_address: 'a@example.com',
      subject: 's',
      tags: '[]',
      metadata: '{}',
      content: null,
      mime: null,
      size: 0,
      created_at: now,
      track_opens: 0,
      track_clicks: 0,
      unsubscribe: 0,
    })
    .execute();
  const recipients = Array.from({ length: count }, (_, i) => ({
    id: deps.ids.next('rcp', now),
    message_id: messageId,
    address: `r${i}@example.org`,
    domain: 'example.org',
    status: 'queued',
    updated_at: now,
  }));
  const jobs: JobTable[] = recipients.map((r) => ({
    id: deps.ids.next('job', now),
    kind: 'test',
    message_id: messageId,
    recipient_id: r.id,
    run_at: now,
    attempts: 0,
    locked_by: null,
    locked_until: null,
    last_error: null,
    created_at: now,
  }));
  for (let i = 0; i < count; i += 100) {
    await deps.db
      .insertInto('recipients')
      .values(recipients.slice(i, i + 100))
      .execute();
    await deps.db
      .insertInto('jobs')
      .values(jobs.slice(i, i + 100))
      .execute();
  }
  return jobs.map((j) => j.id);
}

/** Resolves once `check` holds, polling each turn of the event loop; fails after `ms`. */
async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

for (const dialect of testDialects()) {
  describe(`claim loop over the jobs table (${dialect})`, () => {
    let deps: TestDeps;
    const loops: ClaimLoop[] = [];
    beforeEach(async () => {
      deps = await createTestDeps(dialect);
    });
    afterEach(async () => {
      for (const loop of loops.splice(0)) await loop.stop(1_000);
      await deps.close();
    });

    /** A worker: claims `test` jobs under its id, records which it ran, completes them (only while it holds them). */
    function worker(id: string, ran: Map<string, string[]>, opts: { hold?: Promise<void> } = {}): ClaimLoop {
      const loop = startClaimLoop<JobTable>({
        concurrency: 8,
        claimBatch: 5,
        idlePollMs: 2,
        log: silent,
        name: id,
        claim: (limit) => claimJobs(deps, 'test', id, limit, LEASE_MS),
        run: async (job) => {
          if (opts.hold) await opts.hold;
          ran.set(job.id, [...(ran.get(job.id) ?? []), id]);
          await completeJobs(deps.db, [job.id], id);
        },
      });
      loops.push(loop);
      return loop;
    }

    test('two workers on one queue run every job exactly once and leave the queue empty', async () => {
      const ids = await seedJobs(deps, 120);
      const ran = new Map<string, string[]>();
      const a = worker('worker-a', ran);
      const b = worker('worker-b', ran);
      await Promise.all([a.idle(), b.idle()]);
      assert.deepEqual([...ran.keys()].sort(), [...ids].sort(), 'every job ran');
      const twice = [...ran.entries()].filter(([, by]) => by.length > 1);
      assert.deepEqual(twice, [], 'no job ran twice');
      const left = await deps.db.selectFrom('jobs').select('id').execute();
      assert.deepEqual(left, []);
    });

    test('jobs held by a worker that stopped mid-run come back when the lease ends and are run by another; none is lost', async () => {
      const ids = await seedJobs(deps, 12);
      const ran = new Map<string, string[]>();
      let release: () => void = () => {};
      const stuck = worker('crashed', ran, {
        hold: new Promise<void>((resolve) => {
          release = resolve;
        }),
      });
      await until(
        async () =>
          (await deps.db.selectFrom('jobs').select('id').where('locked_by', '=', 'crashed').execute()).length === 8,
        'the first worker to claim a full set of slots',
      );
      // Stands in for a crash: the worker stops claiming, its units never finish, its rows keep their lease.
      // stop's timer is unref'd so it never holds a server's exit; here a ref'd timer stands in for the server.
      const keepAlive = setInterval(() => {}, 1_000);
      assert.equal(await stuck.stop(10).finally(() => clearInterval(keepAlive)), 'timeout');
      const rescuer = worker('rescuer', ran);
      await rescuer.idle();
      const leased = await deps.db.selectFrom('jobs').select(['id', 'locked_by']).execute();
      assert.equal(leased.length, 8, 'the leased jobs wait for their lease to end');
      assert.ok(leased.every((j) => j.locked_by === 'crashed'));
      deps.clock.advance(LEASE_MS + 1);
      rescuer.nudge();
      await rescuer.idle();
      assert.deepEqual([...ran.keys()].sort(), [...ids].sort(), "every job ran, the crashed worker's included");
      assert.deepEqual(await deps.db.selectFrom('jobs').select('id').execute(), []);
      // The first worker wakes up late: its completes match no row it still holds and change nothing.
      release();
      await stuck.settled();
      assert.deepEqual(await deps.db.selectFrom('jobs').select('id').execute(), []);
    });
  });
}
