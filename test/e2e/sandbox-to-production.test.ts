// The README's path: the quick start (sandbox), then "Running for real" in the same folder. The
// production server must not honour the sandbox's API key or SMTP login, and the sandbox's mail
// still queued must never reach the internet (here: a sink MX that example.org's MX points at).
// A later sandbox start in the folder prints new credentials.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { runCli } from '../helpers/run-cli.js';
import { startSinkMx, type SinkMx } from '../helpers/sink-mx.js';
import { startServer, type RunningServer } from '../helpers/spawn-server.js';

interface Welcome {
  key: string;
  smtp: { username: string; password: string };
}

function post(url: string, ca: string, key: string, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${url}/v1/send`,
      {
        method: 'POST',
        ca,
        agent: false,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      },
      (res) => {
        let data = '';
        res
          .setEncoding('utf8')
          .on('data', (d: string) => {
            data += d;
          })
          .on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function until<T>(what: string, ms: number, check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The sandbox welcome `serve --json` prints on stdout, once it is complete. */
function welcome(server: RunningServer): Promise<Welcome> {
  return until('the sandbox welcome', 15_000, () => {
    try {
      const w = (
        JSON.parse(server.stdout()) as { sandbox: { key: string; smtp: { username: string; password: string } } }
      ).sandbox;
      return { key: w.key, smtp: { username: w.smtp.username, password: w.smtp.password } };
    } catch {
      return undefined;
    }
  });
}

/** A JSON log line of the server's stderr with message `msg`, once it is there. */
function logLine(server: RunningServer, msg: string): Promise<Record<string, unknown>> {
  return until(`log line "${msg}"`, 15_000, () =>
    server
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((l) => l.msg === msg || (typeof l.msg === 'string' && l.msg.startsWith(msg))),
  );
}

describe('from the sandbox to production in the same folder', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'posthorn-readme-'));
  const servers: RunningServer[] = [];
  let dns: DnsServer | undefined;
  let sink: SinkMx | undefined;
  after(async () => {
    await Promise.all(servers.map((s) => s.kill9()));
    await sink?.close();
    await dns?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('the production start revokes the sandbox credentials and keeps its queued mail local', async () => {
    sink = await startSinkMx();
    dns = await startDnsServer({ 'example.org': { MX: [{ exchange: '127.0.0.1', priority: 10 }] } });

    // Quick start, without the delivery role so the message sent stays queued, as mail does when
    // the sandbox is stopped before it got to it.
    const sandbox = await startServer({ POSTHORN_DATA_DIR: dataDir }, { args: ['--roles', 'api,smtp', '--json'] });
    servers.push(sandbox);
    const first = await welcome(sandbox);
    const sandboxCa = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
    const queued = await post(sandbox.url, sandboxCa, first.key, {
      from: 'hello@sandbox.posthorn.test',
      to: 'someone@example.org',
      subject: 'Hi',
      text: 'hello',
    });
    assert.equal(queued.status, 202, queued.body);
    assert.equal(await sandbox.stop(), 0);

    // "Running for real", same folder.
    const production = {
      POSTHORN_DATA_DIR: dataDir,
      POSTHORN_HOSTNAME: 'mail.example.test',
      POSTHORN_LISTEN_HOST: '127.0.0.1',
      POSTHORN_DNS_SERVERS: dns.address,
      POSTHORN_MX_PORT: String(sink.port),
    };
    const server = await startServer(production);
    servers.push(server);
    const retired = await logLine(server, 'this data dir was used by the sandbox');
    assert.deepEqual(
      [retired.domains, retired.apiKeysRevoked, retired.smtpLoginsRevoked, retired.queued],
      [['sandbox.posthorn.test'], 1, 1, 1],
    );
    const ca = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8'); // regenerated for the new hostname
    const refused = await post(server.url, ca, first.key, {
      from: 'hello@sandbox.posthorn.test',
      to: 'someone@example.org',
      subject: 'Hi',
      text: 'hello',
    });
    assert.equal(refused.status, 401, refused.body);

    const relay = await logLine(server, 'smtp relay listening');
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: relay.submission as number,
      secure: false,
      requireTLS: true,
      tls: { ca },
      auth: { user: first.smtp.username, pass: first.smtp.password },
    });
    await assert.rejects(transport.verify(), (err: { responseCode?: number }) => err.responseCode === 535);
    transport.close();

    // The queued message ends in the local sandbox mailbox; nothing reached the sink MX.
    const cli = (...args: string[]) => runCli([...args, '--json'], production);
    const kept = await until('the queued message in the sandbox mailbox', 20_000, async () => {
      const list = await cli('sandbox', 'list');
      return list.json?.messages?.length === 1 ? (list.json.messages[0] as { to: string[] }) : undefined;
    });
    assert.deepEqual(kept.to, ['someone@example.org']);
    assert.equal(sink.messages.length, 0);
    assert.equal(sink.connections, 0, 'no connection was made to the MX');
    assert.equal(await server.stop(), 0);

    // A later sandbox start in the folder makes and prints new credentials, which work there.
    const again = await startServer({ POSTHORN_DATA_DIR: dataDir }, { args: ['--json'] });
    servers.push(again);
    const second = await welcome(again);
    assert.notEqual(second.key, first.key);
    const sandboxCa2 = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
    assert.equal(
      (
        await post(again.url, sandboxCa2, first.key, {
          from: 'hello@sandbox.posthorn.test',
          to: 'a@example.org',
          subject: 'x',
          text: 'x',
        })
      ).status,
      401,
    );
    assert.equal(
      (
        await post(again.url, sandboxCa2, second.key, {
          from: 'hello@sandbox.posthorn.test',
          to: 'a@example.org',
          subject: 'x',
          text: 'x',
        })
      ).status,
      202,
    );
    assert.equal(await again.stop(), 0);
  });
});
