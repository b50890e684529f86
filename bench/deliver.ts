// npm run bench:deliver — delivered messages per second through the whole path: N messages of
// ~5 KB accepted over HTTPS, DKIM-signed (RSA-2048), routed by MX through a loopback DNS server to
// 50 recipient domains, delivered over SMTP with STARTTLS to a loopback sink MX in its own process.
// Measured from the first acceptance to the last `delivered` event committed. Prints, per
// database: delivered msgs/s, server CPU per message (all threads, and the main thread alone), server peak RSS. BENCH_TRACKING=1 turns on
// open and click tracking and unsubscribe for the domain (figures named `deliver_tracked_…`): each
// message is then rendered per recipient with its pixel, signed links and List-Unsubscribe.
// BENCH_PROCESSES=N starts the server with `--processes N` (docs/scaling.md): the figures are then
// named `…_pN`, CPU sums every process of the server (the parent and its delivery children), and
// the main-thread figure is given per process.
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { loadConfig } from '../src/config/load.js';
import { systemClock } from '../src/core/clock.js';
import { createIds } from '../src/core/ids.js';
import { addDomain } from '../src/domains/add-domain.js';
import { createAccount, updateAccountLimits } from '../src/accounts/accounts.js';
import { issueApiKey } from '../src/credentials/issue-api-key.js';
import { migrate } from '../src/storage/migrate.js';
import { openDatabase, type DialectName } from '../src/storage/open-database.js';
import { startDnsServer } from '../test/helpers/dns-server.js';
import { startSinkMx } from '../test/helpers/sink-mx.js';
import { startServer } from '../test/helpers/spawn-server.js';
import { scratchTarget } from './scratch-target.js';
import { serveFromDist } from './from-dist.js';

serveFromDist();

const N = Number(process.env.BENCH_MESSAGES ?? 20_000);
const DOMAINS = 50;
const TRACKING = process.env.BENCH_TRACKING === '1';
const PROCESSES = Number(process.env.BENCH_PROCESSES ?? 1);
const NAME = `${TRACKING ? 'deliver_tracked' : 'deliver'}${PROCESSES > 1 ? `_p${PROCESSES}` : ''}`;

if (process.argv[2] === '--sink') {
  const sink = await startSinkMx({ store: false });
  process.on('message', (m: string) => {
    if (m === 'close') void sink.close().then(() => process.exit(0));
  });
  process.send?.({ port: sink.port });
} else {
  const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as DialectName[];
  for (const d of dialects) await run(d);
}

