// Scale-out on PostgreSQL (docs/scaling.md): three `posthorn serve` processes on one database.
// - A 5/s rate limit shared over the three APIs gives 5 a second in all, not 5 per node.
// - A burst of sends spread over the three APIs, one node killed with SIGKILL mid-burst: every
//   accepted recipient reaches the sink MX, duplicates are at most the dead node's deliveries in
//   flight, and its leased jobs are finished by the others within the lease and one renewal
//   interval of the kill (POSTHORN_QUEUE_LEASE).
// - The scheduler's tasks run once per cluster per POSTHORN_SCHEDULER_INTERVAL, not once per node.
// SQLite is one node by design (one writer, in-process rate limiter), so this file runs on
// PostgreSQL only.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import https from 'node:https';
import { systemClock } from '../../src/core/clock.js';
import { createIds } from '../../src/core/ids.js';
import { SCHEDULER_TASKS } from '../../src/scheduler/start-scheduler.js';
import { startDnsServer } from '../helpers/dns-server.js';
import { giveRealDkimKey, seedDomain } from '../helpers/seed.js';
import { postSendHttps, type SendOutcome } from '../helpers/https-send.js';
import { startSinkMx, type SinkMessage } from '../helpers/sink-mx.js';
import { startServer, type RunningServer, deliveringEnv } from '../helpers/spawn-server.js';
import { createTestDb, testDialects } from '../helpers/test-db.js';

/**
 * Sends in the burst (POSTHORN_SCALE_OUT_SENDS overrides). 2,000 rather than crash-delivery's
 * 5,000: three servers and the load generator share CI's two cores, and a 5,000-send burst made
 * this file alone take well over a minute.
 */
const TOTAL = Number(process.env.POSTHORN_SCALE_OUT_SENDS ?? 2000);
/** Requests in flight per node during the burst. */
const CLIENTS_PER_NODE = 24;
/** Deliveries in flight per node: the bound on what a crash can make arrive twice. */
const CONCURRENCY = 32;
/** POSTHORN_QUEUE_LEASE of the nodes, and the renewal interval that follows from it (a third). */
const LEASE_MS = 8_000;
const RENEWAL_MS = Math.floor(LEASE_MS / 3);
/** POSTHORN_SCHEDULER_INTERVAL of the nodes. */
const SCHEDULER_INTERVAL_MS = 4_000;
/** The shared limit, and how long it is hammered. */
const RATE = 5;
const RATE_WINDOWS = 4;

const RCPT_DOMAIN = 'example.org';

interface Timed {
  node: number;
  status: number;
  /** performance.now() when the request was sent and when its answer came. */
  start: number;
  end: number;
}

