// `posthorn serve` as a newcomer runs it (README, Quick start): a fresh data dir, real
// HTTPS on loopback with the generated certificate, the welcome printed once, a clean SIGTERM.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { startServer, type RunningServer } from '../helpers/spawn-server.js';
import { createTestDb, testDialects } from '../helpers/test-db.js';
import { listEventPartitions, partitionFor } from '../../src/storage/event-partitions.js';

interface Answer {
  status: number;
  type: string;
  body: string;
}

/** One HTTPS request that trusts only `ca` (no rejectUnauthorized: false). */
function httpsRequest(
  url: string,
  ca: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method: opts.method ?? 'GET', headers: opts.headers, ca, agent: false }, (res) => {
      let body = '';
      res
        .setEncoding('utf8')
        .on('data', (d: string) => {
          body += d;
        })
        .on('end', () => {
          resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body });
        });
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** A plain-HTTP request: the answer, or the error that ended it. */
function plainHttp(url: string): Promise<Answer | Error> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false }, (res) => {
      let body = '';
      res
        .setEncoding('utf8')
        .on('data', (d: string) => {
          body += d;
        })
        .on('end', () => resolve({ status: res.statusCode ?? 0, type: '', body }));
    });
    req.on('error', (err) => resolve(err));
  });
}

/** Resolves once the server's stdout matches `pattern` (checked on every chunk, no polling). */
function stdoutMatch(server: RunningServer, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      const m = pattern.exec(server.stdout());
      if (!m) return;
      server.child.stdout?.off('data', onData);
      server.child.off('exit', onExit);
      resolve(m);
    };
    // Registered after startServer's own listener, so stdout() already holds this chunk.
    const onData = (): void => check();
    const onExit = (): void =>
      reject(new Error(`server exited before printing ${pattern}; stdout:\n${server.stdout()}`));
    server.child.stdout?.on('data', onData);
    server.child.once('exit', onExit);
    check();
  });
}

describe('posthorn serve (sandbox)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'posthorn-serve-'));
  const servers: RunningServer[] = [];
  after(async () => {
    await Promise.all(servers.map((s) => s.kill9()));
    rmSync(dataDir, { recursive: true, force: true });
  });
  const env = { POSTHORN_SANDBOX: '1', POSTHORN_DATA_DIR: dataDir };

  test('first start prints the welcome once; HTTPS only; SIGTERM exits 0; a second start prints no secret', async () => {
    const first = await startServer(env);
    servers.push(first);
    assert.match(first.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const [, key] = await stdoutMatch(first, /API key:\s+(ph_\S+)/);
    const welcome = first.stdout();
    const certPath = join(dataDir, 'tls', 'cert.pem');
    assert.ok(welcome.includes(certPath), `the welcome names the certificate: ${welcome}`);
    assert.match(welcome, /hello@sandbox\.posthorn\.test/);
    assert.match(welcome, /curl --cacert \S+ https:\/\/localhost:\d+\/v1\/send/);
    const ca = readFileSync(certPath, 'utf8');

    const health = await httpsRequest(`${first.url}/healthz`, ca);
    assert.equal(health.status, 200);
    assert.deepEqual(JSON.parse(health.body), { status: 'ok', database: 'sqlite' });

    // Prometheus metrics are on the metrics listener, never on the public API port.
    assert.equal((await httpsRequest(`${first.url}/metrics`, ca)).status, 404);
    assert.ok(first.metricsUrl, 'the metrics listener logged its URL');
    const metrics = await plainHttp(`${first.metricsUrl}/metrics`);
    assert.ok(!(metrics instanceof Error), String(metrics));
    assert.equal(metrics.status, 200);
    assert.match(metrics.body, /^# HELP posthorn_/m);

    // The printed key sends from the sandbox domain, which is verified without DNS.
    const sent = await httpsRequest(`${first.url}/v1/send`, ca, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        from: 'hello@sandbox.posthorn.test',
        to: 'someone@example.com',
        subject: 'Hi',
        text: 'It works.',
      }),
    });
    assert.equal(sent.status, 202, sent.body);

    // Other commands run while the server runs on the same database.
    const suppressed = await runCli(['suppression', 'add', 'blocked@example.com', '--account', 'demo', '--json'], env);
    assert.equal(suppressed.code, 0, suppressed.stderr);
    const refused = await httpsRequest(`${first.url}/v1/send`, ca, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        from: 'hello@sandbox.posthorn.test',
        to: 'Blocked@example.com',
        subject: 'Hi',
        text: 'Nope.',
      }),
    });
    assert.equal(refused.status, 422, refused.body);
    assert.match(refused.body, /recipient_suppressed/);

    const plain = await plainHttp(`${first.url.replace('https:', 'http:')}/healthz`);
    assert.ok(plain instanceof Error || !plain.body.includes('"status":"ok"'), 'no plain-HTTP API on the port');

    assert.equal(await first.stop(), 0);

    const second = await startServer(env);
    servers.push(second);
    assert.equal((await httpsRequest(`${second.url}/healthz`, ca)).status, 200, 'the certificate is reused');
    assert.equal(await second.stop(), 0);
    assert.doesNotMatch(second.stdout(), /ph_|API key/);
    assert.equal(readFileSync(certPath, 'utf8'), ca);
  });

  test('an unknown role is refused by name (every documented role is built now)', async () => {
    const r = await runCli(['serve', '--roles', 'api,mailman'], env);
    assert.notEqual(r.code, 0);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /unknown role "mailman"; roles are api, smtp, inbound, delivery, webhooks, scheduler/);
  });
});

