// A renewed certificate goes into service without a restart (docs/deploy.md, "TLS certificates"):
// a real `posthorn serve` with operator certificate files; the files are replaced and SIGHUP sent,
// as `systemctl reload posthorn` does; new connections on the HTTPS API, both relay ports and the
// inbound MX then present the new certificate. A half-copied renewal (the new certificate with
// the old key) is refused and the old pair stays in service.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import crypto from 'node:crypto';
import { generate } from 'selfsigned';
import { watchTls } from '../../src/http/tls-reload.js';
import { startServer, type RunningServer } from '../helpers/spawn-server.js';

interface Pair {
  cert: string;
  key: string;
  fingerprint: string;
}

async function makePair(name: string): Promise<Pair> {
  const p = await generate([{ name: 'commonName', value: name }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
  });
  return { cert: p.cert, key: p.private, fingerprint: new crypto.X509Certificate(p.cert).fingerprint256 };
}

/** The certificate a fresh TLS connection to `port` is given. */
function implicitTlsFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerX509Certificate()?.fingerprint256 ?? '');
      socket.destroy();
    });
    socket.on('error', reject);
  });
}

/** The certificate a fresh SMTP session on `port` is given after EHLO and STARTTLS (RFC 3207). */
function startTlsFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const plain = net.connect({ host: '127.0.0.1', port });
    let buffer = '';
    let step = 0;
    plain.setEncoding('utf8');
    plain.on('error', reject);
    plain.on('data', (chunk: string) => {
      buffer += chunk;
      // A complete reply ends with a line whose code is followed by a space.
      if (!/(^|\r\n)\d{3} [^\r\n]*\r\n$/.test(buffer)) return;
      const reply = buffer;
      buffer = '';
      if (step === 0) plain.write('EHLO client.posthorn.test\r\n');
      else if (step === 1) plain.write('STARTTLS\r\n');
      else if (step === 2) {
        if (!reply.startsWith('220')) return reject(new Error(`STARTTLS refused: ${reply}`));
        plain.removeAllListeners('data');
        const secure = tls.connect({ socket: plain, rejectUnauthorized: false }, () => {
          resolve(secure.getPeerX509Certificate()?.fingerprint256 ?? '');
          secure.destroy();
        });
        secure.on('error', reject);
      }
      step++;
    });
  });
}

/** A port free right now, for the implicit-TLS relay (the harness turns it off by default). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** Resolves once `check` returns true; polls, as the server's log arrives on its own schedule. */
async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function logLines(server: RunningServer, msg: string): number {
  return server
    .stderr()
    .split('\n')
    .filter((l) => l.includes(`"msg":"${msg}"`)).length;
}

describe('TLS certificate renewal without a restart', () => {
  const dir = mkdtempSync(join(tmpdir(), 'posthorn-tls-'));
  const certPath = join(dir, 'fullchain.pem');
  const keyPath = join(dir, 'privkey.pem');
  let server: RunningServer;
  let ports: { api: number; submission: number; smtps: number; inbound: number };
  let first: Pair;
  let second: Pair;

  before(async () => {
    [first, second] = await Promise.all([makePair('mail.posthorn.test'), makePair('renewed.posthorn.test')]);
    writeFileSync(certPath, first.cert);
    writeFileSync(keyPath, first.key);
    const smtps = await freePort();
    server = await startServer({
      POSTHORN_DATA_DIR: join(dir, 'data'),
      POSTHORN_TLS_CERT: certPath,
      POSTHORN_TLS_KEY: keyPath,
      POSTHORN_SMTPS_PORT: String(smtps),
    });
    await until('the relay and the inbound MX', () => /inbound mx listening/.test(server.stderr()));
    const relay = JSON.parse(
      server
        .stderr()
        .split('\n')
        .find((l) => l.includes('smtp relay listening')) ?? '{}',
    ) as {
      submission: number;
    };
    const mx = JSON.parse(
      server
        .stderr()
        .split('\n')
        .find((l) => l.includes('inbound mx listening')) ?? '{}',
    ) as {
      port: number;
    };
    ports = { api: Number(new URL(server.url).port), submission: relay.submission, smtps, inbound: mx.port };
  });
  after(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function served(): Promise<Record<string, string>> {
    return {
      api: await implicitTlsFingerprint(ports.api),
      smtps: await implicitTlsFingerprint(ports.smtps),
      submission: await startTlsFingerprint(ports.submission),
      inbound: await startTlsFingerprint(ports.inbound),
    };
  }
  const everywhere = (fp: string) => ({ api: fp, smtps: fp, submission: fp, inbound: fp });

  test('every listener serves the certificate it started with', async () => {
    assert.deepEqual(await served(), everywhere(first.fingerprint));
  });

  test('a half-copied renewal (new certificate, old key) is refused and the old pair stays', async () => {
    writeFileSync(certPath, second.cert);
    const refusals = logLines(server, 'TLS renewal refused: the certificate in service stays');
    server.child.kill('SIGHUP');
    await until(
      'the refusal in the log',
      () => logLines(server, 'TLS renewal refused: the certificate in service stays') > refusals,
    );
    assert.match(server.stderr(), /is not the key of the certificate in/);
    assert.deepEqual(await served(), everywhere(first.fingerprint));
    assert.equal(server.child.exitCode, null, 'SIGHUP must not end the server');
  });

  test('the complete new pair is served on new connections after SIGHUP', async () => {
    writeFileSync(keyPath, second.key);
    const reloads = logLines(server, 'TLS certificate reloaded: new connections get the new one');
    server.child.kill('SIGHUP');
    await until(
      'the reload in the log',
      () => logLines(server, 'TLS certificate reloaded: new connections get the new one') > reloads,
    );
    assert.deepEqual(await served(), everywhere(second.fingerprint));
  });
});

describe('watchTls', () => {
  test('notices replaced files by itself, without a signal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'posthorn-tls-watch-'));
    const certPath = join(dir, 'cert.pem');
    const keyPath = join(dir, 'key.pem');
    const [a, b] = await Promise.all([makePair('a.posthorn.test'), makePair('b.posthorn.test')]);
    writeFileSync(certPath, a.cert);
    writeFileSync(keyPath, a.key);
    const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const source = watchTls(
      { tlsCert: certPath, tlsKey: keyPath },
      { cert: a.cert, key: a.key, generated: false, certPath },
      silent,
      { pollMs: 20, signals: false },
    );
    // The watcher never keeps a process alive by itself (persistent: false): this test must.
    const keepAlive = setInterval(() => undefined, 1000);
    try {
      const renewed = new Promise<string>((resolve) => source.subscribe((pair) => resolve(pair.cert)));
      // Replaced by a rename, as certbot and most deploy tools do.
      writeFileSync(`${keyPath}.new`, b.key);
      writeFileSync(`${certPath}.new`, b.cert);
      renameSync(`${keyPath}.new`, keyPath);
      renameSync(`${certPath}.new`, certPath);
      assert.equal(await renewed, b.cert);
      assert.equal(source.current().cert, b.cert);
    } finally {
      clearInterval(keepAlive);
      source.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('without operator files a reload changes nothing', async () => {
    const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const material = { cert: 'c', key: 'k', generated: true, certPath: '/nowhere' };
    const source = watchTls({ tlsCert: null, tlsKey: null }, material, silent, { signals: false });
    assert.equal(await source.reload(), false);
    assert.equal(source.current(), material);
    source.stop();
  });
});
