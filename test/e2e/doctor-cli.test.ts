// `posthorn doctor` (docs/deploy.md, "Checking the set-up") as an operator runs it: the real CLI
// against a loopback DNS server holding the operator's zone, a loopback SMTP greeter standing in
// for a provider's MX, and a real database of each kind.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { createCliDb, type CliDb } from '../helpers/cli-db.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { runCli } from '../helpers/run-cli.js';
import { testDialects } from '../helpers/test-db.js';

interface Check {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  found: string;
  fix?: string;
}

const HOST = 'mail.posthorn.test';

/** A stand-in MX on loopback: greets with 220 and takes QUIT, as a real MX would. */
function startGreeter(): Promise<{ port: number; greeted: () => number; close(): Promise<void> }> {
  let greeted = 0;
  const server = net.createServer((socket) => {
    greeted++;
    socket.on('error', () => undefined);
    socket.write('220 mx.probe.test ESMTP ready\r\n');
    socket.on('data', (d) => {
      if (/^QUIT/i.test(d.toString())) socket.end('221 bye\r\n');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        greeted: () => greeted,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    ),
  );
}

const byName = (checks: Check[], name: string): Check => {
  const found = checks.find((c) => c.name === name);
  assert.ok(found, `no check named ${name} in ${checks.map((c) => c.name).join(', ')}`);
  return found;
};

let dns: DnsServer;
let greeter: Awaited<ReturnType<typeof startGreeter>>;
let certDir: string;
before(async () => {
  dns = await startDnsServer({});
  greeter = await startGreeter();
  certDir = mkdtempSync(join(tmpdir(), 'posthorn-doctor-'));
  const pem = await generate([{ name: 'commonName', value: HOST }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: HOST }] }],
  });
  writeFileSync(join(certDir, 'cert.pem'), pem.cert);
  writeFileSync(join(certDir, 'key.pem'), pem.private);
});
after(async () => {
  await dns?.close();
  await greeter?.close();
  rmSync(certDir, { recursive: true, force: true });
});

