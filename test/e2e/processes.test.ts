// `posthorn serve --processes N` (docs/scaling.md, "Several processes on one host"), with real
// processes on SQLite and PostgreSQL:
// - `--processes 2`: a burst of sends; the delivery child killed with SIGKILL mid-burst is
//   restarted, and every accepted recipient reaches the sink MX; the one metrics listener shows the
//   child's delivery counters; SIGTERM to the parent stops the child too and exits 0.
// - SIGKILL to the parent: the children stop by themselves (their IPC channel closes).
// - `--processes 3` on SQLite, and N ≥ 2 without the delivery role, are refused naming why.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import http from 'node:http';
import https from 'node:https';
import { systemClock } from '../../src/core/clock.js';
import { createIds } from '../../src/core/ids.js';
import { startDnsServer } from '../helpers/dns-server.js';
import { giveRealDkimKey, seedDomain } from '../helpers/seed.js';
import { postSendHttps, type SendOutcome } from '../helpers/https-send.js';
import { runCli } from '../helpers/run-cli.js';
import { startSinkMx, type SinkMessage } from '../helpers/sink-mx.js';
import { startServer, type RunningServer, deliveringEnv } from '../helpers/spawn-server.js';
import { createTestDb, testDialects, type TestDb } from '../helpers/test-db.js';

const TOTAL = 1500;
const KILL_AFTER_RECEIVED = 200;
/** Deliveries in flight at once: the bound on what the kill can make arrive twice. */
const CONCURRENCY = 32;
/** POSTHORN_QUEUE_LEASE: the killed child's jobs come back to its successor after this. */
const LEASE_MS = 3_000;
const RCPT_DOMAIN = 'example.org';

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The JSON log lines of `server` with message `msg`. */
function logLines(server: RunningServer, msg: string): Record<string, unknown>[] {
  return server
    .stderr()
    .split('\n')
    .flatMap((line) => {
      try {
        const e = JSON.parse(line) as Record<string, unknown>;
        return e.msg === msg ? [e] : [];
      } catch {
        return [];
      }
    });
}

/** Pids of the delivery children the server started so far, in order. */
const childPids = (server: RunningServer): number[] =>
  logLines(server, 'delivery process started').map((e) => e.pid as number);

/** True while a process with this pid exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function get(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
}

/** Sum of a metric's samples whose labels include every one of `labels`. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

async function setUp(dialect: 'sqlite' | 'postgres') {
  const db = await createTestDb(dialect);
  const sink = await startSinkMx({ slowDataMs: 1_000 });
  const dns = await startDnsServer({ [RCPT_DOMAIN]: { MX: [{ exchange: '127.0.0.1', priority: 10 }] } });
  const seeded = await seedDomain(
    { db: db.db, clock: systemClock, ids: createIds() },
    { domain: 'acme.test', rateLimit: 1_000_000 },
  );
  await giveRealDkimKey(db.db, seeded.domainId);
  const env = {
    ...db.env,
    ...deliveringEnv(dns, sink),
    POSTHORN_DELIVERY_CONCURRENCY: String(CONCURRENCY),
    POSTHORN_QUEUE_LEASE: `${LEASE_MS}ms`,
  };
  return {
    db,
    sink,
    key: seeded.key,
    env,
    async close() {
      await sink.close();
      await dns.close();
      await db.close();
    },
  };
}

/** Starts `serve --processes n` and waits for its `posthorn running` line (the children are ready by then). */
async function startSupervised(env: Record<string, string>, n: number): Promise<RunningServer> {
  const server = await startServer(env, { args: ['--roles', 'api,delivery', '--processes', String(n)] });
  await until('posthorn running', () => logLines(server, 'posthorn running').some((e) => e.process === 'main'), 30_000);
  return server;
}

const agentFor = (db: TestDb): https.Agent =>
  new https.Agent({ keepAlive: true, maxSockets: 50, ca: readFileSync(join(db.dataDir, 'tls', 'cert.pem')) });

