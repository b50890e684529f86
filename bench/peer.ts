// npm run bench:peer — Posthorn beside a peer: the same workload through Postfix with OpenDKIM as
// its signing milter, through Postfix alone (no milter: what signing costs it), through Posthorn's
// HTTPS API and through Posthorn's SMTP relay, in one run.
// Workload: BENCH_MESSAGES (default 5000) messages of ~5 KB HTML from orders@acme.test, one
// recipient each, spread over 50 recipient domains, DKIM-signed with RSA-2048 and delivered over
// SMTP with STARTTLS to one counting sink MX on loopback (test/helpers/sink-mx.ts, in its own
// process so it costs the servers nothing). Submission is SMTP with STARTTLS to both Postfix and
// the relay, BENCH_SESSIONS (20) pooled sessions.
//
// Prints one figure per line, `name: value unit`: each path's rate (messages delivered at the sink
// per second, from the first submission to the last arrival), each server's CPU per message,
// OpenDKIM's part of Postfix's, the cores each server kept busy (its CPU over the run's wall time),
// the share of arrivals under STARTTLS and the SMTP sessions the server used at the sink, the DKIM
// pass rate of a sample, and Posthorn's ratios to Postfix + OpenDKIM. The rates depend on what else
// runs on the machine, the CPU per message far less: on a busy machine the scheduler shares the
// cores per thread, so Postfix's dozens of processes get more of them than Posthorn's few threads,
// and the cores figure shows it.
//
// CPU is counted from /proc (utime + stime): for Postfix, its master with the child times of every
// child it has reaped plus every live child (smtpd, cleanup, qmgr, smtp, tlsproxy, postlogd… all
// are the master's children and none forks further), and OpenDKIM with all its threads; for
// Posthorn, its one process with its threads, and with BENCH_DIALECT=postgres its PostgreSQL
// backends (sampled). Read before and after the measured run, after a warm-up. For Postfix this
// was checked once against a cpuacct cgroup holding Postfix and OpenDKIM: the two sums agreed
// within 1% (17.3 s and 17.4 s over 3000 messages). The sink's own cores are printed too: it is
// one Node process, and a rate it capped would say nothing about the servers.
//
// The sink checks every path the same way, and the bench exits 1 (after printing) on any miss:
// exactly N arrivals, each of the N recipients once and no other, all under STARTTLS, DKIM passing
// on SAMPLE messages spread over the run (not on Postfix alone, which does not sign), and for
// Postfix an empty queue afterwards. A path whose arrivals stop for a minute is given up.
//
// Set-up: Postfix and OpenDKIM come from Debian's packages (`apt-get install postfix opendkim
// opendkim-tools`, installed here when missing; that needs root, and the bench says so and stops
// when it is not). Postfix runs as a private instance (`postfix -c <dir>`: its own main.cf,
// master.cf, queue and data directories under a temporary directory), listening on a loopback port
// chosen at run time, relaying everything to the sink (`relayhost`), so nothing leaves the machine;
// the package's default instance is never configured or started. OpenDKIM runs in the foreground
// as an inet milter on loopback. Both are stopped and their directory removed at the end
// (BENCH_KEEP=1 keeps it, with Postfix's log in `maillog`). Posthorn runs from dist/ as shipped.
//
// Postfix is configured as for a high-volume outbound relay; each setting is explained in
// startPostfix. What mattered: STARTTLS connections to the sink are kept and reused
// (`smtp_tls_connection_reuse`, through tlsproxy, and `smtp_connection_cache_destinations` so that
// they are kept also when the queue runs empty). Without them Postfix 3.7 opened a new connection
// and did a full TLS handshake for every message, and its ten connections carried about 60 msgs/s:
// the log showed mail waiting 14 s on average in the active queue, 0.16 s of connection set-up per
// message against 0.01 s of transmission, and no `conn_use=`. Now it uses ten sessions for the
// whole run and mail leaves its queue within a fraction of a second. BENCH_MESSAGES=3000 on 2
// cores shared with other work (load average 10 to 20, so every rate is low), the earlier
// configuration and this one run alternately: Postfix + OpenDKIM went from 55 to 65 msgs/s at 7.2
// to 8.3 ms CPU per message (4 runs) to 88 to 148 msgs/s at 5.7 to 6.9 ms (6 runs; OpenDKIM 2.0 to
// 2.3 ms of it); Postfix alone made 138 to 208 msgs/s at 3.1 to 3.5 ms.
//
// Not the same work in every detail, and said so: Postfix takes mail from loopback clients without
// AUTH (mynetworks; AUTH would need a SASL server), the relay negotiates AUTH PLAIN once per
// session; Posthorn's API builds the MIME itself (a text part generated from the HTML); Posthorn
// writes events and a signature record per message that Postfix has no counterpart for, Postfix
// writes its mail log. Both keep at most ten connections to the sink's one host (Posthorn's default
// POSTHORN_MX_MAX_CONNECTIONS) and up to 1000 messages on each.
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import https from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { generate } from 'selfsigned';
import { loadConfig } from '../src/config/load.js';
import { systemClock } from '../src/core/clock.js';
import { createIds } from '../src/core/ids.js';
import { createAccount, updateAccountLimits } from '../src/accounts/accounts.js';
import { addDomain } from '../src/domains/add-domain.js';
import { issueApiKey } from '../src/credentials/issue-api-key.js';
import { createSmtpCredential } from '../src/credentials/smtp-credentials.js';
import { migrate } from '../src/storage/migrate.js';
import { openDatabase, type DialectName } from '../src/storage/open-database.js';
import { startDnsServer } from '../test/helpers/dns-server.js';
import { postSendHttps } from '../test/helpers/https-send.js';
import { startSinkMx } from '../test/helpers/sink-mx.js';
import { startServer, type RunningServer } from '../test/helpers/spawn-server.js';
import { serveFromDist } from './from-dist.js';
import { scratchTarget } from './scratch-target.js';

