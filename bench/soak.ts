// npm run bench:soak — a long steady load: POST /v1/send over HTTPS to one `posthorn serve --roles
// api,delivery` delivering to a loopback sink MX (its own process) through a loopback DNS server,
// at 80% of the maximum. The maximum is measured first (BENCH_MEASURE_SECONDS, default 20, of as
// many sends as BENCH_CONNECTIONS keep-alive connections carry), unless BENCH_RATE gives the rate to
// hold. The hold lasts BENCH_SOAK_SECONDS (default 600) at a fixed rate, whatever the answers take
// (open loop, so a slow server shows as latency, not as a lower rate). Prints one figure per line,
// `name: value unit`: the rates, sends made, errors (anything but 202, transport errors, and sends
// that could not start because BENCH_MAX_IN_FLIGHT were already waiting), latency p50 and p99, the
// server's RSS at the start and the end of the hold, and what reached the sink.
// BENCH_DIALECT=postgres runs on PostgreSQL (BENCH_DATABASE_URL's server, a scratch database).
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { systemClock } from '../src/core/clock.js';
import { createIds } from '../src/core/ids.js';
import { migrate } from '../src/storage/migrate.js';
import { openDatabase, type DialectName } from '../src/storage/open-database.js';
import { startDnsServer } from '../test/helpers/dns-server.js';
import { postSendHttps } from '../test/helpers/https-send.js';
import { seedDomain } from '../test/helpers/seed.js';
import { startSinkMx } from '../test/helpers/sink-mx.js';
import { startServer } from '../test/helpers/spawn-server.js';
import { scratchTarget } from './scratch-target.js';

const SOAK_S = Number(process.env.BENCH_SOAK_SECONDS ?? 600);
const MEASURE_S = Number(process.env.BENCH_MEASURE_SECONDS ?? 20);
const GIVEN_RATE = process.env.BENCH_RATE ? Number(process.env.BENCH_RATE) : null;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const MAX_IN_FLIGHT = Number(process.env.BENCH_MAX_IN_FLIGHT ?? 512);
const DIALECT = (process.env.BENCH_DIALECT ?? 'sqlite') as DialectName;
const DOMAINS = 50;

/** The ~5 KB receipt of the other benchmarks, to the i-th recipient over 50 domains. */
function body(i: number): Record<string, unknown> {
  const para = 'Thank you for your order. Your items will ship within two business days. ';
  return {
    from: 'Acme Store <orders@acme.test>',
    to: `r${i}@d${i % DOMAINS}.example`,
    subject: 'Your receipt #10042',
    html: `<html><body><h1>Receipt</h1>${`<p>${para.repeat(6)}</p>`.repeat(7)}</body></html>`,
  };
}