for (const dialect of testDialects()) {
  describe(`posthorn doctor (${dialect})`, () => {
    let t: CliDb;
    before(async () => {
      t = await createCliDb(dialect);
      // The database exists and is current, as after a first `posthorn serve`.
      assert.equal((await t.cli('account', 'create', 'doctor-probe')).code, 0);
    });
    after(() => t.close());

    const doctor = (env: Record<string, string> = {}) =>
      runCli(['doctor', '--probe', 'probe.test', '--json'], {
        ...t.env,
        POSTHORN_SANDBOX: '0',
        POSTHORN_HOSTNAME: HOST,
        POSTHORN_DNS_SERVERS: dns.address,
        POSTHORN_MX_PORT: String(greeter.port),
        POSTHORN_TLS_CERT: join(certDir, 'cert.pem'),
        POSTHORN_TLS_KEY: join(certDir, 'key.pem'),
        ...env,
      });

    test('a missing PTR fails with the fix; a correct SPF include host, bounce MX, certificate, database and port 25 pass', async () => {
      Object.assign(dns.zone, {
        [HOST]: { A: ['127.0.0.1'] },
        [`spf.${HOST}`]: { TXT: ['v=spf1 ip4:127.0.0.0/8 -all'] },
        [`bounce.${HOST}`]: { MX: [{ exchange: HOST, priority: 10 }] },
        'probe.test': { MX: [{ exchange: 'mx.probe.test', priority: 5 }] },
        'mx.probe.test': { A: ['127.0.0.1'] },
      });
      delete dns.zone['1.0.0.127.in-addr.arpa'];
      const greetedBefore = greeter.greeted();
      const r = await doctor();
      assert.equal(r.code, 1, r.stderr);
      const out = JSON.parse(r.stdout) as { ok: boolean; checks: Check[] };
      assert.equal(out.ok, false);
      const ptr = byName(out.checks, 'reverse DNS of 127.0.0.1');
      assert.equal(ptr.status, 'fail');
      assert.match(ptr.found, /has no PTR record/);
      assert.match(ptr.fix ?? '', /set its PTR record to mail\.posthorn\.test/);
      assert.equal(byName(out.checks, 'hostname').status, 'ok');
      const spf = byName(out.checks, 'SPF include host');
      assert.equal(spf.status, 'ok', spf.found);
      assert.equal(byName(out.checks, 'bounce host MX').status, 'ok');
      assert.equal(byName(out.checks, 'TLS certificate').status, 'ok');
      assert.equal(byName(out.checks, 'database').status, 'ok', byName(out.checks, 'database').found);
      const port25 = byName(out.checks, 'outbound port 25');
      assert.equal(port25.status, 'ok', port25.found);
      assert.match(port25.found, /220 mx\.probe\.test ESMTP ready/);
      assert.ok(greeter.greeted() > greetedBefore, 'the probe connected to the stand-in MX');
      assert.match(r.stderr, /1 check\(s\) failed: reverse DNS of 127\.0\.0\.1/);
    });

    test('with the PTR published every check passes and the exit status is 0', async () => {
      dns.zone['1.0.0.127.in-addr.arpa'] = { PTR: [HOST] };
      const r = await doctor();
      const out = JSON.parse(r.stdout) as { ok: boolean; checks: Check[] };
      assert.deepEqual(
        out.checks.filter((c) => c.status !== 'ok'),
        [],
      );
      assert.equal(r.code, 0, r.stderr);
    });

    test('an SPF record that leaves the server out, a PTR naming another host and a closed port 25 each fail', async () => {
      dns.zone['1.0.0.127.in-addr.arpa'] = { PTR: ['other.example'] };
      dns.zone[`spf.${HOST}`] = { TXT: ['v=spf1 ip4:192.0.2.0/24 -all'] };
      const closed = await new Promise<number>((resolve) => {
        const s = net.createServer();
        s.listen(0, '127.0.0.1', () => {
          const { port } = s.address() as net.AddressInfo;
          s.close(() => resolve(port));
        });
      });
      const r = await doctor({ POSTHORN_MX_PORT: String(closed) });
      assert.equal(r.code, 1);
      const out = JSON.parse(r.stdout) as { checks: Check[] };
      assert.match(byName(out.checks, 'reverse DNS of 127.0.0.1').found, /is other\.example, not mail\.posthorn\.test/);
      const spf = byName(out.checks, 'SPF include host');
      assert.equal(spf.status, 'fail');
      assert.match(spf.found, /does not authorise 127\.0\.0\.1/);
      assert.match(spf.fix ?? '', /v=spf1 ip4:127\.0\.0\.1 -all/);
      const port25 = byName(out.checks, 'outbound port 25');
      assert.equal(port25.status, 'fail');
      assert.match(port25.found, /ECONNREFUSED/);
      assert.match(port25.fix ?? '', /POSTHORN_RELAY_HOST/);
    });
  });
}

describe('posthorn doctor without a database or a certificate of its own', () => {
  test('names what is missing and how to fix it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'posthorn-doctor-empty-'));
    try {
      dns.zone['probe.test'] = { MX: [{ exchange: 'mx.probe.test', priority: 5 }] };
      dns.zone['mx.probe.test'] = { A: ['127.0.0.1'] };
      const r = await runCli(['doctor', '--probe', 'probe.test', '--json'], {
        POSTHORN_SANDBOX: '0',
        POSTHORN_HOSTNAME: 'nowhere.posthorn.test',
        POSTHORN_DATA_DIR: dataDir,
        POSTHORN_DNS_SERVERS: dns.address,
        POSTHORN_MX_PORT: String(greeter.port),
      });
      assert.equal(r.code, 1);
      const out = JSON.parse(r.stdout) as { checks: Check[] };
      assert.match(byName(out.checks, 'hostname').found, /nowhere\.posthorn\.test has no A or AAAA record/);
      assert.match(byName(out.checks, 'database').found, /no database yet at .*posthorn\.sqlite/);
      const cert = byName(out.checks, 'TLS certificate');
      assert.equal(cert.status, 'warn');
      assert.match(cert.fix ?? '', /POSTHORN_TLS_CERT/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('--probe must be a domain name', async () => {
    const r = await runCli(['doctor', '--probe', 'not a domain'], { POSTHORN_DNS_SERVERS: dns.address });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /--probe must be a domain name/);
  });
});