const N = Number(process.env.BENCH_MESSAGES ?? 5000);
const WARMUP = Math.min(200, Math.max(20, Math.floor(N / 20)));
const DOMAINS = 50;
/** SMTP sessions of the SMTP paths, HTTPS connections of the API path. */
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** Messages of each run whose DKIM signature is verified. */
const SAMPLE = 25;
const DIALECT = (process.env.BENCH_DIALECT ?? 'sqlite') as DialectName;
const SENDER_DOMAIN = 'acme.test';
const PEER_SELECTOR = 'peer';

type SinkRequest = { mark: true } | { wait: number; stallMs: number } | { report: number } | 'close';
type SinkReply = { port: number } | { marked: number } | { at: number; count: number } | SinkReport;
/** What the sink saw since the mark: every message's envelope, TLS and session, and a sample of raw messages. */
interface SinkReport {
  count: number;
  tls: number;
  sessions: number;
  mailFrom: string[];
  rcpts: string[];
  raws: string[];
}

/**
 * The sink child: counts from a mark; tells when a count is reached (with the arrival time of the
 * last one) or when arrivals stalled; reports everything that came after the mark.
 */
async function runSink(): Promise<void> {
  const sink = await startSinkMx({ store: true });
  let base = 0;
  process.on('message', (m: SinkRequest) => {
    if (m === 'close') void sink.close().then(() => process.exit(0));
    else if ('mark' in m) {
      base = sink.received;
      process.send?.({ marked: base } satisfies SinkReply);
    } else if ('wait' in m) {
      const want = base + m.wait;
      let seen = sink.received;
      let progress = Date.now();
      const timer = setInterval(() => {
        if (sink.received !== seen) [seen, progress] = [sink.received, Date.now()];
        const done = sink.received >= want;
        if (!done && Date.now() - progress < m.stallMs) return;
        clearInterval(timer);
        const last = sink.messages[Math.min(want, sink.received) - 1];
        process.send?.({
          at: last ? last.receivedAt.getTime() : Date.now(),
          count: sink.received - base,
        } satisfies SinkReply);
      }, 100);
    } else {
      const msgs = sink.messages.slice(base);
      // The sample is spread over the whole run, not its first messages only.
      const step = Math.max(1, Math.floor(msgs.length / m.report));
      const sample = msgs.filter((_, i) => i % step === 0).slice(0, m.report);
      process.send?.({
        count: msgs.length,
        tls: msgs.filter((x) => x.tls).length,
        sessions: new Set(msgs.map((x) => x.connectionId)).size,
        mailFrom: msgs.map((x) => x.mailFrom),
        rcpts: msgs.flatMap((x) => x.rcptTo),
        raws: sample.map((x) => x.raw.toString('base64')),
      } satisfies SinkReply);
    }
  });
  process.send?.({ port: sink.port } satisfies SinkReply);
}

