// npm run bench:suppressions — the suppression import and export through their real HTTP routes:
// a `posthorn serve --roles api` child on a scratch database, this process as the client over
// HTTPS on loopback.
//   1. import: BENCH_ROWS (1,000,000) generated rows (valid, in no particular order, a tenth of them
//      with created_at/domain/message_id) streamed as CSV to POST /v1/suppressions/import;
//      figure = rows / time to the answer;
//   2. export: GET /v1/suppressions/export read to the end and counted; figure = rows / time to
//      the last byte;
//   3. peak RSS of the server process over its whole life (VmHWM of /proc/<pid>/status, Linux),
//      and its RSS once started, before the import (start_rss), for comparison;
//   4. rows per CPU-second of the Posthorn server process (import_cpu, export_cpu: /proc/<pid>/stat),
//      a figure less bent than rows/s by other load on the machine. PostgreSQL's own processes are
//      not counted in it; on PostgreSQL running on this machine, import_db_cpu and export_db_cpu
//      give rows per CPU-second of the scratch database's backends (/proc, sampled every 100 ms;
//      PostgreSQL's background processes, the WAL writer and checkpointer, are not counted).
// Targets (CONTRIBUTING.md, Benchmarks): import ≥ 100,000 rows/s, export ≥ 300,000 rows/s, RSS < 300 MB.
// SQLite always; PostgreSQL when BENCH_DATABASE_URL names a server (a scratch database is created
// and dropped, scratch-target.ts), otherwise skipped with a note. BENCH_DIALECTS picks the
// databases; BENCH_PROFILE=<dir> writes the server's CPU profiles there. The server gets
// POSTHORN_HTTP_BODY_TIMEOUT=10m, so a slow machine measures its speed rather than the deadline.
// Prints one figure per line: `name: value unit`.
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { Agent, fetch } from 'undici';
import pg from 'pg';
import { loadConfig } from '../src/config/load.js';
import { systemClock } from '../src/core/clock.js';
import { createIds } from '../src/core/ids.js';
import { CLI_ACTOR } from '../src/core/actor.js';
import { createAccount } from '../src/accounts/accounts.js';
import { createAccountToken } from '../src/credentials/account-tokens.js';
import { migrate } from '../src/storage/migrate.js';
import { openDatabase, type DialectName } from '../src/storage/open-database.js';
import { startServer } from '../test/helpers/spawn-server.js';
import { scratchTarget } from './scratch-target.js';
import { serveFromDist } from './from-dist.js';

serveFromDist();

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const REASONS = ['hard_bounce', 'complaint', 'unsubscribed', 'manual'];

/** The import file, generated in 64 KB pieces as the upload asks for them. */
function* csv(rows: number): Generator<string> {
  let out = 'address,reason,created_at,domain,message_id\n';
  for (let i = 0; i < rows; i++) {
    // A multiplicative hash spreads the addresses over the key space, as a real list's are.
    const h = Math.imul(i, 2654435761) >>> 0;
    const extra = i % 10 === 0;
    out += `${h.toString(36)}.${i}@customer${i % 500}.example,${REASONS[i % 4]},${extra ? '2026-03-04T05:06:07.089Z' : ''},${extra ? 'mail.shop.example' : ''},${extra ? 'msg_01JD3Z8Q4WJ6V2X5K7M9N0P1QR' : ''}\n`;
    if (out.length >= 64 * 1024) {
      yield out;
      out = '';
    }
  }
  yield out;
}