function rssMb(pid: number): number {
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function runSink(): Promise<void> {
  const sink = await startSinkMx({ store: false });
  process.on('message', (m: string) => {
    if (m === 'count') process.send?.({ count: sink.received });
    else void sink.close().then(() => process.exit(0));
  });
  process.send?.({ port: sink.port });
}

function ask(child: ChildProcess, m: string): Promise<{ count: number }> {
  return new Promise((resolve) => {
    child.once('message', (r) => resolve(r as { count: number }));
    child.send(m);
  });
}

async function main(): Promise<void> {
  const sink: ChildProcess = fork(fileURLToPath(import.meta.url), ['--sink'], { execArgv: ['--import', 'tsx'] });
  const { port: sinkPort } = (await new Promise((resolve) => sink.once('message', resolve))) as { port: number };
  const zone: Record<string, { MX: { exchange: string; priority: number }[] }> = {};
  for (let i = 0; i < DOMAINS; i++) zone[`d${i}.example`] = { MX: [{ exchange: '127.0.0.1', priority: 10 }] };
  const dns = await startDnsServer(zone);
  const target = await scratchTarget(DIALECT, 'soak');
  try {
    const open = openDatabase({ databaseUrl: target.url, dataDir: target.dataDir });
    await migrate(open.db, open.dialect);
    const seeded = await seedDomain(
      { db: open.db, clock: systemClock, ids: createIds() },
      { domain: 'acme.test', rateLimit: 1_000_000_000 },
    );
    // seedDomain's key is a placeholder: this server signs for real.
    const { generateDkimKey } = await import('../src/domains/dkim-key.js');
    const dkim = await generateDkimKey();
    await open.db
      .updateTable('domains')
      .set({ dkim_private_key: dkim.privateKeyPem, dkim_public_key: dkim.publicKeyB64 })
      .execute();
    await open.close();
    const server = await startServer(
      {
        ...target.env,
        POSTHORN_SANDBOX: '0',
        POSTHORN_HOSTNAME: 'localhost',
        POSTHORN_LISTEN_HOST: '127.0.0.1',
        POSTHORN_DNS_SERVERS: dns.address,
        POSTHORN_MX_PORT: String(sinkPort),
      },
      { args: ['--roles', 'api,delivery'] },
    );
    const pid = server.child.pid as number;
    const agent = new https.Agent({
      keepAlive: true,
      maxSockets: CONNECTIONS,
      ca: readFileSync(join(target.dataDir, 'tls', 'cert.pem')),
    });
    let i = 0;
    const send = () => postSendHttps(server.url, agent, seeded.key, body(i++));
    try {
      // 1. The maximum: closed loop, CONNECTIONS sends in flight, for MEASURE_S seconds.
      let max = GIVEN_RATE;
      if (max === null) {
        let ok = 0;
        const end = Date.now() + MEASURE_S * 1000;
        const started = Date.now();
        await Promise.all(
          Array.from({ length: CONNECTIONS }, async () => {
            while (Date.now() < end) {
              const o = await send();
              if ('status' in o && o.status === 202) ok++;
            }
          }),
        );
        max = ok / ((Date.now() - started) / 1000);
      }
      const rate = max * 0.8;

      // 2. The hold: open loop at `rate`, started on a 10 ms tick.
      const latencies: number[] = [];
      let errors = 0;
      let sent = 0;
      let inFlight = 0;
      const pending = new Set<Promise<void>>();
      const rssStart = rssMb(pid);
      const deliveredStart = (await ask(sink, 'count')).count;
      const t0 = performance.now();
      const until = t0 + SOAK_S * 1000;
      while (performance.now() < until) {
        const due = Math.floor(((performance.now() - t0) / 1000) * rate);
        for (; sent < due; sent++) {
          if (inFlight >= MAX_IN_FLIGHT) {
            errors++;
            continue;
          }
          inFlight++;
          const start = performance.now();
          const p: Promise<void> = send().then((o) => {
            inFlight--;
            latencies.push(performance.now() - start);
            if (!('status' in o) || o.status !== 202) errors++;
            pending.delete(p);
          });
          pending.add(p);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      await Promise.all([...pending]);
      const heldFor = (performance.now() - t0) / 1000;
      const rssEnd = rssMb(pid);
      const delivered = (await ask(sink, 'count')).count - deliveredStart;
      latencies.sort((a, b) => a - b);

      console.log(`soak_max_rate: ${Math.round(max)} msgs/s${GIVEN_RATE !== null ? ' (BENCH_RATE)' : ''}`);
      console.log(`soak_rate: ${Math.round(rate)} msgs/s`);
      console.log(`soak_seconds: ${Math.round(heldFor)} s`);
      console.log(`soak_sent: ${sent} msgs`);
      console.log(`soak_errors: ${errors} errors`);
      console.log(`soak_p50: ${percentile(latencies, 50).toFixed(1)} ms`);
      console.log(`soak_p99: ${percentile(latencies, 99).toFixed(1)} ms`);
      console.log(`soak_rss_start: ${rssStart} MB`);
      console.log(`soak_rss_end: ${rssEnd} MB`);
      console.log(`soak_delivered: ${delivered} msgs`);
    } finally {
      agent.destroy();
      await server.stop();
    }
  } finally {
    await dns.close();
    sink.send('close');
    await target.cleanup();
  }
}

if (process.argv[2] === '--sink') await runSink();
else await main();
