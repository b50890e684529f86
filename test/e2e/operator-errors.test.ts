import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { runCli } from '../helpers/run-cli.js';

// Each start-up failure an operator meets first names the setting at fault and the fix
// (docs/deploy.md, "When it does not start"), and `posthorn serve` exits non-zero.

const PG_URL = process.env.POSTHORN_TEST_DATABASE_URL;
const tmp = mkdtempSync(join(tmpdir(), 'posthorn-operator-errors-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Production settings with PostgreSQL at `url` (a database URL turns the sandbox off). */
function productionEnv(url: string): Record<string, string> {
  return { POSTHORN_DATABASE_URL: url, POSTHORN_HOSTNAME: 'mail.example.test', POSTHORN_DATA_DIR: tmp };
}

/** A sandbox on SQLite in a fresh data dir, every listener on a free port. */
function sandboxEnv(extra: Record<string, string>): Record<string, string> {
  return {
    POSTHORN_DATA_DIR: mkdtempSync(join(tmp, 'data-')),
    POSTHORN_HTTP_PORT: '0',
    POSTHORN_SMTP_PORT: '0',
    POSTHORN_SMTPS_PORT: '0',
    POSTHORN_INBOUND_PORT: '0',
    ...extra,
  };
}

/** `posthorn serve` that must fail at start: its one-line reason on stderr. */
async function failedStart(env: Record<string, string>): Promise<string> {
  const r = await runCli(['serve'], env);
  assert.notEqual(r.code, 0, `serve should have failed; stderr: ${r.stderr}`);
  const reason = r.stderr.split('\n').find((l) => l.startsWith('posthorn: '));
  assert.ok(reason, `no "posthorn: " line on stderr: ${r.stderr}`);
  assert.doesNotMatch(reason, /unexpected error/);
  return reason;
}

test('an unreachable database names POSTHORN_DATABASE_URL without its password', async () => {
  // A port nothing listens on: taken, then released.
  const port = await freePort();
  const reason = await failedStart(productionEnv(`postgres://posthorn:s3cret-pw@127.0.0.1:${port}/posthorn`));
  assert.match(reason, /cannot reach PostgreSQL at postgres:\/\/posthorn@127\.0\.0\.1:\d+\/posthorn/);
  assert.match(reason, /POSTHORN_DATABASE_URL/);
  assert.doesNotMatch(reason, /s3cret-pw/);
});

test('a missing PostgreSQL database is named with the SQL that creates it', { skip: !PG_URL }, async () => {
  const url = new URL(PG_URL!);
  url.pathname = '/posthorn_no_such_db';
  const reason = await failedStart(productionEnv(url.toString()));
  assert.match(reason, /PostgreSQL has no database posthorn_no_such_db/);
  assert.match(reason, /CREATE DATABASE posthorn_no_such_db OWNER \w+;/);
});

test('a missing PostgreSQL role is named with the SQL that creates it', { skip: !PG_URL }, async () => {
  const url = new URL(PG_URL!);
  url.username = 'posthorn_no_such_role';
  const reason = await failedStart(productionEnv(url.toString()));
  assert.match(reason, /PostgreSQL has no role posthorn_no_such_role/);
  assert.match(reason, /CREATE ROLE posthorn_no_such_role LOGIN PASSWORD '\.\.\.';/);
});

test('a wrong PostgreSQL password is named without printing it', { skip: initdb() === undefined }, async () => {
  // The shared test cluster trusts loopback, so a cluster of this test's own checks passwords.
  const cluster = await startPasswordCluster('right-pw');
  try {
    const reason = await failedStart(productionEnv(`postgres://postgres:wrong-pw@127.0.0.1:${cluster.port}/postgres`));
    assert.match(reason, /PostgreSQL refused the password of role postgres/);
    assert.match(reason, /POSTHORN_DATABASE_URL=postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres/);
    assert.doesNotMatch(reason, /wrong-pw|right-pw/);
  } finally {
    await cluster.stop();
  }
});

test('a port held by another listener names the variable to change', async () => {
  const holder = await listen();
  try {
    const port = (holder.address() as AddressInfo).port;
    const reason = await failedStart(sandboxEnv({ POSTHORN_HTTP_PORT: String(port) }));
    assert.match(reason, new RegExp(`port 127\\.0\\.0\\.1:${port} is already in use`));
    assert.match(reason, /set POSTHORN_HTTP_PORT to a free port/);
  } finally {
    holder.close();
  }
});

test('an unreadable certificate names POSTHORN_TLS_CERT and its path', async () => {
  const cert = join(tmp, 'missing-cert.pem');
  const key = join(tmp, 'missing-key.pem');
  const reason = await failedStart(sandboxEnv({ POSTHORN_TLS_CERT: cert, POSTHORN_TLS_KEY: key }));
  assert.match(reason, new RegExp(`POSTHORN_TLS_CERT: cannot read ${cert}`));
  assert.match(reason, /point POSTHORN_TLS_CERT at a PEM certificate this user can read/);
});

test("a key that is not the certificate's names both paths", async () => {
  const a = await generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048 });
  const b = await generate([{ name: 'commonName', value: 'localhost' }], { keySize: 2048 });
  const cert = join(tmp, 'a-cert.pem');
  const key = join(tmp, 'b-key.pem');
  writeFileSync(cert, a.cert);
  writeFileSync(key, b.private);
  const reason = await failedStart(sandboxEnv({ POSTHORN_TLS_CERT: cert, POSTHORN_TLS_KEY: key }));
  assert.match(reason, new RegExp(`POSTHORN_TLS_KEY: ${key} is not the key of the certificate in ${cert}`));
  assert.match(reason, /set POSTHORN_TLS_CERT and POSTHORN_TLS_KEY to files of the same pair/);
});

