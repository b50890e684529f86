// npm run bench:send — POST /v1/send throughput and latency against a real `posthorn serve` over
// HTTPS, on SQLite and on PostgreSQL, with durable commits (SQLite WAL synchronous=FULL; PostgreSQL
// defaults). The load generator (autocannon) runs in this process; the server in a child process.
// Three loads one after the other on the same server: a typical receipt; the same receipt rendered
// from a stored template with 10 variables (`send_template_<dialect>`, docs/templates.md, with its
// throughput as a share of the first's, the plain html measured in the same run); and the receipt
// with a 100 KB PDF attached (a body of about 140 KB, validated on the offload pool,
// docs/security.md). Prints one figure per line: `name: value unit`: for each load the accepted
// sends per second, p50 and p99, and the CPU time per accepted send of the server process and, on
// PostgreSQL, of its database backends (utime + stime from /proc, the backends found in
// pg_stat_activity), which a machine shared with other work distorts less than the rate.
// BENCH_DIALECTS, BENCH_LOADS (html,template,attachment), BENCH_DURATION (s), BENCH_CONNECTIONS
// and BENCH_POOL_SIZE (the server's POSTHORN_DATABASE_POOL_SIZE) narrow or vary a run.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { systemClock } from '../src/core/clock.js';
import { createIds } from '../src/core/ids.js';
import type { Config } from '../src/config/schema.js';
import { CLI_ACTOR } from '../src/core/actor.js';
import { migrate } from '../src/storage/migrate.js';
import { createTemplate } from '../src/templates/template-store.js';
import { openDatabase, type DialectName } from '../src/storage/open-database.js';
import { seedDomain } from '../test/helpers/seed.js';
import { startServer } from '../test/helpers/spawn-server.js';
import { scratchTarget } from './scratch-target.js';
import { serveFromDist } from './from-dist.js';

serveFromDist();

const DURATION_S = Number(process.env.BENCH_DURATION ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);

/** A ~5 KB message, as a typical receipt with an HTML and a text part. */
function receipt(): Record<string, unknown> {
  const para = 'Thank you for your order. Your items will ship within two business days. ';
  return {
    from: 'Acme Store <orders@acme.test>',
    to: 'customer@example.org',
    subject: 'Your receipt #10042',
    html: `<html><body><h1>Receipt</h1>${`<p>${para.repeat(6)}</p>`.repeat(7)}</body></html>`,
    text: `Receipt\n\n${`${para.repeat(6)}\n\n`.repeat(3)}`,
    tags: ['receipt'],
  };
}

/** The receipt with a 100 KB invoice attached (random bytes: base64 of data that does not compress). */
function withAttachment(): Record<string, unknown> {
  const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(100 * 1000 - 9)]);
  return {
    ...receipt(),
    attachments: [{ filename: 'invoice-10042.pdf', content: pdf.toString('base64') }],
    metadata: { order_id: '10042' },
  };
}

const PARA = 'Thank you for your order. Your items will ship within two business days. ';

/** The receipt as a template: ~5 KB of html and text with 10 variables (one inside an #if). */
const RECEIPT_TEMPLATE = {
  subject: 'Your receipt #{{order.number}}',
  html: `<html><body><h1>Receipt #{{order.number}}</h1><p>Hello {{customer.name}} ({{customer.email}}),</p>${`<p>${PARA.repeat(6)}</p>`.repeat(6)}<p>Placed {{order.date}}. Total {{order.total}} {{order.currency}}.</p><p>Shipping {{shipping.method}} to {{shipping.address}}.</p>{{#if support.email}}<p>Questions: {{support.email}}</p>{{/if}}<p>{{company.name}}</p></body></html>`,
  text: `Receipt #{{order.number}}\n\nHello {{customer.name}},\n\n${`${PARA.repeat(6)}\n\n`.repeat(3)}Total {{order.total}} {{order.currency}}\n{{company.name}}\n`,
};

/** A send of the receipt template with its 10 variables. */
function templated(): Record<string, unknown> {
  return {
    from: 'Acme Store <orders@acme.test>',
    to: 'customer@example.org',
    template: {
      name: 'receipt',
      variables: {
        customer: { name: 'Ada Lovelace', email: 'customer@example.org' },
        order: { number: '10042', date: '25 November 2026', total: '52.36', currency: 'EUR' },
        shipping: { method: 'standard', address: '1 Example Street, Springfield' },
        support: { email: 'help@acme.test' },
        company: { name: 'Acme Inc.' },
      },
    },
    tags: ['receipt'],
  };
}

/** The loads, each printed under its own name. */
const ALL_LOADS: { load: string; name: (dialect: DialectName) => string; body: () => string }[] = [
  { load: 'html', name: (d) => `send_${d}`, body: () => JSON.stringify(receipt()) },
  { load: 'template', name: (d) => `send_template_${d}`, body: () => JSON.stringify(templated()) },
  { load: 'attachment', name: (d) => `send_${d}_attachment_100k`, body: () => JSON.stringify(withAttachment()) },
];
/** BENCH_LOADS picks some of them (html, template, attachment); all by default. */
const picked = process.env.BENCH_LOADS?.split(',');
const LOADS = ALL_LOADS.filter((l) => picked === undefined || picked.includes(l.load));