for (const dialect of testDialects()) {
  describe(`serve --processes (${dialect})`, () => {
    test(`--processes 2: a ${TOTAL}-send burst, the delivery child killed with SIGKILL mid-burst and restarted; every accepted recipient arrives; metrics show the child's deliveries; SIGTERM stops all, exit 0`, async (t) => {
      const x = await setUp(dialect);
      let server: RunningServer | null = null;
      try {
        server = await startSupervised(x.env, 2);
        const running = logLines(server, 'posthorn running');
        const main = running.find((e) => e.process === 'main')!;
        assert.deepEqual(main.own_roles, ['api'], 'the parent runs api; delivery is in the child');
        assert.ok(
          running.some((e) => e.process === 'delivery-1' && (e.roles as string[]).join() === 'delivery'),
          'the child logs on the same stderr, named',
        );
        const [firstChild] = childPids(server);
        assert.ok(firstChild !== undefined && alive(firstChild));

        const agent = agentFor(x.db);
        const outcomes: SendOutcome[] = await Promise.all(
          Array.from({ length: TOTAL }, (_, i) =>
            postSendHttps(server!.url, agent, x.key, {
              from: 'hello@acme.test',
              to: `r${i}@${RCPT_DOMAIN}`,
              subject: `Receipt ${i}`,
              html: `<p>Order ${i}</p>`,
            }),
          ),
        );
        agent.destroy();
        assert.deepEqual(
          outcomes.filter((o) => !('status' in o) || o.status !== 202),
          [],
          'the whole burst is accepted',
        );

        await x.sink.waitFor((m) => m.length >= KILL_AFTER_RECEIVED, 60_000);
        process.kill(firstChild, 'SIGKILL');
        const receivedAtKill = x.sink.messages.length;
        assert.ok(receivedAtKill < TOTAL, `the kill came mid-burst (${receivedAtKill} of ${TOTAL} received)`);
        await until('the child restarted', () => childPids(server!).length >= 2, 15_000);
        const restarted = logLines(server, 'delivery process exited unexpectedly; restarting it');
        assert.equal(restarted[0]?.signal, 'SIGKILL', 'the unexpected exit is logged with its signal');
        const secondChild = childPids(server)[1]!;
        assert.notEqual(secondChild, firstChild);

        // Every recipient accepted arrives: the dead child's leased jobs after their lease, the rest at once.
        const counts = new Map<string, number>();
        let seen = 0;
        const update = (messages: SinkMessage[]): void => {
          for (; seen < messages.length; seen++)
            for (const r of messages[seen]!.rcptTo) counts.set(r.toLowerCase(), (counts.get(r.toLowerCase()) ?? 0) + 1);
        };
        await x.sink
          .waitFor((messages) => {
            update(messages);
            return counts.size >= TOTAL;
          }, 120_000)
          .catch((err: Error) => {
            throw new Error(`${TOTAL - counts.size} accepted recipients never reached the sink: ${err.message}`);
          });
        const twice = [...counts.values()].filter((n) => n > 1).length;
        assert.ok(twice <= CONCURRENCY, `${twice} arrived twice, more than the ${CONCURRENCY} in flight`);
        await until(
          'the queue emptied',
          async () => (await x.db.db.selectFrom('jobs').select('id').execute()).length === 0,
          30_000,
        );

        // The one listener shows the child's delivery counters (the parent delivers nothing itself).
        const text = await get(`${server.metricsUrl!}/metrics`);
        const delivered = sample(text, 'posthorn_deliveries_total', { outcome: 'delivered' });
        assert.ok(delivered > 0, `posthorn_deliveries_total{outcome="delivered"} is ${delivered}`);
        assert.ok(
          delivered <= TOTAL,
          'no more than the restarted child delivered (the dead one took its counts with it)',
        );
        assert.equal(sample(text, 'posthorn_sends_total', { outcome: 'accepted' }), TOTAL, "the parent's own");

        const code = await server.stop();
        server = null;
        assert.equal(code, 0, 'SIGTERM: a clean stop');
        assert.equal(alive(secondChild), false, 'the child stopped with its parent');
        t.diagnostic(
          `${dialect}: killed the child at ${receivedAtKill} received; ${twice} arrived twice; ${delivered} delivered by the restarted child`,
        );
      } finally {
        if (server) await server.kill9();
        await x.close();
      }
    });

    const n = dialect === 'postgres' ? 3 : 2;
    test(`SIGKILL to the parent of --processes ${n}: the children exit by themselves`, async () => {
      const x = await setUp(dialect);
      try {
        const server = await startSupervised(x.env, n);
        const pids = childPids(server);
        assert.equal(pids.length, n - 1);
        assert.ok(pids.every(alive));
        await server.kill9();
        await until('every child exited', () => !pids.some(alive), 15_000);
      } finally {
        await x.close();
      }
    });
  });
}

describe('serve --processes: refusals', () => {
  test('--processes 3 on SQLite is refused, naming why; so is N ≥ 2 without delivery, and a bad N', async () => {
    const db = await createTestDb('sqlite');
    try {
      const three = await runCli(['serve', '--processes', '3'], db.env);
      assert.equal(three.code, 1, three.stderr);
      assert.match(three.stderr, /--processes 3 on SQLite: at most 2/);
      assert.match(three.stderr, /provider pacing and per-destination connection caps/);
      const byEnv = await runCli(['serve'], { ...db.env, POSTHORN_PROCESSES: '4' });
      assert.equal(byEnv.code, 1, byEnv.stderr);
      assert.match(byEnv.stderr, /--processes 4 on SQLite: at most 2/);
      const noDelivery = await runCli(['serve', '--roles', 'api', '--processes', '2'], db.env);
      assert.equal(noDelivery.code, 1, noDelivery.stderr);
      assert.match(noDelivery.stderr, /delivery is not among the roles \(api\)/);
      const bad = await runCli(['serve', '--processes', 'two'], db.env);
      assert.equal(bad.code, 1, bad.stderr);
      assert.match(bad.stderr, /--processes must be a whole number from 1 to 64, got "two"/);
    } finally {
      await db.close();
    }
  });
});