/** Counts per recipient of what the sink accepted, updated as messages arrive. */
function arrivals() {
  const counts = new Map<string, number>();
  let seen = 0;
  return {
    counts,
    update(messages: SinkMessage[]) {
      for (; seen < messages.length; seen++)
        for (const r of messages[seen]!.rcptTo) counts.set(r.toLowerCase(), (counts.get(r.toLowerCase()) ?? 0) + 1);
    },
  };
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The `scheduler task ran` log lines of one node: task and the clock time its run started. */
function taskRuns(server: RunningServer): { task: string; startedAt: number }[] {
  return server
    .stderr()
    .split('\n')
    .flatMap((line) => {
      try {
        const e = JSON.parse(line) as { msg?: string; task?: string; started_at?: number };
        return e.msg === 'scheduler task ran' && e.task && e.started_at
          ? [{ task: e.task, startedAt: e.started_at }]
          : [];
      } catch {
        return [];
      }
    });
}

for (const dialect of testDialects().filter((d) => d === 'postgres')) {
  describe(`three nodes on one database (${dialect})`, () => {
    test(`shared rate limit; kill -9 of one node during a ${TOTAL}-send burst; scheduler tasks once per cluster`, async (t) => {
      const db = await createTestDb(dialect);
      const sink = await startSinkMx({ slowDataMs: 1_500 });
      const dns = await startDnsServer({ [RCPT_DOMAIN]: { MX: [{ exchange: '127.0.0.1', priority: 10 }] } });
      const nodes: RunningServer[] = [];
      try {
        const deps = { db: db.db, clock: systemClock, ids: createIds() };
        const bulk = await seedDomain(deps, { account: 'bulk', domain: 'acme.test', rateLimit: 1_000_000 });
        const limited = await seedDomain(deps, { account: 'limited', domain: 'five.test', rateLimit: RATE });
        await giveRealDkimKey(db.db);
        const env = {
          ...db.env,
          ...deliveringEnv(dns, sink),
          POSTHORN_DELIVERY_CONCURRENCY: String(CONCURRENCY),
          POSTHORN_QUEUE_LEASE: `${LEASE_MS}ms`,
          POSTHORN_SCHEDULER_INTERVAL: `${SCHEDULER_INTERVAL_MS}ms`,
        };
        const roles = { args: ['--roles', 'api,delivery,scheduler'] };
        // One after another: the first migrates and makes the TLS certificate the others then share.
        for (let i = 0; i < 3; i++) nodes.push(await startServer(env, roles));
        const ca = readFileSync(join(db.dataDir, 'tls', 'cert.pem'));
        const agents = nodes.map(() => new https.Agent({ keepAlive: true, maxSockets: CLIENTS_PER_NODE, ca }));

        // 1. The shared limit: three nodes hammered at once for RATE_WINDOWS seconds, after each
        // client's connection is open (a cold TLS handshake would smear the first second).
        await Promise.all(
          nodes.flatMap((node, i) =>
            Array.from({ length: 4 }, (_, c) =>
              postSendHttps(node.url, agents[i]!, bulk.key, {
                from: 'hello@acme.test',
                to: `warm${i}-${c}@${RCPT_DOMAIN}`,
                subject: 'Warm-up',
                text: 'x',
              }),
            ),
          ),
        );
        const timed: Timed[] = [];
        const rateStart = performance.now();
        const rateEnd = rateStart + RATE_WINDOWS * 1000 + 1000;
        let n = 0;
        await Promise.all(
          nodes.flatMap((node, i) =>
            Array.from({ length: 4 }, async () => {
              while (performance.now() < rateEnd) {
                const start = performance.now();
                const o = await postSendHttps(node.url, agents[i]!, limited.key, {
                  from: 'hello@five.test',
                  to: `rate${n++}@${RCPT_DOMAIN}`,
                  subject: 'Rate',
                  text: 'x',
                });
                assert.ok('status' in o, `a rate-limit request failed: ${JSON.stringify(o)}`);
                timed.push({ node: i, status: o.status, start, end: performance.now() });
              }
            }),
          ),
        );
        assert.deepEqual([...new Set(timed.map((r) => r.status))].sort(), [202, 429], 'only 202 and 429');
        // A node decides between a request's start and its answer, so a 202 counts for a window
        // surely when both lie in it and possibly when either does. GCRA's burst is the rate: the
        // first second (from the start of the first accepted request) holds the burst and four
        // more, and every second after it exactly RATE, give or take one at an edge.
        const ok = timed.filter((r) => r.status === 202);
        const t0 = Math.min(...ok.map((r) => r.start));
        const windows = Array.from({ length: RATE_WINDOWS + 1 }, (_, w) => {
          const [a, b] = [t0 + w * 1000, t0 + (w + 1) * 1000];
          const inside = (r: Timed) => r.start >= a && r.end < b;
          const touches = (r: Timed) => r.end >= a && r.start < b;
          return {
            surely: ok.filter(inside).length,
            possibly: ok.filter(touches).length,
            refused: timed.filter((r) => r.status === 429 && r.end >= a && r.end < b).length,
          };
        });
        t.diagnostic(
          `rate limit ${RATE}/s over 3 nodes, per second [202 surely-possibly, 429]: ` +
            windows.map((w) => `[${w.surely}-${w.possibly}, ${w.refused}]`).join(' ') +
            `; 202s per node ${JSON.stringify([0, 1, 2].map((i) => ok.filter((r) => r.node === i).length))}`,
        );
        windows.slice(1, RATE_WINDOWS).forEach((w, k) => {
          assert.ok(w.surely <= RATE + 1, `second ${k + 1}: ${w.surely} accepted, more than ${RATE}`);
          assert.ok(w.possibly >= RATE - 1, `second ${k + 1}: at most ${w.possibly} accepted, fewer than ${RATE}`);
        });
        assert.ok(
          windows[0]!.surely <= 2 * RATE - 1,
          `the first second: the burst and four more, ${windows[0]!.surely}`,
        );
        // And over the whole run: the burst plus RATE per second, whichever node each request reached.
        const last = ok.reduce((a, r) => (r.start > a.start ? r : a));
        assert.ok(
          ok.length <= RATE + Math.ceil((RATE * (last.end - t0)) / 1000) + 1 &&
            ok.length >= RATE + Math.floor((RATE * (last.start - ok[0]!.end)) / 1000) - 1,
          `${ok.length} accepted in ${Math.round(last.end - t0)} ms, not ${RATE} + ${RATE}/s`,
        );

        // 2. The burst, spread round-robin over the three APIs; node 2 is killed part-way.
        const victim = nodes[2]!;
        const outcomes: (SendOutcome | undefined)[] = new Array(TOTAL);
        let next = 0;
        let answered = 0;
        let killedAt = 0;
        let killEpoch = 0;
        let finishedEpoch = 0;
        let held: { id: string; address: string; run_at: number }[] = [];

        const killAfter = Math.floor(TOTAL * 0.4);
        const started = performance.now();
        const kill = (async () => {
          await until(
            'the burst to be part-way and mail to be going out',
            () => answered >= killAfter && sink.received >= 100,
            120_000,
          );
          const pid = victim.child.pid as number;
          await victim.kill9();
          killedAt = performance.now();
          killEpoch = Date.now();
          // What the dead node held: its deliveries in flight (workerId is host:pid:random).
          held = await db.db
            .selectFrom('jobs')
            .innerJoin('recipients', 'recipients.id', 'jobs.recipient_id')
            .select(['jobs.id', 'recipients.address', 'jobs.run_at'])
            .where('jobs.locked_by', 'like', `%:${pid}:%`)
            .execute();
          // Then the others finish them (gone from the queue: delivered and recorded), watched
          // while the burst goes on.
          const heldIds = held.map((h) => h.id);
          if (heldIds.length > 0)
            await until(
              "the dead node's jobs to be finished by the others",
              async () =>
                (await db.db.selectFrom('jobs').select('id').where('id', 'in', heldIds).execute()).length === 0,
              LEASE_MS + 60_000,
            );
          finishedEpoch = Date.now();
        })();
        await Promise.all(
          nodes.flatMap((node, i) =>
            Array.from({ length: CLIENTS_PER_NODE }, async () => {
              for (;;) {
                const k = next++;
                if (k >= TOTAL) return;
                // Round-robin by request; after the kill the balancer sends nothing to the dead node.
                const target = killedAt > 0 && (k + i) % 3 === 2 ? k % 2 : (k + i) % 3;
                outcomes[k] = await postSendHttps(nodes[target]!.url, agents[target]!, bulk.key, {
                  from: 'hello@acme.test',
                  // Every 50th recipient is slow at the sink, so deliveries are in flight at the kill.
                  to: `${k % 50 === 0 ? 'slow' : 'r'}${k}@${RCPT_DOMAIN}`,
                  subject: `Receipt ${k}`,
                  html: `<p>Order ${k}: thanks!</p>`,
                });
                answered++;
              }
            }),
          ),
        );
        const acceptedAt = performance.now();
        await kill;
        assert.ok(killedAt > 0 && killedAt < acceptedAt, 'the kill came during the burst');
        assert.ok(held.length > 0, 'the dead node held leased deliveries');
        assert.ok(held.length <= CONCURRENCY, `${held.length} jobs held, more than ${CONCURRENCY} in flight`);

        // Its leases were being renewed, so its jobs come due again at most one lease after the kill.
        const dueBy = killEpoch + LEASE_MS;
        assert.ok(
          held.every((h) => Number(h.run_at) <= dueBy),
          `a held job was due ${Math.max(...held.map((h) => Number(h.run_at))) - killEpoch} ms after the kill, past the ${LEASE_MS} ms lease`,
        );
        const takenOverMs = finishedEpoch - killEpoch;

        // Every recipient committed (a superset of the 202s: a 202 can be cut on its way) arrives.
        const stored = await db.db
          .selectFrom('recipients')
          .innerJoin('messages', 'messages.id', 'recipients.message_id')
          .select('recipients.address')
          .where('messages.domain_id', '=', bulk.domainId)
          .execute();
        const expected = new Set(stored.map((r) => r.address.toLowerCase()));
        const got = arrivals();
        await sink
          .waitFor((messages) => {
            got.update(messages);
            return [...expected].every((a) => got.counts.has(a));
          }, 60_000)
          .catch((err: Error) => {
            const missing = [...expected].filter((a) => !got.counts.has(a));
            throw new Error(
              `${missing.length} accepted recipients never arrived (e.g. ${missing.slice(0, 3).join(', ')}): ${err.message}`,
            );
          });
        const deliveredAt = performance.now();
        const accepted = outcomes.flatMap((o, k) =>
          o && 'status' in o && o.status === 202 ? [`${k % 50 === 0 ? 'slow' : 'r'}${k}@${RCPT_DOMAIN}`] : [],
        );
        assert.ok(accepted.length >= TOTAL * 0.9, `${accepted.length} of ${TOTAL} accepted`);
        assert.deepEqual(
          accepted.filter((a) => !got.counts.has(a)),
          [],
          "every 202'd recipient arrived",
        );
        const refused = outcomes.filter((o) => o && 'status' in o && o.status !== 202);
        assert.deepEqual(refused, [], 'a live node refused nothing');
        const bulkArrivals = [...got.counts].filter(([a]) => !a.startsWith('rate'));
        const twice = bulkArrivals.filter(([, c]) => c > 1);
        assert.ok(
          twice.every(([, c]) => c === 2),
          'nothing arrived three times',
        );
        assert.ok(
          twice.length <= held.length,
          `${twice.length} recipients arrived twice, but the dead node had ${held.length} deliveries in flight`,
        );
        assert.equal(bulkArrivals.length, expected.size, 'nothing arrived that was not accepted');
        // The bound: the lease, or — when the live nodes were still busy with mail that was due
        // before (the queue is first due, first claimed) — the moment they had delivered it; plus one more lease for the claim and the attempt itself (a
        // lease is what one attempt is given before it must renew).
        // The mail due before the dead node's jobs: what the queue hands out first.
        const lastDue = Math.max(...held.map((h) => Number(h.run_at)));
        const heldAddresses = new Set(held.map((h) => h.address.toLowerCase()));
        const ahead = await db.db
          .selectFrom('recipients')
          .innerJoin('messages', 'messages.id', 'recipients.message_id')
          .select('recipients.address')
          .where('messages.domain_id', '=', bulk.domainId)
          .where('messages.created_at', '<=', lastDue)
          .execute();
        const firstArrival = new Map<string, number>();
        for (const m of sink.messages)
          for (const r of m.rcptTo)
            if (!firstArrival.has(r.toLowerCase())) firstArrival.set(r.toLowerCase(), m.receivedAt.getTime());
        let drainedAt = killEpoch;
        for (const { address } of ahead)
          if (!heldAddresses.has(address.toLowerCase()))
            drainedAt = Math.max(drainedAt, firstArrival.get(address.toLowerCase()) ?? Infinity);
        t.diagnostic(
          `burst: accepted ${Math.round(acceptedAt - started)} ms, killed at ${Math.round(killedAt - started)} ms holding ${held.length}; ` +
            `finished ${takenOverMs} ms after the kill; mail due before them delivered ${drainedAt - killEpoch} ms after it`,
        );
        const bound = Math.max(LEASE_MS, drainedAt - killEpoch) + LEASE_MS;
        assert.ok(
          takenOverMs <= bound,
          `the dead node's jobs were finished ${takenOverMs} ms after the kill; the bound is ${bound} ms ` +
            `(lease ${LEASE_MS} ms, earlier mail delivered ${drainedAt - killEpoch} ms after the kill)`,
        );

        // 3. Scheduler tasks: once per cluster per interval. Every run is logged by the node that
        // ran it; runs of one task start at least an interval apart, whichever node ran them.
        const live = nodes.slice(0, 2);
        for (const node of live) assert.equal(await node.stop(), 0, 'a clean SIGTERM stop');
        const rows = await db.db.selectFrom('cluster_tasks').selectAll().execute();
        const logged = nodes.flatMap(taskRuns);
        const perTask: Record<string, number> = {};
        for (const task of Object.keys(SCHEDULER_TASKS)) {
          const row = rows.find((r) => r.name === task);
          assert.ok(row, `${task} ran`);
          const starts = logged
            .filter((l) => l.task === task)
            .map((l) => l.startedAt)
            .sort((a, b) => a - b);
          perTask[task] = starts.length;
          // A run of the killed node may have started and never logged.
          assert.ok(
            starts.length === Number(row.runs) || starts.length === Number(row.runs) - 1,
            `${task}: ${starts.length} runs logged, ${row.runs} counted`,
          );
          for (let i = 1; i < starts.length; i++)
            assert.ok(
              starts[i]! - starts[i - 1]! >= SCHEDULER_INTERVAL_MS,
              `${task} ran twice within one interval (${starts[i]! - starts[i - 1]!} ms apart)`,
            );
        }
        const runningFor = performance.now() - rateStart;

        t.diagnostic(
          `${TOTAL} sends over 3 nodes: ${accepted.length} accepted in ${Math.round(acceptedAt - started)} ms; ` +
            `node killed at ${Math.round(killedAt - started)} ms, holding ${held.length} jobs; ` +
            `those finished by the others ${takenOverMs} ms after the kill (bound ${bound} ms: lease ${LEASE_MS}, ` +
            `earlier mail delivered ${drainedAt - killEpoch} ms after the kill; renewed every ${RENEWAL_MS}); ` +
            `${twice.length} arrived twice; all ${expected.size} at the sink ${Math.round(deliveredAt - started)} ms after the burst began; ` +
            `scheduler runs over ${Math.round(runningFor / 1000)} s at ${SCHEDULER_INTERVAL_MS} ms: ${JSON.stringify(perTask)}`,
        );
        for (const a of agents) a.destroy();
      } finally {
        for (const node of nodes) await node.kill9();
        await sink.close();
        await dns.close();
        await db.close();
      }
    });
  });
}