function cpuMs(pid: number, thread?: number): number {
  const path = thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`;
  const f = readFileSync(path, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10; // utime + stime, in 10 ms clock ticks
}

function peakRssMb(pid: number): number {
  return Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
}

function body(): string {
  const para = 'Thank you for your order. Your items will ship within two business days. ';
  return JSON.stringify({
    from: 'Acme Store <orders@acme.test>',
    to: 'customer@d0.example',
    subject: 'Your receipt #10042',
    html: `<html><body><h1>Receipt</h1>${`<p>${para.repeat(6)} <a href="https://acme.test/orders/10042?utm_source=mail&amp;step=2">View your order</a></p>`.repeat(7)}</body></html>`,
    text: `Receipt\n\n${`${para.repeat(6)}\n\n`.repeat(3)}`,
  });
}

async function run(dialect: DialectName): Promise<void> {
  const target = await scratchTarget(dialect, 'deliver');
  const { dataDir, url } = target;
  const sinkChild: ChildProcess = fork(fileURLToPath(import.meta.url), ['--sink'], { execArgv: ['--import', 'tsx'] });
  const { port: sinkPort } = await new Promise<{ port: number }>((resolve) =>
    sinkChild.once('message', (m) => resolve(m as { port: number })),
  );
  const zone: Record<string, { MX: { exchange: string; priority: number }[] }> = {};
  for (let i = 0; i < DOMAINS; i++) zone[`d${i}.example`] = { MX: [{ exchange: '127.0.0.1', priority: 10 }] };
  const dns = await startDnsServer(zone);
  const open = openDatabase({ databaseUrl: url, dataDir });
  try {
    await migrate(open.db, open.dialect);
    // The same configuration the server gets, so a domain key is stored as the server will read it.
    const config = loadConfig({ ...target.env, POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: 'localhost' });
    const deps = { db: open.db, clock: systemClock, ids: createIds(), config };
    await createAccount(deps, 'bench');
    await updateAccountLimits(deps, 'bench', { rateLimit: 100_000 });
    const domain = await addDomain(deps, 'bench', 'acme.test');
    await open.db
      .updateTable('domains')
      .set({
        status: 'verified',
        verified_at: Date.now(),
        ...(TRACKING ? { track_opens: 1, track_clicks: 1, unsubscribe: 1 } : {}),
      })
      .where('id', '=', domain.id)
      .execute();
    const { key } = await issueApiKey(deps, domain.id);
    const server = await startServer(
      {
        ...target.env,
        POSTHORN_SANDBOX: '0',
        POSTHORN_HOSTNAME: 'localhost',
        POSTHORN_LISTEN_HOST: '127.0.0.1',
        POSTHORN_DNS_SERVERS: dns.address,
        POSTHORN_MX_PORT: String(sinkPort),
      },
      {
        args: ['--roles', 'api,delivery', ...(PROCESSES > 1 ? ['--processes', String(PROCESSES)] : [])],
        nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
      },
    );
    // With --processes, the children are ready once the parent logs `posthorn running`.
    const logged = (msg: string) =>
      server
        .stderr()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg?: string; pid?: number; child?: string; process?: string })
        .filter((e) => e.msg === msg);
    while (PROCESSES > 1 && !logged('posthorn running').some((e) => e.process === 'main'))
      await new Promise((r) => setTimeout(r, 50));
    const procs = [
      { name: 'main', pid: server.child.pid as number },
      ...logged('delivery process started').map((e) => ({ name: e.child ?? '?', pid: e.pid as number })),
    ];
    const cpuBefore = procs.map((p) => cpuMs(p.pid));
    // Each process's main thread (its thread id is the pid): the event loop that intake, SQLite and
    // the SMTP sessions share, without the signer and checkpoint threads.
    const mainBefore = procs.map((p) => cpuMs(p.pid, p.pid));
    const start = Date.now();
    let i = 0;
    const result = await autocannon({
      url: `${server.url}/v1/send`,
      method: 'POST',
      connections: 32,
      amount: N,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body(),
      requests: [
        {
          setupRequest: (req) => ({
            ...req,
            body: String(req.body ?? body()).replace('@d0.example', `@d${i++ % DOMAINS}.example`),
          }),
        },
      ],
    });
    const accepted = result['2xx'];
    // Wait (polling the database, as an operator would) until every accepted message has its outcome.
    const count = async () =>
      Number(
        (
          await open.db
            .selectFrom('events')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('event', '=', 'delivered')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const deadline = Date.now() + 10 * 60_000;
    while ((await count()) < accepted && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const last = Number(
      (await sql<{ t: number }>`SELECT max(occurred_at) AS t FROM events WHERE event = 'delivered'`.execute(open.db))
        .rows[0]?.t ?? Date.now(),
    );
    const delivered = await count();
    const cpu = procs.reduce((sum, p, k) => sum + cpuMs(p.pid) - cpuBefore[k]!, 0);
    const mainCpu = procs.map((p, k) => cpuMs(p.pid, p.pid) - mainBefore[k]!);
    const rss = procs.reduce((sum, p) => sum + peakRssMb(p.pid), 0);
    if (logged('delivery process exited unexpectedly; restarting it').length > 0)
      console.error('note: a delivery process was restarted during the run: its CPU is missing from the figures');
    await server.stop();
    if (delivered < accepted)
      console.error(`note: ${accepted - delivered} of ${accepted} not delivered within 10 minutes`);
    console.log(`${NAME}_${dialect}: ${Math.round(delivered / ((last - start) / 1000))} msgs/s`);
    console.log(`${NAME}_${dialect}_cpu_per_msg: ${(cpu / delivered).toFixed(3)} ms`);
    procs.forEach((p, k) =>
      console.log(
        `${NAME}_${dialect}_main_thread_cpu_per_msg${procs.length > 1 ? `_${p.name.replace('-', '')}` : ''}: ${(mainCpu[k]! / delivered).toFixed(3)} ms`,
      ),
    );
    console.log(`${NAME}_${dialect}_peak_rss${procs.length > 1 ? '_sum' : ''}: ${rss} MB`);
    console.log(`${NAME}_${dialect}_messages: ${delivered} msgs`);
  } finally {
    await open.close();
    await dns.close();
    sinkChild.send('close');
    await target.cleanup();
  }
}
