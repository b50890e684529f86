// npm run bench:abuse — a real `posthorn serve` (sandbox mode, SQLite in a temporary data dir,
// every role) under the attacks of docs/security.md while a well-behaved client sends:
//   - 60 slow uploaders: 9 MB of body, then 1 byte every 10 s (half send no Authorization);
//   - 20 concurrent authenticated 9 MiB sends, each repeated as soon as it is answered;
//   - 500 idle SMTP connections to the relay from 127.0.0.2;
//   - GET /healthz every 100 ms.
// The good client and the attacker are different accounts (each with its rate limit raised, so
// the figures measure the server, not the limiter). Prints `name: value unit` lines and exits 0.
// BENCH_DURATION (s, default 60) sets how long the attacks run; BENCH_SLOW, BENCH_BIG,
// BENCH_IDLE_SMTP and BENCH_GOOD_RATE (sends/s) change their sizes; 0 turns an attack off.
// BENCH_ROLES (e.g. `api,smtp`) runs only those roles; POSTHORN_* variables pass to the server; BENCH_PROFILE=<dir> writes CPU profiles there;
// BENCH_NODE_ARGS adds Node options to the server (e.g. `--trace-gc`) and BENCH_SERVER_OUT=<file>
// keeps what it printed on stdout.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import https from 'node:https';
import net from 'node:net';
import { systemClock } from '../src/core/clock.js';
import { createIds } from '../src/core/ids.js';
import { loadConfig } from '../src/config/load.js';
import { createAccount } from '../src/accounts/accounts.js';
import { addDomain } from '../src/domains/add-domain.js';
import { issueApiKey } from '../src/credentials/issue-api-key.js';
import { openDatabase } from '../src/storage/open-database.js';
import { startServer } from '../test/helpers/spawn-server.js';
import { scratchTarget } from './scratch-target.js';
import { serveFromDist } from './from-dist.js';

serveFromDist();

const env = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const DURATION_MS = env('BENCH_DURATION', 60) * 1000;
const SLOW = env('BENCH_SLOW', 60);
const BIG = env('BENCH_BIG', 20);
const IDLE_SMTP = env('BENCH_IDLE_SMTP', 500);
const GOOD_RATE = env('BENCH_GOOD_RATE', 10);
const BIG_BYTES = 9 * 1024 * 1024;
const SLOW_BYTES = 9_000_000;
const GOOD_TIMEOUT_MS = 30_000;
const HEALTH_TIMEOUT_MS = 10_000;

interface Reply {
  status: number;
  ms: number;
}

const agent = new https.Agent({ keepAlive: true, maxSockets: 64, rejectUnauthorized: false });

/** One HTTPS request; status 0 for a network error or timeout. */
function request(
  url: string,
  opts: { method: string; headers?: Record<string, string>; body?: Buffer; timeoutMs: number; agent?: https.Agent },
): Promise<Reply> {
  const start = performance.now();
  return new Promise((resolve) => {
    let done = false;
    const finish = (status: number) => {
      if (!done) {
        done = true;
        resolve({ status, ms: performance.now() - start });
      }
    };
    const req = https.request(
      url,
      {
        method: opts.method,
        headers: opts.headers,
        agent: opts.agent ?? agent,
        rejectUnauthorized: false,
        timeout: opts.timeoutMs,
      },
      (res) => {
        res.resume();
        res.on('end', () => finish(res.statusCode ?? 0));
        res.on('error', () => finish(0));
      },
    );
    req.on('timeout', () => {
      req.destroy();
      finish(0);
    });
    req.on('error', () => finish(0));
    req.end(opts.body);
  });
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);
}

function procStatusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const kb = Number(
      new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0,
    );
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system, every thread) the process has used so far. */
function procCpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat(5), 12 and 13 after the command name.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

const until = async <T>(what: string, timeoutMs: number, probe: () => T | undefined): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

interface ProbeResult {
  good: number[];
  goodStatus: [number, number][];
  health: number[];
  healthErrors: number;
}