async function run(dialect: DialectName): Promise<void> {
  const target = await scratchTarget(dialect, 'send');
  try {
    const open = openDatabase({ databaseUrl: target.url, dataDir: target.dataDir });
    await migrate(open.db, open.dialect);
    // The per-account rate limit (5 sends per second by default) is raised so the figure measures
    // the service, not the limiter.
    const seedDeps = { db: open.db, clock: systemClock, ids: createIds() };
    const seeded = await seedDomain(seedDeps, { domain: 'acme.test', rateLimit: 1_000_000_000 });
    await createTemplate(
      { ...seedDeps, config: { offloadThreads: 0 } as Config },
      seeded.accountId,
      'receipt',
      RECEIPT_TEMPLATE,
      CLI_ACTOR,
    );
    const server = await startServer(
      {
        ...target.env,
        POSTHORN_SANDBOX: '0',
        POSTHORN_HOSTNAME: 'localhost',
        POSTHORN_LISTEN_HOST: '127.0.0.1',
        // The server's PostgreSQL pool, to measure its size (docs/scaling.md); the default otherwise.
        ...(process.env.BENCH_POOL_SIZE ? { POSTHORN_DATABASE_POOL_SIZE: process.env.BENCH_POOL_SIZE } : {}),
      },
      {
        args: ['--roles', 'api'],
        nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
      },
    );
    const count = async () =>
      Number(
        (
          await open.db
            .selectFrom('messages')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    // Requests in flight when autocannon stops still commit: read the count once it has stopped
    // moving for a second (with 140 KB bodies on a busy machine, commits can be 250 ms apart).
    const settled = async () => {
      for (let last = -1, same = 0, n = await count(); ; last = n, n = await count()) {
        same = n === last ? same + 1 : 0;
        if (same === 4) return n;
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    const rates = new Map<string, number>();
    const serverPid = server.child.pid;
    for (const load of LOADS) {
      const name = load.name(dialect);
      const opts = {
        url: `${server.url}/v1/send`,
        method: 'POST' as const,
        connections: CONNECTIONS,
        pipelining: 1,
        headers: { authorization: `Bearer ${seeded.key}`, 'content-type': 'application/json' },
        body: load.body(),
      };
      await autocannon({ ...opts, duration: 3 }); // warm-up: JIT, connection setup, page cache
      const before = await settled();
      const cpuBefore = await cpuTicks(open.db, dialect, serverPid);
      const result = await autocannon({ ...opts, duration: DURATION_S });
      const after = await settled();
      const cpuAfter = await cpuTicks(open.db, dialect, serverPid);
      const accepted = result['2xx'];
      // Requests still in flight when autocannon stops commit without being counted: at most one per connection.
      const stored = after - before;
      if (process.env.BENCH_VERBOSE)
        console.error(
          `${name}: stored ${stored}, 2xx ${accepted}, non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}`,
        );
      if (stored < accepted || stored > accepted + CONNECTIONS + result.non2xx + result.errors) {
        throw new Error(
          `${name}: 202 responses (${accepted}) do not match messages stored (${stored}); ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
        );
      }
      if (result.non2xx > 0 || result.errors > 0) {
        console.error(
          `note: ${name}: ${result.non2xx} non-2xx, ${result.errors} errors; statuses ${JSON.stringify(result.statusCodeStats)}`,
        );
        console.error(
          server
            .stderr()
            .split('\n')
            .filter((l) => /"level":(40|50)/.test(l))
            .slice(0, 3)
            .join('\n'),
        );
      }
      rates.set(name, accepted / DURATION_S);
      console.log(`${name}: ${Math.round(accepted / DURATION_S)} sends/s`);
      console.log(`${name}_p50: ${result.latency.p50} ms`);
      console.log(`${name}_p99: ${result.latency.p99} ms`);
      // CPU per accepted send, which a shared machine distorts less than the rate: the server's, and
      // on PostgreSQL its backends' (their pids from pg_stat_activity).
      const perSend = (ticks: number) => Math.round((ticks * (1_000_000 / CLOCK_TICKS)) / Math.max(1, accepted));
      console.log(`${name}_server_cpu: ${perSend(cpuAfter.server - cpuBefore.server)} us/send`);
      if (dialect === 'postgres') console.log(`${name}_db_cpu: ${perSend(backendDelta(cpuBefore, cpuAfter))} us/send`);
      if (name === `send_template_${dialect}`)
        if (rates.has(`send_${dialect}`))
          console.log(
            `${name}_vs_html: ${Math.round((100 * accepted) / DURATION_S / rates.get(`send_${dialect}`)!)} %`,
          );
    }
    const rss = readRssMb(server.child.pid);
    await server.stop();
    await open.close();
    console.log(`send_${dialect}_server_peak_rss: ${rss} MB`);
  } finally {
    await target.cleanup();
  }
}

/** USER_HZ, the unit of /proc/<pid>/stat's utime and stime (100 on Linux). */
const CLOCK_TICKS = 100;

/** utime + stime of a process, in clock ticks (proc(5)); 0 once it is gone. */
function procTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

interface CpuSample {
  server: number;
  backends: Map<number, number>;
}

/** The server's CPU ticks and, on PostgreSQL, those of each backend connected to the bench's database. */
async function cpuTicks(
  db: ReturnType<typeof openDatabase>['db'],
  dialect: DialectName,
  serverPid: number | undefined,
): Promise<CpuSample> {
  const backends = new Map<number, number>();
  if (dialect === 'postgres') {
    const rows = await sql<{ pid: number }>`
      SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`.execute(db);
    for (const r of rows.rows) backends.set(r.pid, procTicks(r.pid));
  }
  return { server: serverPid === undefined ? 0 : procTicks(serverPid), backends };
}

/** Backend ticks spent between two samples (a backend that started in between counts from zero). */
function backendDelta(before: CpuSample, after: CpuSample): number {
  let sum = 0;
  for (const [pid, t] of after.backends) sum += t - (before.backends.get(pid) ?? 0);
  return sum;
}

function readRssMb(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as DialectName[];
for (const d of dialects) await run(d);