function ask(child: ChildProcess, request: SinkRequest): Promise<SinkReply> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as SinkReply));
    child.send(request);
  });
}

/** The HTML body, ~5 KB: a receipt. */
function html(): string {
  const para = 'Thank you for your order. Your items will ship within two business days. ';
  // One paragraph a line: SMTP lines stay under 998 octets (RFC 5321 §4.5.3.1.6).
  return `<html><body><h1>Receipt</h1>\n${`<p>${para.repeat(6)} <a href="https://acme.test/orders/10042">View your order</a></p>\n`.repeat(7)}</body></html>`;
}

const recipient = (i: number): string => `r${i}@d${i % DOMAINS}.example`;

/** The message as an SMTP client hands it over (the relay adds Message-ID and Date; Postfix's cleanup too). */
function rawMessage(i: number): string {
  return [
    'From: Acme Store <orders@acme.test>',
    `To: ${recipient(i)}`,
    'Subject: Your receipt #10042',
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    '',
    html().replace(/\n/g, '\r\n'),
  ].join('\r\n');
}

function which(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** Installs postfix, opendkim and opendkim-tools from Debian's packages when missing (root only). */
function ensurePackages(): void {
  const missing = ['postfix', 'opendkim', 'opendkim-genkey'].filter((c) => !which(c));
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    console.error(
      `bench:peer: ${missing.join(', ')} not installed, and installing needs root (this user is not): ` +
        'run it as root, or install them first: sudo apt-get install -y postfix opendkim opendkim-tools',
    );
    process.exit(1);
  }
  console.error('bench:peer: installing postfix, opendkim and opendkim-tools from the Debian packages (apt-get)');
  // No default instance: the package leaves Postfix unconfigured, and its postinst starts nothing.
  spawnSync('debconf-set-selections', { input: 'postfix postfix/main_mailer_type select No configuration\n' });
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !existsSync(policy);
  if (ownPolicy) {
    writeFileSync(policy, '#!/bin/sh\nexit 101\n');
    chmodSync(policy, 0o755);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '-q', 'postfix', 'opendkim', 'opendkim-tools'], { env, stdio: 'inherit' });
  let r = install();
  if (r.status !== 0) {
    spawnSync('apt-get', ['update', '-q'], { env, stdio: 'inherit' });
    r = install();
  }
  if (ownPolicy) rmSync(policy, { force: true });
  if (r.status !== 0) {
    console.error('bench:peer: apt-get install failed');
    process.exit(1);
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** utime + stime (+ children's, when `children`) of one process, in ms; 0 when it is gone. */
function procCpuMs(pid: number, children = false): number {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const ticks = Number(f[11]) + Number(f[12]) + (children ? Number(f[13]) + Number(f[14]) : 0);
    return ticks * 10; // USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}

/** Pids whose parent is `ppid`. */
function childrenOf(ppid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const f = readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(f[1]) === ppid) out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}

/**
 * CPU of a process tree: the root with what its reaped children used (cutime, cstime), plus the
 * live children. Postfix's master forks smtpd, cleanup, qmgr, smtp… and reaps them, so the sum
 * over the tree before and after a run is what the run cost.
 */
function treeCpuMs(root: number): number {
  return procCpuMs(root, true) + childrenOf(root).reduce((a, pid) => a + procCpuMs(pid, true), 0);
}

/** CPU of the PostgreSQL backends serving `database`, sampled until stopped (a backend that exits between samples loses at most one interval). */
function watchBackends(url: string, database: string): { stop(): Promise<number> } {
  const client = new pg.Client({ connectionString: url });
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  let running = true;
  const sample = async () => {
    const { rows } = await client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    );
    for (const { pid } of rows) {
      const cpu = procCpuMs(pid);
      if (!first.has(pid)) first.set(pid, cpu);
      last.set(pid, cpu);
    }
  };
  const loop = (async () => {
    await client.connect();
    while (running) {
      await sample();
      await new Promise((r) => setTimeout(r, 250));
    }
    await sample();
    await client.end();
  })();
  return {
    async stop() {
      running = false;
      await loop;
      let sum = 0;
      for (const [pid, cpu] of last) sum += cpu - (first.get(pid) ?? cpu);
      return sum;
    },
  };
}

interface PathResult {
  rate: number;
  cpuPerMsg: number;
  dkimPass: number;
  /** Share of the arrivals that came under STARTTLS, %. */
  tls: number;
  /** SMTP sessions the server opened to the sink for the run. */
  sessions: number;
  /** CPU over wall time of the run: the cores the server got. */
  cores: number;
  /** The same for the sink, which must not be what limits the rate. */
  sinkCores: number;
}

/** What went wrong in any path; the bench prints its figures, then these, and exits 1. */
const problems: string[] = [];
/** How long arrivals may stop before a path is given up as stalled. */
const STALL_MS = 60_000;

/**
 * One path: a warm-up, then N messages submitted by `submit`, timed from the first submission to
 * the N-th arrival at the sink; CPU from `cpu()` before and after. Then the sink's account is
 * checked: exactly N arrivals, each of the N recipients once, all under STARTTLS, and a sample
 * spread over the run DKIM-verified. Anything else is a problem the bench fails on.
 */
async function measure(
  name: string,
  sink: ChildProcess,
  cpu: () => Promise<{ stop(): Promise<number> }>,
  submit: (from: number, count: number) => Promise<number>,
  verifyKey: (selector: string) => string | undefined,
): Promise<PathResult> {
  await ask(sink, { mark: true });
  const warm = await submit(N, WARMUP);
  await ask(sink, { wait: warm, stallMs: STALL_MS });
  await ask(sink, { mark: true });
  const meter = await cpu();
  const sinkBefore = procCpuMs(sink.pid!);
  const start = Date.now();
  const arrived = ask(sink, { wait: N, stallMs: STALL_MS });
  const accepted = await submit(0, N);
  if (accepted < N) problems.push(`${name}: only ${accepted} of ${N} submissions accepted`);
  const { at, count } = (await arrived) as { at: number; count: number };
  const cpuMs = await meter.stop();
  const sinkMs = procCpuMs(sink.pid!) - sinkBefore;
  if (count < N) problems.push(`${name}: ${count} of ${N} arrived at the sink, then nothing for ${STALL_MS / 1000} s`);
  const report = (await ask(sink, { report: SAMPLE })) as SinkReport;
  if (report.count !== count) problems.push(`${name}: ${report.count - count} more arrived after the ${N}th`);
  const want = new Set(Array.from({ length: N }, (_, i) => recipient(i)));
  const got = new Map<string, number>();
  for (const r of report.rcpts) got.set(r, (got.get(r) ?? 0) + 1);
  const missing = [...want].filter((r) => !got.has(r)).length;
  const doubled = [...got.values()].filter((n) => n > 1).length;
  const stray = [...got.keys()].filter((r) => !want.has(r)).length;
  if (missing || doubled || stray)
    problems.push(`${name}: recipients at the sink: ${missing} missing, ${doubled} more than once, ${stray} not sent`);
  if (report.tls !== report.count)
    problems.push(`${name}: ${report.count - report.tls} of ${report.count} arrived without STARTTLS`);
  let pass = 0;
  for (const raw of report.raws) {
    const res = await dkimVerify(Buffer.from(raw, 'base64'), {
      resolver: async (qname: string) => {
        const selector = qname.split('._domainkey.')[0]!;
        const key = verifyKey(selector);
        if (!key) throw Object.assign(new Error(`no key for ${qname}`), { code: 'ENOTFOUND' });
        return [[`v=DKIM1; k=rsa; p=${key}`]];
      },
    });
    const results = (res as { results: { signingDomain?: string; status: { result: string } }[] }).results;
    if (results.some((r) => r.signingDomain === SENDER_DOMAIN && r.status.result === 'pass')) pass++;
  }
  const dkimPass = report.raws.length ? (100 * pass) / report.raws.length : 0;
  const sampled = Math.min(SAMPLE, N);
  if (verifyKey !== unsigned && (pass !== sampled || report.raws.length !== sampled))
    problems.push(`${name}: DKIM passed on ${pass} of ${report.raws.length} sampled (want all ${sampled})`);
  return {
    rate: N / ((at - start) / 1000),
    cpuPerMsg: cpuMs / N,
    dkimPass,
    tls: report.count ? (100 * report.tls) / report.count : 0,
    sessions: report.sessions,
    cores: cpuMs / (at - start),
    sinkCores: sinkMs / (at - start),
  };
}

/** The key lookup of a path that does not sign (Postfix alone): DKIM is not checked. */
const unsigned = (): undefined => undefined;

/** Sends messages `from`…`from+count-1` over SMTP with `sessions` pooled connections; returns how many got a 250. */
function smtpSubmitter(opts: { port: number; auth?: { user: string; pass: string }; sessions: number }): {
  submit(from: number, count: number): Promise<number>;
  close(): void;
} {
  const transport = nodemailer.createTransport({
    pool: true,
    host: '127.0.0.1',
    port: opts.port,
    secure: false,
    maxConnections: opts.sessions,
    maxMessages: Infinity,
    // STARTTLS on both servers' submission sessions (the relay requires it before AUTH).
    requireTLS: true,
    ...(opts.auth ? { auth: opts.auth } : {}),
    tls: { rejectUnauthorized: false },
  });
  return {
    async submit(from, count) {
      let ok = 0;
      await Promise.all(
        Array.from({ length: count }, (_, k) =>
          transport
            .sendMail({
              envelope: { from: 'orders@acme.test', to: [recipient(from + k)] },
              raw: rawMessage(from + k),
            })
            .then(
              () => ok++,
              (err: Error) => console.error(`smtp send failed: ${err.message}`),
            ),
        ),
      );
      return ok;
    },
    close: () => transport.close(),
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const { connect } = await import('node:net');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${port}`);
    await sleep(100);
  }
}

/**
 * The private Postfix instance, with OpenDKIM as its milter unless `milter` is false; stop() ends
 * both and removes their directory. The settings a high-volume outbound relay needs are explained
 * where they are set; the bench's header gives the figures they made.
 */
async function startPostfix(
  sinkPort: number,
  opts: { milter: boolean },
): Promise<{
  port: number;
  masterPid(): number;
  dkimPid: number | null;
  publicKey: string;
  /** Messages still in the queue (`postqueue -j`). */
  queued(): number;
  stop(): Promise<void>;
}> {
  const root = mkdtempSync(join(tmpdir(), 'posthorn-peer-'));
  chmodSync(root, 0o755);
  const conf = join(root, 'etc');
  for (const d of [conf, join(root, 'queue'), join(root, 'data'), join(root, 'dkim')])
    mkdirSync(d, { recursive: true });
  const postfixUid = Number(spawnSync('id', ['-u', 'postfix'], { encoding: 'utf8' }).stdout.trim());
  chownSync(join(root, 'data'), postfixUid, -1);
  const [port, milterPort] = [await freePort(), await freePort()];

  // STARTTLS on the submission side as on the relay's: a self-signed P-256 certificate.
  const tlsCert = await generate([{ name: 'commonName', value: 'peer.localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
  });
  const chain = join(conf, 'smtpd-chain.pem');
  writeFileSync(chain, `${tlsCert.private}\n${tlsCert.cert}\n`, { mode: 0o600 });

  // OpenDKIM: RSA-2048, relaxed/relaxed, as an inet milter on loopback. Signing only (`Mode s`),
  // no syslog. It has no worker pool to size: libmilter serves each milter connection (one per
  // smtpd session) on its own thread.
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  let dkim: ChildProcess | null = null;
  if (opts.milter) {
    const keyFile = join(root, 'dkim', `${PEER_SELECTOR}.private`);
    writeFileSync(keyFile, privateKey.export({ type: 'pkcs1', format: 'pem' }), { mode: 0o600 });
    const dkimUser = spawnSync('id', ['-u', 'opendkim']).status === 0 ? 'opendkim' : null;
    if (dkimUser)
      chownSync(keyFile, Number(spawnSync('id', ['-u', 'opendkim'], { encoding: 'utf8' }).stdout.trim()), -1);
    const dkimConf = join(root, 'dkim', 'opendkim.conf');
    writeFileSync(
      dkimConf,
      [
        'Syslog no',
        'Background no',
        'Mode s',
        `Domain ${SENDER_DOMAIN}`,
        `Selector ${PEER_SELECTOR}`,
        `KeyFile ${keyFile}`,
        `Socket inet:${milterPort}@127.0.0.1`,
        'Canonicalization relaxed/relaxed',
        'SignatureAlgorithm rsa-sha256',
        'RequireSafeKeys false',
        `PidFile ${join(root, 'dkim', 'opendkim.pid')}`,
        ...(dkimUser ? [`UserID ${dkimUser}`] : []),
        '',
      ].join('\n'),
    );
    dkim = spawn('opendkim', ['-f', '-x', dkimConf], { stdio: ['ignore', 'inherit', 'inherit'] });
    await waitForPort(milterPort, 10_000);
  }

  writeFileSync(
    join(conf, 'main.cf'),
    `compatibility_level = 3.6
queue_directory = ${root}/queue
data_directory = ${root}/data
mail_owner = postfix
setgid_group = postdrop
myhostname = peer.localhost
mydomain = peer.test
myorigin = peer.test
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_relay_restrictions = permit_mynetworks, reject_unauth_destination
# Everything goes to the loopback sink: nothing can leave the machine. One next hop, so one
# queue in qmgr, as all 50 recipient domains are one destination host for Posthorn (their MX).
relayhost = [127.0.0.1]:${sinkPort}
smtp_dns_support_level = disabled
local_recipient_maps =
alias_maps =
alias_database =
biff = no

# Submission: STARTTLS offered, as on Posthorn's relay.
smtpd_tls_security_level = may
smtpd_tls_chain_files = ${chain}

# Delivery: STARTTLS with the sink, as Posthorn does when it is offered.
smtp_tls_security_level = may
# Without this, Postfix (3.4 and later) closes every TLS-protected SMTP connection after one
# message: each delivery paid a TCP connect, EHLO, STARTTLS and a full TLS handshake on both ends,
# so ten connections carried about 60 messages/s (the log said delays=…/0.16/… for connection
# set-up against 0.01 s transmission, and never conn_use=). tlsproxy(8) holds the TLS state, so
# scache(8) can keep the connection and smtp(8) reuse it.
smtp_tls_connection_reuse = yes
# Keep connections to the relayhost always, not only while a backlog waits for it (the default,
# on demand): when submission is slower than delivery the queue empties between messages, and each
# connection was closed after its message. The list takes the host without [] and port.
smtp_connection_cache_destinations = 127.0.0.1
# Posthorn's sessions end after 1000 messages (src/delivery/providers.ts, \`other\`); the same here.
smtp_connection_reuse_count_limit = 1000
# A new connection resumes the previous TLS session instead of a full handshake.
smtp_tls_session_cache_database = btree:\${data_directory}/smtp_scache
# Posthorn's default POSTHORN_MX_MAX_CONNECTIONS (10) connections to the one destination host, and
# all of them from the start: Postfix's slow start would begin at 5.
default_destination_concurrency_limit = 10
initial_destination_concurrency = 10
# Left at their defaults, having checked them: default_process_limit (100: the run needs about 20
# smtpd, 20 cleanup and 10 smtp), in_flow_delay (1s, applied only while the queue manager falls
# behind, which it no longer does), qmgr's active queue limits (20000 messages), milter timeouts
# and protocol (6). No DNS is asked: the relayhost is a bracketed address and DNS support is off.
${
  opts.milter
    ? `
# Signing: OpenDKIM on every smtpd session; mail is not sent unsigned if it fails.
smtpd_milters = inet:127.0.0.1:${milterPort}
milter_default_action = tempfail
`
    : ''
}
# One line per event to a file (postlogd), as an operator keeps them; no syslog daemon involved.
maillog_file_prefixes = ${root}
maillog_file = ${root}/maillog
`,
  );
  writeFileSync(
    join(conf, 'master.cf'),
    `127.0.0.1:${port} inet n - n - - smtpd
cleanup   unix n - n - 0 cleanup
qmgr      unix n - n 300 1 qmgr
tlsmgr    unix - - n 1000? 1 tlsmgr
tlsproxy  unix - - n - 0 tlsproxy
rewrite   unix - - n - - trivial-rewrite
bounce    unix - - n - 0 bounce
defer     unix - - n - 0 bounce
trace     unix - - n - 0 bounce
verify    unix - - n - 1 verify
flush     unix n - n 1000? 0 flush
proxymap  unix - - n - - proxymap
showq     unix n - n - - showq
error     unix - - n - - error
retry     unix - - n - - error
discard   unix - - n - - discard
smtp      unix - - n - - smtp
relay     unix - - n - - smtp
anvil     unix - - n - 1 anvil
scache    unix - - n - 1 scache
postlog   unix-dgram n - n - 1 postlogd
`,
  );
  spawnSync('postfix', ['-c', conf, 'check'], { stdio: 'ignore' }); // makes the queue directories
  const started = spawnSync('postfix', ['-c', conf, 'start'], { encoding: 'utf8' });
  if (started.status !== 0) {
    dkim?.kill('SIGTERM');
    const log = existsSync(join(root, 'maillog')) ? readFileSync(join(root, 'maillog'), 'utf8') : '';
    throw new Error(`postfix start failed: ${started.stderr}\n${log}`);
  }
  await waitForPort(port, 10_000);
  return {
    port,
    masterPid: () => Number(readFileSync(join(root, 'queue', 'pid', 'master.pid'), 'utf8').trim()),
    dkimPid: dkim?.pid ?? null,
    publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
    queued: () =>
      spawnSync('postqueue', ['-c', conf, '-j'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean).length,
    async stop() {
      spawnSync('postfix', ['-c', conf, 'stop'], { stdio: 'ignore' });
      dkim?.kill('SIGTERM');
      await sleep(500);
      if (!process.env.BENCH_KEEP) rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The path's CPU meter: a sum of process CPU read before and after (and PostgreSQL backends sampled meanwhile). */
function meter(read: () => number, backends?: { url: string; database: string }) {
  return async () => {
    const before = read();
    const pgWatch = backends ? watchBackends(backends.url, backends.database) : null;
    return {
      async stop() {
        return read() - before + (pgWatch ? await pgWatch.stop() : 0);
      },
    };
  };
}

async function main(): Promise<void> {
  ensurePackages();
  serveFromDist();
  const sink: ChildProcess = fork(fileURLToPath(import.meta.url), ['--sink'], { execArgv: ['--import', 'tsx'] });
  const { port: sinkPort } = (await new Promise((resolve) => sink.once('message', resolve))) as { port: number };
  const zone: Record<string, { MX: { exchange: string; priority: number }[] }> = {};
  for (let i = 0; i < DOMAINS; i++) zone[`d${i}.example`] = { MX: [{ exchange: '127.0.0.1', priority: 10 }] };
  const dns = await startDnsServer(zone);
  const target = await scratchTarget(DIALECT, 'peer');
  /** The Postfix instance running, for the clean-up when a run throws. */
  const running: { postfix: Awaited<ReturnType<typeof startPostfix>> | null } = { postfix: null };
  let server: RunningServer | null = null;
  try {
    // 1. Postfix + OpenDKIM, then Postfix alone (no milter, unsigned: what signing costs Postfix).
    const runPostfix = async (name: string, milter: boolean): Promise<PathResult & { dkimCpuPerMsg: number }> => {
      const pf = await startPostfix(sinkPort, { milter });
      running.postfix = pf;
      const client = smtpSubmitter({ port: pf.port, sessions: SESSIONS });
      // OpenDKIM's readings at the meter's start and stop, for its share of the sum.
      const dkimReadings: number[] = [];
      const result = await measure(
        name,
        sink,
        meter(() => {
          const dkimMs = pf.dkimPid === null ? 0 : procCpuMs(pf.dkimPid, true);
          dkimReadings.push(dkimMs);
          return treeCpuMs(pf.masterPid()) + dkimMs;
        }),
        (from, count) => client.submit(from, count),
        milter ? (sel) => (sel === PEER_SELECTOR ? pf.publicKey : undefined) : unsigned,
      );
      client.close();
      const left = pf.queued();
      if (left > 0) problems.push(`${name}: ${left} messages left in Postfix's queue`);
      await pf.stop();
      running.postfix = null;
      return { ...result, dkimCpuPerMsg: (dkimReadings.at(-1)! - dkimReadings[0]!) / N };
    };
    const postfixResult = await runPostfix('postfix', true);
    const aloneResult = await runPostfix('postfix_alone', false);

    // 2 and 3. Posthorn: one process with the api, smtp and delivery roles.
    const open = openDatabase({ databaseUrl: target.url, dataDir: target.dataDir });
    await migrate(open.db, open.dialect);
    const config = loadConfig({ ...target.env, POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: 'localhost' });
    const deps = { db: open.db, clock: systemClock, ids: createIds(), config };
    await createAccount(deps, 'bench');
    await updateAccountLimits(deps, 'bench', { rateLimit: 1_000_000 });
    const domain = await addDomain(deps, 'bench', SENDER_DOMAIN);
    await open.db
      .updateTable('domains')
      .set({ status: 'verified', verified_at: Date.now() })
      .where('id', '=', domain.id)
      .execute();
    const { key } = await issueApiKey(deps, domain.id);
    const cred = await createSmtpCredential(deps, SENDER_DOMAIN);
    const row = await open.db
      .selectFrom('domains')
      .select(['dkim_selector', 'dkim_public_key'])
      .where('id', '=', domain.id)
      .executeTakeFirstOrThrow();
    await open.close();
    const srv = await startServer(
      {
        ...target.env,
        POSTHORN_SANDBOX: '0',
        POSTHORN_HOSTNAME: 'localhost',
        POSTHORN_LISTEN_HOST: '127.0.0.1',
        POSTHORN_DNS_SERVERS: dns.address,
        POSTHORN_MX_PORT: String(sinkPort),
        POSTHORN_SMTP_PORT: '0',
      },
      { args: ['--roles', 'api,smtp,delivery'] },
    );
    server = srv;
    const pid = srv.child.pid as number;
    const backends = target.url ? { url: target.url, database: new URL(target.url).pathname.slice(1) } : undefined;
    const posthornKey = (sel: string) => (sel === row.dkim_selector ? row.dkim_public_key : undefined);
    const ca = readFileSync(join(target.dataDir, 'tls', 'cert.pem'));
    const agent = new https.Agent({ keepAlive: true, maxSockets: CONNECTIONS, ca });
    const apiResult = await measure(
      'posthorn_api',
      sink,
      meter(() => procCpuMs(pid, true), backends),
      async (from, count) => {
        let next = 0;
        let ok = 0;
        await Promise.all(
          Array.from({ length: CONNECTIONS }, async () => {
            for (let k = next++; k < count; k = next++) {
              const o = await postSendHttps(srv.url, agent, key, {
                from: 'Acme Store <orders@acme.test>',
                to: recipient(from + k),
                subject: 'Your receipt #10042',
                html: html(),
              });
              if ('status' in o && o.status === 202) ok++;
              else console.error(`api send failed: ${JSON.stringify(o)}`);
            }
          }),
        );
        return ok;
      },
      posthornKey,
    );
    agent.destroy();
    const relayPort = await smtpPort(srv);
    const relay = smtpSubmitter({
      port: relayPort,
      auth: { user: cred.username, pass: cred.password },
      sessions: SESSIONS,
    });
    const relayResult = await measure(
      'posthorn_relay',
      sink,
      meter(() => procCpuMs(pid, true), backends),
      (from, count) => relay.submit(from, count),
      posthornKey,
    );
    relay.close();

    const print = (name: string, value: number, unit: string, digits = 0) =>
      console.log(`${name}: ${value.toFixed(digits)} ${unit}`);
    console.log(`peer_messages: ${N} msgs`);
    for (const [name, r] of [
      ['peer_postfix', postfixResult],
      ['peer_postfix_alone', aloneResult],
      ['peer_posthorn_api', apiResult],
      ['peer_posthorn_relay', relayResult],
    ] as const) {
      print(`${name}_rate`, r.rate, 'msgs/s');
      print(`${name}_cpu_per_msg`, r.cpuPerMsg, 'ms', 3);
      if (r !== aloneResult) print(`${name}_dkim_pass`, r.dkimPass, `% of ${SAMPLE} sampled`);
      print(`${name}_tls`, r.tls, '% of arrivals');
      print(`${name}_sessions`, r.sessions, 'SMTP sessions at the sink');
      print(`${name}_cores`, r.cores, 'cores busy', 2);
      print(`${name}_sink_cores`, r.sinkCores, 'cores busy', 2);
    }
    print('peer_postfix_opendkim_cpu_per_msg', postfixResult.dkimCpuPerMsg, 'ms', 3);
    print('peer_posthorn_api_rate_vs_postfix', apiResult.rate / postfixResult.rate, 'x', 2);
    print('peer_posthorn_relay_rate_vs_postfix', relayResult.rate / postfixResult.rate, 'x', 2);
    print('peer_posthorn_api_cpu_vs_postfix', apiResult.cpuPerMsg / postfixResult.cpuPerMsg, 'x', 2);
    print('peer_posthorn_relay_cpu_vs_postfix', relayResult.cpuPerMsg / postfixResult.cpuPerMsg, 'x', 2);
    for (const p of problems) console.error(`bench:peer: ${p}`);
    if (problems.length) process.exitCode = 1;
  } finally {
    await server?.stop();
    await running.postfix?.stop();
    await dns.close();
    sink.send('close');
    await target.cleanup();
  }
}

/** The relay's submission port from its `smtp relay listening` log line. */
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
    await sleep(50);
  }
  throw new Error(`no "smtp relay listening" line; stderr:\n${server.stderr()}`);
}

if (process.argv[2] === '--sink') await runSink();
else await main();
