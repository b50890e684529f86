// The sandbox's special recipients (docs/tracking.md, Sandbox) through a real `posthorn serve` in
// sandbox mode: open@, click@ and unsubscribe@ produce opened, clicked and unsubscribed events
// without the internet, and a restart between delivery and the action loses nothing. The pixel and
// the one-click POST also answer over HTTPS.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { startServer, type RunningServer } from '../helpers/spawn-server.js';
import { deliveredTokens } from '../../src/sandbox/sandbox-links.js';

function request(
  url: string,
  ca: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method: opts.method ?? 'GET', headers: opts.headers, ca, agent: false }, (res) => {
      let body = '';
      res
        .setEncoding('latin1')
        .on('data', (d: string) => {
          body += d;
        })
        .on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Polls `check` until it returns a value, or fails after `ms` with the last state. */
async function until<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('sandbox lifecycle through posthorn serve', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'posthorn-lifecycle-'));
  const servers: RunningServer[] = [];
  after(async () => {
    await Promise.all(servers.map((s) => s.kill9()));
    rmSync(dataDir, { recursive: true, force: true });
  });
  const env = { POSTHORN_SANDBOX: '1', POSTHORN_DATA_DIR: dataDir };

  test('open@, click@, unsubscribe@ produce their events, across a restart', async () => {
    let server = await startServer(env);
    servers.push(server);
    const key = await until('the welcome', 10_000, async () => /API key:\s+(ph_\S+)/.exec(server.stdout())?.[1]);
    const ca = readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8');
    // The welcome also prints the dashboard and its demo login, which signs in.
    const out = server.stdout();
    assert.match(out, /Dashboard:\s+https:\/\/\S+\//);
    assert.match(out, /Login:\s+demo@sandbox\.posthorn\.test/);
    const password = /Password:\s+(\S+)/.exec(out)?.[1];
    assert.ok(password, out);
    const signIn = await request(`${server.url}/v1/session`, ca, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@sandbox.posthorn.test', password }),
    });
    assert.equal(signIn.status, 200, signIn.body);
    const send = async (to: string[]) => {
      const res = await request(`${server.url}/v1/send`, ca, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          from: 'hello@sandbox.posthorn.test',
          to,
          subject: 'Lifecycle',
          html: '<p><a href="https://docs.example/start?x=1&amp;y=2">Start</a></p>',
        }),
      });
      assert.equal(res.status, 202, res.body);
      return (JSON.parse(res.body) as { id: string }).id;
    };
    const events = async (id: string) => {
      const res = await request(`${server.url}/v1/events?message_id=${id}&limit=100`, ca, {
        headers: { authorization: `Bearer ${key}` },
      });
      assert.equal(res.status, 200, res.body);
      return (JSON.parse(res.body) as { events: { event: string; to: string; details: Record<string, unknown> }[] })
        .events;
    };
    const has = async (id: string, to: string, event: string) =>
      (await events(id)).some((e) => e.to === to && e.event === event) ? true : undefined;

    const id = await send(['open@example.com', 'click@example.com', 'unsubscribe@example.com', 'reader@example.com']);
    // Delivered, then stopped before the prefetch window ends: open@ and click@ are still to act.
    await until('open@ delivered', 15_000, () => has(id, 'open@example.com', 'delivered'));
    assert.equal(await has(id, 'open@example.com', 'opened'), undefined);
    assert.equal(await server.stop(), 0);
    server = await startServer(env);
    servers.push(server);

    await until('unsubscribed', 15_000, () => has(id, 'unsubscribe@example.com', 'unsubscribed'));
    await until('opened', 15_000, () => has(id, 'open@example.com', 'opened'));
    await until('clicked', 15_000, () => has(id, 'click@example.com', 'clicked'));
    const all = await events(id);
    const clicked = all.find((e) => e.event === 'clicked')!;
    assert.equal(clicked.details.url, 'https://docs.example/start?x=1&y=2');
    assert.equal(all.filter((e) => e.to === 'click@example.com' && e.event === 'opened').length, 1);
    assert.equal(
      all
        .filter((e) => e.to === 'reader@example.com')
        .map((e) => e.event)
        .includes('opened'),
      false,
    );

    // The reader's copy, from the sandbox mailbox: its pixel and one-click POST over real HTTPS.
    const list = await runCli(['sandbox', 'list', '--json'], env);
    const entry = (JSON.parse(list.stdout) as { messages: { id: string; to: string[] }[] }).messages.find((m) =>
      m.to.includes('reader@example.com'),
    )!;
    const shown = await runCli(['sandbox', 'show', entry.id, '--json'], env);
    const tokens = deliveredTokens(Buffer.from((JSON.parse(shown.stdout) as { raw: string }).raw, 'utf8'));
    const pixel = await request(`${server.url}/t/o/${tokens.open}`, ca, { headers: { 'user-agent': 'Mozilla/5.0' } });
    assert.deepEqual([pixel.status, pixel.headers['content-type']], [200, 'image/gif']);
    const click = await request(`${server.url}/t/c/${tokens.clicks[0]}`, ca);
    assert.deepEqual([click.status, click.headers.location], [302, 'https://docs.example/start?x=1&y=2']);
    const post = await request(`${server.url}/u/${tokens.unsubscribe}`, ca, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    assert.equal(post.status, 200);
    const reader = (await events(id)).filter((e) => e.to === 'reader@example.com').map((e) => e.event);
    assert.deepEqual(
      ['opened', 'clicked', 'unsubscribed'].map((e) => reader.includes(e)),
      [true, true, true],
    );
    const opened = (await events(id)).find((e) => e.to === 'reader@example.com' && e.event === 'opened')!;
    assert.deepEqual(
      [opened.details.automated, opened.details.automated_reason],
      [true, 'apple_mail_privacy_protection'],
    );
    assert.equal(await server.stop(), 0);
  });
});