/** Peak (VmHWM) or current (VmRSS) resident memory of a process, in MB (Linux). */
function rssMb(pid: number | undefined, which: 'VmHWM' | 'VmRSS'): number | null {
  if (pid === undefined) return null;
  try {
    const m = new RegExp(`${which}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used so far (Linux: /proc/<pid>/stat, clock ticks of 1/100 s). */
function cpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    // Fields after the command name (which is in parentheses and may hold spaces): utime is the 12th, stime the 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * CPU seconds used so far by the backends of the database at `url` (PostgreSQL on this machine),
 * polled every 100 ms so that backends which come and go are counted from when they are first seen.
 * `used()` is null when their /proc entries cannot be read (a database on another machine).
 */
async function watchBackends(url: string): Promise<{ used(): Promise<number | null>; stop(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const seen = new Map<number, { first: number; last: number }>();
  let unreadable = false;
  const poll = async (): Promise<void> => {
    const { rows } = await client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    for (const { pid } of rows) {
      const cpu = cpuSeconds(pid);
      if (cpu === null) unreadable = true;
      else {
        const s = seen.get(pid);
        if (s) s.last = cpu;
        else seen.set(pid, { first: cpu, last: cpu });
      }
    }
  };
  await poll();
  let polling: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    polling = polling.then(poll).catch(() => {});
  }, 100);
  return {
    async used() {
      await polling;
      await poll();
      if (unreadable) return null;
      let total = 0;
      for (const s of seen.values()) total += s.last - s.first;
      return total;
    },
    async stop() {
      clearInterval(timer);
      await polling;
      await client.end();
    },
  };
}

const perCpuSecond = (rows: number, before: number | null, after: number | null): string =>
  before === null || after === null || after <= before ? 'unknown' : String(Math.round(rows / (after - before)));

async function run(dialect: DialectName): Promise<void> {
  const target = await scratchTarget(dialect, 'suppressions');
  const open = openDatabase({ databaseUrl: target.url, dataDir: target.dataDir });
  const dispatcher = new Agent({ connect: { rejectUnauthorized: false }, bodyTimeout: 0, headersTimeout: 0 });
  try {
    await migrate(open.db, open.dialect);
    const deps = {
      db: open.db,
      clock: systemClock,
      ids: createIds(),
      config: loadConfig({ POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: 'localhost', ...target.env }),
    };
    await createAccount(deps, 'bench');
    const { token } = await createAccountToken(deps, 'bench', { name: 'bench', role: 'admin', actor: CLI_ACTOR });
    const server = await startServer(
      {
        ...target.env,
        POSTHORN_SANDBOX: '0',
        POSTHORN_HOSTNAME: 'localhost',
        POSTHORN_LISTEN_HOST: '127.0.0.1',
        POSTHORN_HTTP_BODY_TIMEOUT: '10m',
      },
      {
        args: ['--roles', 'api'],
        nodeArgs: process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [],
      },
    );
    try {
      const pid = server.child.pid;
      const startRss = rssMb(pid, 'VmRSS');
      const backends = target.url === null ? null : await watchBackends(target.url);
      const cpuStart = cpuSeconds(pid);
      const dbStart = (await backends?.used()) ?? null;
      const auth = { authorization: `Bearer ${token}` };
      const started = Date.now();
      const res = await fetch(`${server.url}/v1/suppressions/import`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'text/csv' },
        body: Readable.from(csv(ROWS)),
        duplex: 'half',
        dispatcher,
      });
      const result = (await res.json()) as { imported?: number };
      const importMs = Date.now() - started;
      if (res.status !== 200 || result.imported !== ROWS)
        throw new Error(`import answered ${res.status}: ${JSON.stringify(result).slice(0, 500)}`);

      const cpuImported = cpuSeconds(pid);
      const dbImported = (await backends?.used()) ?? null;
      const exportStart = Date.now();
      const out = await fetch(`${server.url}/v1/suppressions/export`, { headers: auth, dispatcher });
      let lines = 0;
      for await (const chunk of out.body as unknown as AsyncIterable<Uint8Array>) {
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      }
      const exportMs = Date.now() - exportStart;
      if (out.status !== 200 || lines !== ROWS + 1)
        throw new Error(`export answered ${out.status} with ${lines} lines`);

      const cpuExported = cpuSeconds(pid);
      const dbExported = (await backends?.used()) ?? null;
      await backends?.stop();
      console.log(`import_${dialect}: ${Math.round(ROWS / (importMs / 1000))} rows/s`);
      console.log(`export_${dialect}: ${Math.round(ROWS / (exportMs / 1000))} rows/s`);
      console.log(`peak_rss_${dialect}: ${rssMb(pid, 'VmHWM') ?? 'unknown'} MB`);
      console.log(`import_cpu_${dialect}: ${perCpuSecond(ROWS, cpuStart, cpuImported)} rows/server-cpu-s`);
      console.log(`export_cpu_${dialect}: ${perCpuSecond(ROWS, cpuImported, cpuExported)} rows/server-cpu-s`);
      console.log(`start_rss_${dialect}: ${startRss ?? 'unknown'} MB`);
      if (backends !== null) {
        console.log(`import_db_cpu_${dialect}: ${perCpuSecond(ROWS, dbStart, dbImported)} rows/db-cpu-s`);
        console.log(`export_db_cpu_${dialect}: ${perCpuSecond(ROWS, dbImported, dbExported)} rows/db-cpu-s`);
      }
    } finally {
      await server.stop();
    }
  } finally {
    await dispatcher.close();
    await open.close();
    await target.cleanup();
  }
}

const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',') as DialectName[];
for (const d of dialects) {
  if (d === 'postgres' && !process.env.BENCH_DATABASE_URL) {
    console.log(
      'note: postgres skipped; set BENCH_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres) to run it',
    );
    continue;
  }
  await run(d);
}
