// npm run bench:webhooks — signed webhook deliveries per second from a real `posthorn serve --roles
// api,webhooks` to a loopback HTTP receiver in its own process (it checks nothing, answers 200 and
// records when each webhook-id first arrived), and the delay from event to POST.
// Two phases per database:
//   1. throughput: BENCH_EVENTS (20,000) events written through writeEvents as fast as this
//      process can, in transactions of 500; figure = events / (last arrival − first write);
//   2. delay: BENCH_DELAY_EVENTS (10,000) events written at BENCH_DELAY_RATE (2,000/s) in small
//      transactions every 10 ms, a load the receiver keeps up with; p50/p99 of arrival − occurred_at.
// BENCH_DIALECTS picks the databases (default sqlite,postgres); PostgreSQL runs at
// BENCH_DATABASE_URL's server (scratch-target.ts). Prints one figure per line: `name: value unit`.
import { findDomain } from '../src/domains/add-domain.js';
import { CLI_ACTOR } from '../src/core/actor.js';
import { fork, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config/load.js';
import { systemClock } from '../src/core/clock.js';
import { createIds, type Ids } from '../src/core/ids.js';
import { writeEvents, type NewEvent } from '../src/events/write-events.js';
import { migrate } from '../src/storage/migrate.js';
import { openDatabase, type DialectName, type OpenDatabase } from '../src/storage/open-database.js';
import { setWebhook } from '../src/webhooks/set-webhook.js';
import { seedDomain, type Seeded } from '../test/helpers/seed.js';
import { startServer } from '../test/helpers/spawn-server.js';
import { scratchTarget } from './scratch-target.js';
import { serveFromDist } from './from-dist.js';

serveFromDist();

const N = Number(process.env.BENCH_EVENTS ?? 20_000);
const DELAY_N = Number(process.env.BENCH_DELAY_EVENTS ?? 10_000);
const DELAY_RATE = Number(process.env.BENCH_DELAY_RATE ?? 2_000);

interface Report {
  count: number;
  first: number;
  last: number;
  p50: number;
  p99: number;
}

if (process.argv[2] === '--receiver') {
  // Arrival of the first POST per webhook-id, and its delay from the event's occurred_at.
  let seen = new Map<string, number>();
  let first = 0;
  let last = 0;
  const server = http.createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = Date.now();
      const id = String(req.headers['webhook-id']);
      if (!seen.has(id)) {
        const occurred = Date.parse(
          (JSON.parse(Buffer.concat(chunks).toString()) as { occurred_at: string }).occurred_at,
        );
        seen.set(id, now - occurred);
        if (first === 0) first = now;
        last = now;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
  process.on('message', (m: string) => {
    if (m === 'report') {
      const delays = [...seen.values()].sort((a, b) => a - b);
      const at = (q: number) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))] ?? 0;
      process.send?.({ count: seen.size, first, last, p50: at(0.5), p99: at(0.99) } satisfies Report);
    } else if (m === 'reset') {
      seen = new Map();
      first = 0;
      last = 0;
      process.send?.('reset');
    } else if (m === 'close') {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    }
  });
} else {
  const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as DialectName[];
  for (const d of dialects) await run(d);
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(message);
  });
}

/** Polls the receiver until it has `count` distinct webhook-ids (or 10 minutes pass). */
async function waitForCount(child: ChildProcess, count: number): Promise<Report> {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    const r = await ask<Report>(child, 'report');
    if (r.count >= count || Date.now() > deadline) return r;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function events(ids: Ids, d: Seeded, count: number, offset: number): NewEvent[] {
  const now = Date.now();
  return Array.from({ length: count }, (_, i) => ({
    id: ids.next('evt', now),
    accountId: d.accountId,
    domainId: d.domainId,
    messageId: ids.next('msg', now),
    event: 'delivered' as const,
    recipient: `customer${offset + i}@example.org`,
    from: 'Acme Store <orders@acme.test>',
    subject: 'Your receipt #10042',
    tags: ['receipt'],
    details: { smtp_reply: '250 2.0.0 OK: queued as 3F1A2B', mx: 'mx.example.org' },
    occurredAt: now,
  }));
}

function write(open: OpenDatabase, batch: NewEvent[]): Promise<void> {
  return open.db.transaction().execute((trx) => writeEvents(trx, batch));
}

async function run(dialect: DialectName): Promise<void> {
  const target = await scratchTarget(dialect, 'webhooks');
  const receiver = fork(fileURLToPath(import.meta.url), ['--receiver'], { execArgv: ['--import', 'tsx'] });
  const { port } = await new Promise<{ port: number }>((resolve) =>
    receiver.once('message', (m) => resolve(m as { port: number })),
  );
  const open = openDatabase({ databaseUrl: target.url, dataDir: target.dataDir });
  try {
    await migrate(open.db, open.dialect);
    const ids = createIds();
    const config = loadConfig({
      POSTHORN_SANDBOX: '0',
      POSTHORN_HOSTNAME: 'localhost',
      POSTHORN_WEBHOOK_ALLOW_PRIVATE: '1',
      ...target.env,
    });
    const deps = { db: open.db, clock: systemClock, ids, config };
    const domain = await seedDomain(deps, { domain: 'acme.test' });
    await setWebhook(deps, await findDomain(deps, 'acme.test'), `http://127.0.0.1:${port}/hooks`, CLI_ACTOR);
    const server = await startServer(
      {
        ...target.env,
        POSTHORN_SANDBOX: '0',
        POSTHORN_HOSTNAME: 'localhost',
        POSTHORN_LISTEN_HOST: '127.0.0.1',
        POSTHORN_WEBHOOK_ALLOW_PRIVATE: '1',
      },
      {
        args: ['--roles', 'api,webhooks'],
        nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
      },
    );
    try {
      // Phase 1: throughput.
      const start = Date.now();
      for (let i = 0; i < N; i += 500) await write(open, events(ids, domain, Math.min(500, N - i), i));
      const written = Date.now();
      const burst = await waitForCount(receiver, N);
      if (burst.count < N) console.error(`note: ${N - burst.count} of ${N} webhooks did not arrive within 10 minutes`);
      console.log(`webhooks_${dialect}: ${Math.round(burst.count / ((burst.last - start) / 1000))} webhooks/s`);
      console.log(`webhooks_${dialect}_write: ${Math.round(N / ((written - start) / 1000))} events/s`);

      // Phase 2: delay at a rate the receiver keeps up with.
      await ask(receiver, 'reset');
      const perTick = Math.max(1, Math.round(DELAY_RATE / 100));
      const paceStart = Date.now();
      for (let i = 0, tick = 0; i < DELAY_N; i += perTick, tick++) {
        const wait = paceStart + tick * 10 - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        await write(open, events(ids, domain, Math.min(perTick, DELAY_N - i), N + i));
      }
      const paced = await waitForCount(receiver, DELAY_N);
      console.log(
        `webhook_delay_rate_${dialect}: ${Math.round(DELAY_N / ((Date.now() - paceStart) / 1000))} events/s written`,
      );
      console.log(`webhook_delay_p50_${dialect}: ${paced.p50} ms`);
      console.log(`webhook_delay_p99_${dialect}: ${paced.p99} ms`);
    } finally {
      await server.stop();
    }
  } finally {
    await open.close();
    receiver.send('close');
    await target.cleanup();
  }
}