for (const dialect of testDialects()) {
  test(`posthorn serve in production mode on ${dialect}: no welcome, healthz names the database, SIGTERM exits 0`, async () => {
    const db = await createTestDb(dialect);
    let server: RunningServer | undefined;
    try {
      server = await startServer(
        {
          ...db.env,
          POSTHORN_SANDBOX: '0',
          POSTHORN_HOSTNAME: 'mail.posthorn.test',
          POSTHORN_LISTEN_HOST: '127.0.0.1',
        },
        { args: ['--roles', 'api,scheduler'] },
      );
      const ca = readFileSync(join(db.dataDir, 'tls', 'cert.pem'), 'utf8');
      const health = await httpsRequest(`${server.url}/healthz`, ca);
      assert.deepEqual(JSON.parse(health.body), { status: 'ok', database: dialect });
      assert.equal(await server.stop(), 0);
      assert.equal(server.stdout(), '');
      const settings = await db.db.selectFrom('settings').selectAll().execute();
      assert.deepEqual(settings, [], 'no sandbox bootstrap outside sandbox mode');
    } finally {
      // The server goes before its database: dropping a PostgreSQL schema waits for its users.
      await server?.kill9();
      await db.close();
    }
  });
}

for (const dialect of testDialects()) {
  test(`posthorn serve on ${dialect} makes the event partitions before a role without the scheduler listens`, async () => {
    const db = await createTestDb(dialect);
    let server: RunningServer | undefined;
    try {
      server = await startServer(
        {
          ...db.env,
          POSTHORN_SANDBOX: '0',
          POSTHORN_HOSTNAME: 'mail.posthorn.test',
          POSTHORN_LISTEN_HOST: '127.0.0.1',
        },
        { args: ['--roles', 'api'] },
      );
      // The API listens now, so the current month already has its partition (SQLite has none).
      const names = dialect === 'postgres' ? (await listEventPartitions(db.db)).map((p) => p.name) : [];
      assert.equal(names.includes(partitionFor(Date.now()).name), dialect === 'postgres', names.join(', '));
      assert.equal(await server.stop(), 0);
    } finally {
      await server?.kill9();
      await db.close();
    }
  });
}
