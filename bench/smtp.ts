// npm run bench:smtp — messages accepted per second by the SMTP relay (role `smtp`) of a real
// `posthorn serve --roles api,smtp` (no delivery role: the figure is acceptance, i.e. message,
// recipients, events and delivery job committed before the 250), on SQLite and on PostgreSQL.
// 20 sessions run in parallel, each one persistent nodemailer connection (STARTTLS + AUTH PLAIN
// once, then MAIL/RCPT/DATA back to back) sending ~5 KB messages with one recipient. The load
// generator runs in this process, the server in a child; both share the machine's two cores.
// Prints one figure per line: `name: value unit`. Compare with bench/postfix-smtpd.sh.
//
// Latency, per message, measured in this process:
//   smtp_<dialect>_p50/_p99           the whole transaction: handing the message to the transport
//                                     until its 250 (MAIL, RCPT, DATA, message bytes, end of DATA).
//   smtp_<dialect>_eod_to_250_p50/_p99  from the end-of-DATA `.` written to the socket (nodemailer
//                                     logs its data stream's end, after the last chunk has been
//                                     written to the TLS socket) until the 250 reaches sendMail's
//                                     callback. Client-side, so it includes this event loop's delay.
//
// TCP_NODELAY: nodemailer 7 leaves Nagle's algorithm on, so the short final `\r\n.\r\n` write
// waits for the ACK of the message bytes, which the server's kernel delays (~40 ms on Linux):
// every transaction then costs ~50 ms whatever the relay does. Real submitters set it or not; the
// relay (smtp-server) sets it on its side, as do nodemailer 10 and Posthorn's delivery transport.
// The sessions here connect their own sockets with noDelay (nodemailer's getSocket), so the
// figure measures the relay; BENCH_NODELAY=0 gives stock nodemailer 7 sockets instead.
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import nodemailer from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import { systemClock } from '../src/core/clock.js';
import { createIds } from '../src/core/ids.js';
import { createSmtpCredential } from '../src/credentials/smtp-credentials.js';
import { migrate } from '../src/storage/migrate.js';
import { openDatabase, type DialectName } from '../src/storage/open-database.js';
import { seedDomain } from '../test/helpers/seed.js';
import { startServer, type RunningServer } from '../test/helpers/spawn-server.js';
import { scratchTarget } from './scratch-target.js';
import { serveFromDist } from './from-dist.js';

serveFromDist();

const DURATION_S = Number(process.env.BENCH_DURATION ?? 15);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 20);
const WARMUP_MS = 3000;
const NO_DELAY = process.env.BENCH_NODELAY !== '0';

/** A ~5 KB receipt as a submitter would hand it over: headers, then a text body (no Message-ID: the relay adds one). */
function message(): Buffer {
  const head =
    'From: Acme Store <orders@acme.test>\r\nTo: customer@example.org\r\nSubject: Your receipt #10042\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n';
  const line = 'Thank you for your order. Your items will ship within two business days.\r\n';
  return Buffer.from(head + line.repeat(Math.ceil((5 * 1024 - head.length) / line.length)));
}

/** One session's tallies; `measuring` decides whether a 250 counts toward the figure. */
interface Tally {
  accepted: number;
  acceptedAll: number;
  refused: number;
  failed: number;
  total: number[];
  eodTo250: number[];
}

