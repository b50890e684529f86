// npm run bench:send — POST /v1/send throughput and latency against a real `posthorn serve` over
// HTTPS, on SQLite and on PostgreSQL, with durable commits (SQLite WAL synchronous=FULL; PostgreSQL
// defaults). The load generator (autocannon) runs in this process; the server in a child process.
// Two variants against the same server: a ~5 KB html+text message given whole (`send_<db>`), and
// the same message rendered from a stored template with 10 variables (`send_template_<db>`,
// docs/templates.md). They run in turns, plain/template/template/plain, each for half of
// BENCH_DURATION, so drift over the run (a growing database, a busy machine) falls on both alike.
// Prints one figure per line: `name: value unit`.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { systemClock } from '../src/core/clock.js';
import { createIds } from '../src/core/ids.js';
import type { Config } from '../src/config/schema.js';
import { migrate } from '../src/storage/migrate.js';
import { openDatabase, type DialectName } from '../src/storage/open-database.js';
import { createTemplate } from '../src/templates/template-store.js';
import { CLI_ACTOR } from '../src/core/actor.js';
import { seedDomain } from '../test/helpers/seed.js';
import { startServer } from '../test/helpers/spawn-server.js';
import { scratchTarget } from './scratch-target.js';

const DURATION_S = Number(process.env.BENCH_DURATION ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);

const PARA = 'Thank you for your order. Your items will ship within two business days. ';

/** A ~5 KB message body, as a typical receipt with an HTML and a text part. */
function body(): string {
  return JSON.stringify({
    from: 'Acme Store <orders@acme.test>',
    to: 'customer@example.org',
    subject: 'Your receipt #10042',
    html: `<html><body><h1>Receipt</h1>${`<p>${PARA.repeat(6)}</p>`.repeat(7)}</body></html>`,
    text: `Receipt\n\n${`${PARA.repeat(6)}\n\n`.repeat(3)}`,
    tags: ['receipt'],
  });
}

/** The same receipt as a template: ~5 KB of html with 10 variables (one inside an #if), and its text part. */
const RECEIPT_TEMPLATE = {
  subject: 'Your receipt #{{order.number}}',
  html: `<html><body><h1>Receipt #{{order.number}}</h1><p>Hello {{customer.name}} ({{customer.email}}),</p>${`<p>${PARA.repeat(6)}</p>`.repeat(6)}<p>Placed {{order.date}}. Total {{order.total}} {{order.currency}}.</p><p>Shipping {{shipping.method}} to {{shipping.address}}.</p>{{#if support.email}}<p>Questions: {{support.email}}</p>{{/if}}<p>{{company.name}}</p></body></html>`,
  text: `Receipt #{{order.number}}\n\nHello {{customer.name}},\n\n${`${PARA.repeat(6)}\n\n`.repeat(3)}Total {{order.total}} {{order.currency}}\n{{company.name}}\n`,
};

function templateBody(): string {
  return JSON.stringify({
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
  });
}

interface Figures {
  accepted: number;
  seconds: number;
  p50: number[];
  p99: number[];
}

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
      { ...target.env, POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: 'localhost', POSTHORN_LISTEN_HOST: '127.0.0.1' },
      {
        args: ['--roles', 'api'],
        nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
      },
    );
    const opts = (payload: string) => ({
      url: `${server.url}/v1/send`,
      method: 'POST' as const,
      connections: CONNECTIONS,
      pipelining: 1,
      headers: { authorization: `Bearer ${seeded.key}`, 'content-type': 'application/json' },
      body: payload,
    });
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
    // moving for a second (a loaded machine can hold a request longer than one 250 ms poll).
    const settled = async () => {
      for (let last = -1, same = 0, n = await count(); ; last = n, n = await count()) {
        same = n === last ? same + 1 : 0;
        if (same === 4) return n;
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    const measure = async (payload: string, seconds: number, into: Figures) => {
      const before = await settled();
      const result = await autocannon({ ...opts(payload), duration: seconds });
      const after = await settled();
      const accepted = result['2xx'];
      // Requests still in flight when autocannon stops commit without being counted: at most one per connection.
      const stored = after - before;
      if (process.env.BENCH_VERBOSE)
        console.error(
          `stored ${stored}, 2xx ${accepted}, non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}`,
        );
      if (stored < accepted || stored > accepted + CONNECTIONS + result.non2xx + result.errors) {
        throw new Error(
          `202 responses (${accepted}) do not match messages stored (${stored}); ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
        );
      }
      if (result.non2xx > 0 || result.errors > 0) {
        console.error(
          `note: ${result.non2xx} non-2xx, ${result.errors} errors; statuses ${JSON.stringify(result.statusCodeStats)}`,
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
      into.accepted += accepted;
      into.seconds += seconds;
      into.p50.push(result.latency.p50);
      into.p99.push(result.latency.p99);
    };
    const plain: Figures = { accepted: 0, seconds: 0, p50: [], p99: [] };
    const templated: Figures = { accepted: 0, seconds: 0, p50: [], p99: [] };
    const half = DURATION_S / 2;
    await autocannon({ ...opts(body()), duration: 3 }); // warm-up: JIT, connection setup, page cache
    await autocannon({ ...opts(templateBody()), duration: 3 }); // and the template's compiled version
    await measure(body(), half, plain);
    await measure(templateBody(), half, templated);
    await measure(templateBody(), half, templated);
    await measure(body(), half, plain);
    const rss = readRssMb(server.child.pid);
    await server.stop();
    await open.close();
    const rate = (f: Figures) => Math.round(f.accepted / f.seconds);
    // Latency over the two turns of a variant: the mean of their medians, the worse of their p99s.
    const p50 = (f: Figures) => Math.round(f.p50.reduce((a, b) => a + b, 0) / f.p50.length);
    const p99 = (f: Figures) => Math.max(...f.p99);
    console.log(`send_${dialect}: ${rate(plain)} sends/s`);
    console.log(`send_${dialect}_p50: ${p50(plain)} ms`);
    console.log(`send_${dialect}_p99: ${p99(plain)} ms`);
    console.log(`send_template_${dialect}: ${rate(templated)} sends/s`);
    console.log(`send_template_${dialect}_p50: ${p50(templated)} ms`);
    console.log(`send_template_${dialect}_p99: ${p99(templated)} ms`);
    console.log(`send_template_${dialect}_vs_html: ${Math.round((100 * rate(templated)) / rate(plain))} %`);
    console.log(`send_${dialect}_server_peak_rss: ${rss} MB`);
  } finally {
    await target.cleanup();
  }
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