test('a misspelt POSTHORN_ variable is a warning naming the nearest setting', async () => {
  const r = await runCli(['sandbox', 'list'], sandboxEnv({ POSTHORN_WEBHOOK_CONCURENCY: '4' }));
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /posthorn: warning: POSTHORN_WEBHOOK_CONCURENCY is not a Posthorn setting and is ignored; did you mean POSTHORN_WEBHOOK_CONCURRENCY\?/,
  );
});

test('--version, COMMAND --help and exit status 2 for usage errors', async () => {
  const version = await runCli(['--version'], {});
  assert.equal(version.code, 0);
  assert.match(version.stdout, /^posthorn \d+\.\d+\.\d+\n$/);
  for (const words of [['doctor'], ['domain', 'add'], ['serve'], ['webhook']]) {
    const help = await runCli([...words, '--help'], {});
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, new RegExp(`^Usage: posthorn ${words.join(' ')} `));
    assert.match(help.stdout, new RegExp(`\\n {2}${words.join(' ')}`));
  }
  for (const argv of [['no-such-command'], ['domain', 'add', 'example.com', '--no-such-flag'], ['domain', 'add']]) {
    const r = await runCli(argv, {});
    assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /see posthorn --help/);
  }
});

function freePort(): Promise<number> {
  return listen().then(
    (s) =>
      new Promise((resolve) => {
        const port = (s.address() as AddressInfo).port;
        s.close(() => resolve(port));
      }),
  );
}

function listen(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
}

/** The directory of PostgreSQL's server programs (initdb, postgres), when installed. */
function initdb(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const version = readdirSync(root).sort().at(-1);
  const bin = version === undefined ? undefined : join(root, version, 'bin');
  return bin !== undefined && existsSync(join(bin, 'initdb')) ? bin : undefined;
}

/** `argv` run as the postgres user when this process is root (PostgreSQL refuses to run as root). */
function asPostgres(argv: string[]): string[] {
  return process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--', ...argv] : argv;
}

function run(argv: string[]): void {
  execFileSync(argv[0]!, argv.slice(1), { stdio: 'pipe' });
}

/**
 * A throwaway PostgreSQL cluster of this test's own that checks passwords (scram-sha-256) for
 * role postgres, on a free loopback port. PostgreSQL refuses to run as root, so as root it runs
 * as the postgres user.
 */
async function startPasswordCluster(password: string): Promise<{ port: number; stop(): Promise<void> }> {
  const bin = initdb()!;
  const dir = mkdtempSync(join(tmpdir(), 'posthorn-pg-'));
  chmodSync(dir, 0o777);
  const pwfile = join(dir, 'pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o644 });
  const data = join(dir, 'data');
  run(asPostgres([join(bin, 'initdb'), '-D', data, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pwfile}`]));
  const port = await freePort();
  const [cmd, ...args] = asPostgres([
    join(bin, 'postgres'),
    '-D',
    data,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-k',
    dir,
  ]);
  const server: ChildProcess = spawn(cmd!, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  server.stderr!.setEncoding('utf8').on('data', (d: string) => {
    log += d;
  });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (log.includes('ready to accept connections')) resolve();
      else if (server.exitCode !== null) reject(new Error(`postgres did not start: ${log}`));
      else server.stderr!.once('data', check);
    };
    server.once('exit', () => reject(new Error(`postgres exited: ${log}`)));
    check();
  });
  return {
    port,
    stop: async () => {
      // runuser passes SIGTERM on (PostgreSQL's smart shutdown); it does not pass SIGINT.
      server.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