const ms = (from: bigint, to: bigint): number => Number(to - from) / 1e6;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The submission port from the `smtp relay listening` JSON log line (it may follow `api listening`). */
async function smtpPort(server: RunningServer): Promise<number> {
  for (let i = 0; i < 200; i++) {
    for (const line of server.stderr().split('\n')) {
      try {
        const entry = JSON.parse(line) as { msg?: unknown; submission?: unknown };
        if (entry.msg === 'smtp relay listening' && typeof entry.submission === 'number') return entry.submission;
      } catch {
        /* not a log line */
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no "smtp relay listening" line; stderr:\n${server.stderr()}`);
}

/** utime + stime of a process, from /proc (in 10 ms clock ticks). */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

function peakRssMb(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    return Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

async function run(dialect: DialectName): Promise<void> {
  const target = await scratchTarget(dialect, 'smtp');
  try {
    const open = openDatabase({ databaseUrl: target.url, dataDir: target.dataDir });
    await migrate(open.db, open.dialect);
    const deps = { db: open.db, clock: systemClock, ids: createIds() };
    // The per-account rate limit (5 sends per second by default) is raised so the figure measures
    // the relay, not the limiter.
    await seedDomain(deps, { domain: 'acme.test', rateLimit: 1_000_000_000 });
    const { username, password } = await createSmtpCredential(deps, 'acme.test');
    const server = await startServer(
      {
        ...target.env,
        POSTHORN_SANDBOX: '0',
        POSTHORN_HOSTNAME: 'localhost',
        POSTHORN_LISTEN_HOST: '127.0.0.1',
        POSTHORN_SMTP_PORT: '0',
        POSTHORN_SMTPS_PORT: '0',
        POSTHORN_HTTP_PORT: '0',
      },
      {
        args: ['--roles', 'api,smtp'],
        nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
      },
    );
    const port = await smtpPort(server);
    const raw = message();
    const count = async (): Promise<number> =>
      Number(
        (
          await open.db
            .selectFrom('messages')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    let measuring = false;
    let stop = false;
    const tally: Tally = { accepted: 0, acceptedAll: 0, refused: 0, failed: 0, total: [], eodTo250: [] };
    const errors = new Map<string, number>();

    const session = async (i: number): Promise<void> => {
      // Nodemailer logs `<N bytes encoded mime message>` when the data stream, final `.` included,
      // has been written to the socket: the client-side end of DATA. One message in flight per
      // session, so the last such mark belongs to the message being sent.
      let eod: bigint | null = null;
      const noop = (): void => undefined;
      const logger = {
        trace: noop,
        debug: noop,
        warn: noop,
        error: noop,
        fatal: noop,
        level: noop,
        info: (entry: { tnx?: string; outByteCount?: number }) => {
          if (entry.tnx === 'message' && entry.outByteCount !== undefined) eod = process.hrtime.bigint();
        },
      };
      const options: SMTPPool.Options = {
        pool: true,
        maxConnections: 1,
        maxMessages: Infinity,
        host: '127.0.0.1',
        port,
        secure: false,
        requireTLS: true,
        auth: { user: username, pass: password },
        tls: { rejectUnauthorized: false },
        logger,
      };
      if (NO_DELAY) {
        options.getSocket = (_opts, callback) => {
          const socket = connect({ host: '127.0.0.1', port, noDelay: true });
          socket.once('connect', () => callback(null, { connection: socket }));
          socket.once('error', (err) => callback(err, null));
        };
      }
      const transport = nodemailer.createTransport(options);
      try {
        for (let n = 0; !stop; n++) {
          eod = null;
          const started = process.hrtime.bigint();
          try {
            await transport.sendMail({
              envelope: { from: 'orders@acme.test', to: [`customer-${i}-${n}@example.org`] },
              raw,
            });
            const done = process.hrtime.bigint();
            tally.acceptedAll++;
            if (!measuring) continue;
            tally.accepted++;
            tally.total.push(ms(started, done));
            if (eod !== null) tally.eodTo250.push(ms(eod, done));
          } catch (err) {
            const code = (err as { responseCode?: number }).responseCode;
            const key = code !== undefined ? `${code}` : (err as Error).message;
            errors.set(key, (errors.get(key) ?? 0) + 1);
            if (code !== undefined) tally.refused++;
            else tally.failed++;
            if (code === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      } finally {
        transport.close();
      }
    };

    const sessions = Array.from({ length: SESSIONS }, (_, i) => session(i));
    await new Promise((resolve) => setTimeout(resolve, WARMUP_MS)); // warm-up: TLS, AUTH (scrypt), JIT, page cache
    const before = await count();
    measuring = true;
    const started = process.hrtime.bigint();
    const serverCpuBefore = cpuMs(server.child.pid);
    const clientCpuBefore = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, DURATION_S * 1000));
    measuring = false;
    const elapsed = ms(started, process.hrtime.bigint()) / 1000;
    const serverCpu = (cpuMs(server.child.pid) - serverCpuBefore) / (elapsed * 1000);
    const clientUsage = process.cpuUsage(clientCpuBefore);
    const clientCpu = (clientUsage.user + clientUsage.system) / 1000 / (elapsed * 1000);
    const after = await count();
    stop = true;
    await Promise.all(sessions);
    const final = await count();
    const rss = peakRssMb(server.child.pid);
    await server.stop();
    await open.close();

    // Every 250 must be a stored message, exactly, over the whole run; within the window, a
    // message in flight at either edge (one per session) may be committed on one side of it and
    // answered on the other.
    if (final !== tally.acceptedAll)
      throw new Error(`250 replies (${tally.acceptedAll}) do not match messages stored (${final})`);
    const stored = after - before;
    if (Math.abs(stored - tally.accepted) > 2 * SESSIONS)
      throw new Error(`250 replies in the window (${tally.accepted}) do not match messages stored in it (${stored})`);
    if (tally.refused > 0 || tally.failed > 0)
      console.error(
        `note: ${tally.refused} refused, ${tally.failed} failed: ${JSON.stringify(Object.fromEntries(errors))}`,
      );
    const total = tally.total.sort((a, b) => a - b);
    const eod = tally.eodTo250.sort((a, b) => a - b);
    console.error(
      `(${dialect}: ${tally.accepted} accepted in ${elapsed.toFixed(2)} s, ${stored} stored in the window, ${final} in all; ${raw.length}-byte messages; ${SESSIONS} sessions; ${eod.length} end-of-DATA marks; ` +
        `CPU while measuring: server ${(serverCpu * 100).toFixed(0)}%, load generator ${(clientCpu * 100).toFixed(0)}% of a core)`,
    );
    console.log(`smtp_${dialect}: ${Math.round(tally.accepted / elapsed)} msgs/s`);
    console.log(`smtp_${dialect}_p50: ${percentile(total, 50).toFixed(1)} ms`);
    console.log(`smtp_${dialect}_p99: ${percentile(total, 99).toFixed(1)} ms`);
    console.log(`smtp_${dialect}_eod_to_250_p50: ${percentile(eod, 50).toFixed(1)} ms`);
    console.log(`smtp_${dialect}_eod_to_250_p99: ${percentile(eod, 99).toFixed(1)} ms`);
    console.log(`smtp_${dialect}_server_peak_rss: ${rss} MB`);
  } finally {
    await target.cleanup();
  }
}

const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as DialectName[];
for (const d of dialects) await run(d);