/** The probe process: GOOD_RATE small sends a second (each on its own schedule) and /healthz every 100 ms. */
async function probeMain(cfg: { base: string; key: string; body: string; durationMs: number }): Promise<void> {
  const stopAt = Date.now() + cfg.durationMs;
  const health: number[] = [];
  let healthErrors = 0;
  const good: number[] = [];
  const goodStatus = new Map<number, number>();
  const pending: Promise<void>[] = [];
  const healthAgent = new https.Agent({ keepAlive: true, maxSockets: 16, rejectUnauthorized: false });
  const goodAgent = new https.Agent({ keepAlive: true, maxSockets: 32, rejectUnauthorized: false });
  const body = Buffer.from(cfg.body);
  const timers = [
    setInterval(() => {
      pending.push(
        request(`${cfg.base}/healthz`, { method: 'GET', timeoutMs: HEALTH_TIMEOUT_MS, agent: healthAgent }).then(
          (r) => {
            // A timeout counts as its full wait.
            health.push(r.status === 0 ? HEALTH_TIMEOUT_MS : r.ms);
            if (r.status !== 200) healthErrors++;
          },
        ),
      );
    }, 100),
  ];
  if (GOOD_RATE > 0) {
    timers.push(
      setInterval(() => {
        pending.push(
          request(`${cfg.base}/v1/send`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${cfg.key}` },
            body,
            timeoutMs: GOOD_TIMEOUT_MS,
            agent: goodAgent,
          }).then((r) => {
            good.push(r.ms);
            goodStatus.set(r.status, (goodStatus.get(r.status) ?? 0) + 1);
          }),
        );
      }, 1000 / GOOD_RATE),
    );
  }
  await new Promise((r) => setTimeout(r, Math.max(0, stopAt - Date.now())));
  for (const t of timers) clearInterval(t);
  await Promise.all(pending);
  healthAgent.destroy();
  goodAgent.destroy();
  process.stdout.write(
    JSON.stringify({ good, goodStatus: [...goodStatus], health, healthErrors } satisfies ProbeResult),
  );
}

async function main(): Promise<void> {
  const target = await scratchTarget('sqlite', 'abuse');
  // POSTHORN_* variables set for the bench reach the server (e.g. POSTHORN_OFFLOAD_THREADS).
  const passed = Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[0].startsWith('POSTHORN_') && e[1] !== undefined,
    ),
  );
  const server = await startServer(
    { ...passed, ...target.env, POSTHORN_SANDBOX: '1' },
    {
      timeoutMs: 60_000,
      args: process.env.BENCH_ROLES ? ['--roles', process.env.BENCH_ROLES] : [],
      nodeArgs: [
        ...(process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []),
        ...(process.env.BENCH_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []),
      ],
    },
  );
  const timers: NodeJS.Timeout[] = [];
  const sockets: net.Socket[] = [];
  try {
    const pid = server.child.pid!;
    const goodKey = await until(
      'API key in the welcome',
      10_000,
      () => /API key:\s+(ph_\S+)/.exec(server.stdout())?.[1],
    );
    const smtpPort = await until('relay port in the welcome', 10_000, () => {
      const m = /SMTP relay:\s+\S+ port (\d+)/.exec(server.stdout());
      return m ? Number(m[1]) : undefined;
    });
    const goodFrom = 'hello@sandbox.posthorn.test';

    // The attacker: its own account and sandbox domain (tracking on, the costlier rendering), both limits raised.
    const open = openDatabase({ databaseUrl: null, dataDir: target.dataDir });
    // The server's own configuration, so a key is stored as the server reads it (sealed when POSTHORN_SECRETS_KEY is passed).
    const config = loadConfig({ ...passed, ...target.env, POSTHORN_SANDBOX: '1' });
    const deps = { db: open.db, clock: systemClock, ids: createIds(), config };
    await createAccount(deps, 'attacker');
    const domain = await addDomain(deps, 'attacker', 'attacker.posthorn.test', { sandbox: true });
    await open.db
      .updateTable('domains')
      .set({ track_opens: 1, track_clicks: 1, unsubscribe: 1 })
      .where('id', '=', domain.id)
      .execute();
    await open.db.updateTable('accounts').set({ rate_limit: 1_000_000 }).execute();
    const { key: badKey } = await issueApiKey(deps, domain.id);
    await open.close();

    const base = server.url;
    const json = (key: string | null) => ({
      'content-type': 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    });
    const para =
      '<p>Dear customer, here is <a href="https://shop.example.org/item?id=42">your item</a> and some more words to read.</p>\n';
    const bigBody = Buffer.from(
      JSON.stringify({
        from: 'big@attacker.posthorn.test',
        to: 'someone@example.org',
        subject: 'Large',
        html: `<html><body>${para.repeat(Math.ceil(BIG_BYTES / para.length))}</body></html>`.slice(0, BIG_BYTES - 200),
      }),
    );
    const goodBody = Buffer.from(
      JSON.stringify({
        from: goodFrom,
        to: 'customer@example.org',
        subject: 'Your receipt #10042',
        html: `<html><body><h1>Receipt</h1>${'<p>Thank you for your order. Your items ship within two business days.</p>'.repeat(30)}</body></html>`,
      }),
    );

    const cpuAtStart = procCpuSeconds(pid);
    const stopAt = Date.now() + DURATION_MS;
    const running = () => Date.now() < stopAt;
    let peakRss = 0;
    timers.push(
      setInterval(() => {
        peakRss = Math.max(peakRss, procStatusMb(pid, 'VmRSS'));
      }, 250),
    );

    // 500 idle SMTP sessions from another loopback address, reopened when the server closes them.
    let smtpOpened = 0;
    let smtpRefused = 0;
    const idle = () => {
      if (!running()) return;
      const s = net.connect({ host: '127.0.0.1', port: smtpPort, localAddress: '127.0.0.2' });
      sockets.push(s);
      smtpOpened++;
      s.once('data', (d) => {
        if (d.toString('latin1').startsWith('421')) smtpRefused++;
      });
      s.on('error', () => undefined);
      s.on('close', () => setTimeout(idle, 1000).unref());
    };
    for (let i = 0; i < IDLE_SMTP; i++) idle();

    // 60 slow uploaders: 9 MB at once, then a byte every 10 s, never finishing their body.
    let slowClosed = 0;
    const slowAgent = new https.Agent({ keepAlive: false, maxSockets: Infinity, rejectUnauthorized: false });
    const slow = (i: number) => {
      if (!running()) return;
      const req = https.request(
        `${base}/v1/send`,
        {
          method: 'POST',
          agent: slowAgent,
          rejectUnauthorized: false,
          headers: { ...json(i % 2 === 0 ? badKey : null), 'content-length': String(SLOW_BYTES + 1000) },
        },
        (res) => {
          res.resume();
        },
      );
      let ended = false;
      const onEnd = () => {
        if (ended) return;
        ended = true;
        slowClosed++;
        clearInterval(t);
        setTimeout(() => slow(i), 1000).unref();
      };
      req.on('error', onEnd);
      req.on('close', onEnd);
      req.write(Buffer.alloc(SLOW_BYTES, 0x20));
      const t = setInterval(() => {
        if (!req.destroyed) req.write(' ');
      }, 10_000);
      timers.push(t);
    };
    for (let i = 0; i < SLOW; i++) slow(i);

    // 20 concurrent 9 MiB sends, each repeated as soon as it is answered.
    const bigStatus = new Map<number, number>();
    const bigMs: number[] = [];
    const big = async () => {
      while (running()) {
        const r = await request(`${base}/v1/send`, {
          method: 'POST',
          headers: json(badKey),
          body: bigBody,
          timeoutMs: 120_000,
        });
        bigStatus.set(r.status, (bigStatus.get(r.status) ?? 0) + 1);
        bigMs.push(r.ms);
        if (r.status !== 202) await new Promise((res) => setTimeout(res, 500));
      }
    };
    const bigLoops = Array.from({ length: BIG }, () => big());

    // /healthz every 100 ms; a timeout counts as its full wait.
    // The good client and the /healthz poller run in their own process, so the attack traffic this
    // process generates (TLS for 180 MB at a time) does not delay their clocks.
    const probe = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
      env: {
        ...process.env,
        ABUSE_PROBE: JSON.stringify({ base, key: goodKey, body: goodBody.toString('utf8'), durationMs: DURATION_MS }),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let probeOut = '';
    probe.stdout.setEncoding('utf8').on('data', (d: string) => {
      probeOut += d;
    });
    const probeDone = new Promise<ProbeResult>((resolve, reject) =>
      probe.once('close', () => {
        try {
          resolve(JSON.parse(probeOut) as ProbeResult);
        } catch {
          reject(new Error(`probe printed no result: ${probeOut}`));
        }
      }),
    );

    await new Promise((r) => setTimeout(r, DURATION_MS));
    for (const t of timers) clearInterval(t);
    const { good, goodStatus, health, healthErrors } = await probeDone;
    const hwm = procStatusMb(pid, 'VmHWM');
    const cpu = procCpuSeconds(pid) - cpuAtStart;
    for (const s of sockets) s.destroy();
    slowAgent.destroy();
    // The big senders finish the request they are in; that is not waited for past a bound.
    await Promise.race([Promise.all(bigLoops), new Promise((r) => setTimeout(r, 15_000))]);

    const goodErrors = goodStatus.filter(([s]) => s !== 202).reduce((n, [, c]) => n + c, 0);
    console.log(`good_sent: ${good.length} count`);
    console.log(`good_errors: ${goodErrors} count`);
    console.log(`good_p50: ${percentile(good, 50)} ms`);
    console.log(`good_p99: ${percentile(good, 99)} ms`);
    console.log(`healthz_p99: ${percentile(health, 99)} ms`);
    console.log(`healthz_max: ${percentile(health, 100)} ms`);
    console.log(`healthz_errors: ${healthErrors} count`);
    console.log(`peak_rss: ${Math.max(hwm, peakRss)} MB`);
    console.log(`big_sends_accepted: ${bigStatus.get(202) ?? 0} count`);
    console.log(`big_sends_refused: ${[...bigStatus].filter(([s]) => s !== 202).reduce((n, [, c]) => n + c, 0)} count`);
    console.log(`big_send_p50: ${percentile(bigMs, 50)} ms`);
    // The server's CPU over the attack (all its threads), and per large message it accepted: on a
    // shared machine the figure to compare, as the wall-clock ones depend on who else runs.
    console.log(`server_cpu: ${cpu.toFixed(1)} s`);
    console.log(`server_cpu_per_big_accepted: ${((cpu * 1000) / Math.max(1, bigStatus.get(202) ?? 0)).toFixed(0)} ms`);
    console.log(`slow_uploads_closed: ${slowClosed} count`);
    console.log(`idle_smtp_opened: ${smtpOpened} count`);
    console.log(`idle_smtp_refused_421: ${smtpRefused} count`);
    if (process.env.BENCH_VERBOSE) {
      console.error(`good statuses ${JSON.stringify(goodStatus)}; big statuses ${JSON.stringify([...bigStatus])}`);
      console.error(
        server
          .stderr()
          .split('\n')
          .filter((l) => /"level":(40|50)/.test(l))
          .slice(0, 5)
          .join('\n'),
      );
    }
  } finally {
    for (const t of timers) clearInterval(t);
    for (const s of sockets) s.destroy();
    agent.destroy();
    await server.stop();
    if (process.env.BENCH_SERVER_OUT) writeFileSync(process.env.BENCH_SERVER_OUT, server.stdout());
    await target.cleanup();
  }
}

const probeConfig = process.env.ABUSE_PROBE;
if (probeConfig !== undefined) {
  await probeMain(JSON.parse(probeConfig) as { base: string; key: string; body: string; durationMs: number });
} else {
  await main().catch((err: unknown) => {
    console.error(err);
  });
  process.exit(0);
}
