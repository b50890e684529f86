import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import net from 'node:net';
import type { LookupAddress } from 'node:dns';
import { randomBytes } from 'node:crypto';
import { generate } from 'selfsigned';
import { Webhook } from 'standardwebhooks';
import {
  checkedLookup,
  postWebhook,
  webhookAgent,
  type WebhookFailure,
  type WebhookResponse,
} from '../../../src/webhooks/post-webhook.js';
import { signWebhook } from '../../../src/webhooks/sign-webhook.js';
import { newWebhookSecret } from '../../../src/webhooks/webhook-secret.js';
import { createResolver } from '../../../src/domains/create-resolver.js';
import { resolverLookup } from '../../../src/delivery/smtp/resolver-lookup.js';
import { startDnsServer, type DnsServer } from '../../helpers/dns-server.js';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A loopback HTTP server that records requests; `respond` decides the answer. */
async function startServer(respond: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const received: Received[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      respond(req, res);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const close = () => {
    server.closeAllConnections();
    return new Promise<void>((r) => server.close(() => r()));
  };
  return { port, received, connections: () => connections, close, closeIdle: () => server.closeIdleConnections() };
}

/** A lookup that answers from a fixed table, counting calls; stands in for a (hostile) DNS. */
function stubLookup(table: Record<string, string[]>) {
  const calls: string[] = [];
  const lookup: net.LookupFunction = (hostname, options, callback) => {
    calls.push(hostname);
    const addresses: LookupAddress[] = (table[hostname] ?? []).map((address) => ({
      address,
      family: net.isIP(address),
    }));
    if (addresses.length === 0)
      return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
    if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
  return { lookup, calls };
}

const isError = (r: WebhookResponse | WebhookFailure): r is WebhookFailure => 'error' in r;
const errorOf = (r: WebhookResponse | WebhookFailure) => {
  assert.ok(isError(r), `expected an error, got ${JSON.stringify(r)}`);
  return r.error;
};
const responseOf = (r: WebhookResponse | WebhookFailure) => {
  if (isError(r)) assert.fail(`expected a response, got ${r.error}`);
  return r;
};
const post = { headers: {}, body: '{"id":"evt_1"}', allowPrivate: false };

let sink: Awaited<ReturnType<typeof startServer>>;
before(async () => {
  sink = await startServer((_req, res) => res.writeHead(200).end('ok'));
});
after(() => sink.close());

test('IP-literal targets that are not public are refused at once, before any connect or lookup', async (t) => {
  const targets = [
    `http://127.0.0.1:${sink.port}/hook`,
    `https://127.0.0.1:${sink.port}/hook`,
    'http://10.0.0.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    `http://[::ffff:127.0.0.1]:${sink.port}/hook`,
    `https://[::ffff:7f00:1]:${sink.port}/`,
    'https://[::1]/',
    'https://[fd00:ec2::254]/',
    'http://2130706433/',
    'https://0x7f.1/',
  ];
  for (const url of targets) {
    await t.test(url, async () => {
      const { lookup, calls } = stubLookup({});
      // Settles before a macrotask could run: nothing was sent on the network.
      const result = await Promise.race([
        postWebhook(url, { ...post, lookup }),
        new Promise<'late'>((r) => setImmediate(() => r('late'))),
      ]);
      assert.notEqual(result, 'late');
      assert.match(errorOf(result as WebhookFailure), /refused: .* is not a public address/);
      assert.deepEqual(calls, []);
    });
  }
  assert.equal(sink.connections(), 0);
});

test('a name that resolves to 127.0.0.1 is refused inside the lookup the socket uses, so nothing connects', async () => {
  const { lookup, calls } = stubLookup({ 'evil.test': ['127.0.0.1'] });
  const result = await postWebhook(`https://evil.test:${sink.port}/hook`, { ...post, lookup });
  assert.match(errorOf(result), /refused: evil\.test resolves to 127\.0\.0\.1/);
  assert.deepEqual(calls, ['evil.test']);
  assert.equal(sink.connections(), 0);
});

test('an answer mixing a public and a private address is refused', async () => {
  const { lookup } = stubLookup({ 'mixed.test': ['93.184.216.34', '::ffff:10.0.0.1'] });
  assert.match(
    errorOf(await postWebhook('https://mixed.test/hook', { ...post, lookup })),
    /resolves to ::ffff:10\.0\.0\.1/,
  );
});

test('a name a real DNS server resolves to 127.0.0.1 is refused (resolver lookup)', async () => {
  const dns: DnsServer = await startDnsServer({ 'rebind.posthorn.test': { A: ['127.0.0.1'] } });
  try {
    const lookup = resolverLookup(createResolver([dns.address], { timeoutMs: 1000, tries: 1 }));
    const result = await postWebhook(`https://rebind.posthorn.test:${sink.port}/hook`, { ...post, lookup });
    assert.match(errorOf(result), /resolves to 127\.0\.0\.1/);
    assert.equal(sink.connections(), 0);
  } finally {
    await dns.close();
  }
});

test('http:// is refused without allowPrivate, even to a name', async () => {
  const { lookup, calls } = stubLookup({ 'example.test': ['93.184.216.34'] });
  assert.match(errorOf(await postWebhook('http://example.test/hook', { ...post, lookup })), /must use https/);
  assert.deepEqual(calls, []);
  assert.match(
    errorOf(await postWebhook('ftp://example.test/hook', { ...post, allowPrivate: true })),
    /must use https/,
  );
  assert.match(errorOf(await postWebhook('not a url', post)), /invalid webhook URL/);
});

test('a 302 to 127.0.0.1 is returned as a status and never followed', async () => {
  const target = await startServer((_req, res) => res.writeHead(200).end('internal'));
  const redirector = await startServer((_req, res) =>
    res.writeHead(302, { location: `http://127.0.0.1:${target.port}/admin` }).end('moved'),
  );
  try {
    // The first hop is a public-looking name; allowPrivate only so the test can reach loopback.
    const { lookup } = stubLookup({ 'hooks.customer.test': ['127.0.0.1'] });
    const result = responseOf(
      await postWebhook(`http://hooks.customer.test:${redirector.port}/hook`, { ...post, allowPrivate: true, lookup }),
    );
    assert.equal(result.status, 302);
    assert.equal(result.responseSnippet, 'moved');
    assert.equal(redirector.received.length, 1);
    assert.equal(target.received.length, 0);
    assert.equal(target.connections(), 0);
  } finally {
    await Promise.all([target.close(), redirector.close()]);
  }
});

test('with allowPrivate off, a public https endpoint answering 302 to 127.0.0.1 is not followed', async () => {
  // The endpoint is https on a name that resolves to a public address, so every check passes; the
  // agent then carries that connection to a loopback server standing in for the public host (the
  // machine has no route to the internet). Its 302 points at a second server on 127.0.0.1.
  const pems = await generate([{ name: 'commonName', value: 'hooks.customer.test' }], {
    keyType: 'rsa',
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'hooks.customer.test' }] }],
  });
  const inside = await startServer((_req, res) => res.writeHead(200).end('internal'));
  const redirector = https.createServer({ cert: pems.cert, key: pems.private }, (req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(302, { location: `http://127.0.0.1:${inside.port}/admin` }).end('moved'));
  });
  await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
  const port = (redirector.address() as net.AddressInfo).port;
  const { lookup, calls } = stubLookup({ 'hooks.customer.test': ['93.184.216.34'] });
  const checked = checkedLookup(false, lookup)!;
  let checkedAddress = '';
  class PublicHostAgent extends https.Agent {
    override createConnection(options: tls.ConnectionOptions): net.Socket {
      // The real check runs on the public answer; only then is the socket pointed at loopback.
      const toLoopback: net.LookupFunction = (hostname, opts, callback) =>
        checked(hostname, { ...opts, all: false }, (err, address, family) => {
          if (err) return callback(err, '', 4);
          checkedAddress = address as string;
          if (opts.all)
            (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
          else callback(null, '127.0.0.1', family);
        });
      return tls.connect({ ...options, port, lookup: toLoopback, ca: pems.cert, servername: 'hooks.customer.test' });
    }
  }
  const agent = new PublicHostAgent({ keepAlive: false });
  try {
    const result = responseOf(
      await postWebhook('https://hooks.customer.test/hook', { ...post, allowPrivate: false, lookup, agent }),
    );
    assert.equal(result.status, 302);
    assert.equal(result.responseSnippet, 'moved');
    assert.equal(checkedAddress, '93.184.216.34', 'the address check saw the public answer');
    assert.deepEqual(calls, ['hooks.customer.test'], 'the redirect target was never looked up or connected to');
    assert.equal(inside.received.length, 0);
    assert.equal(inside.connections(), 0);
  } finally {
    agent.destroy();
    redirector.closeAllConnections();
    await Promise.all([inside.close(), new Promise<void>((r) => redirector.close(() => r()))]);
  }
});

test('with allowPrivate a signed POST to loopback delivers the body and headers', async () => {
  const server = await startServer((_req, res) => res.writeHead(204).end());
  try {
    const secret = newWebhookSecret(randomBytes);
    const body = JSON.stringify({ id: 'evt_1', event: 'delivered', tags: ['ü'] });
    const headers = {
      ...signWebhook({ id: 'evt_1', timestampSeconds: Math.floor(Date.now() / 1000), body, secrets: [secret] }),
    };
    const result = responseOf(
      await postWebhook(`http://127.0.0.1:${server.port}/hooks/in?x=1`, { headers, body, allowPrivate: true }),
    );
    assert.equal(result.status, 204);
    assert.equal(result.responseSnippet, '');
    assert.ok(result.durationMs >= 0);
    const [got] = server.received;
    assert.ok(got);
    assert.equal(got.method, 'POST');
    assert.equal(got.url, '/hooks/in?x=1');
    assert.equal(got.body, body);
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(got.headers['content-length'], String(Buffer.byteLength(body)));
    assert.equal(got.headers['webhook-id'], 'evt_1');
    const received = {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    };
    assert.deepEqual(new Webhook(secret).verify(got.body, received), JSON.parse(body));
  } finally {
    await server.close();
  }
});

test('a non-2xx is a result with the first 500 characters of the body', async () => {
  const server = await startServer((_req, res) => res.writeHead(500).end('é'.repeat(3000)));
  try {
    const result = responseOf(await postWebhook(`http://127.0.0.1:${server.port}/`, { ...post, allowPrivate: true }));
    assert.equal(result.status, 500);
    assert.equal(result.responseSnippet, 'é'.repeat(500));
  } finally {
    await server.close();
  }
});

test('a server that never answers gives a timeout error after timeoutMs', async () => {
  const sockets = new Set<net.Socket>();
  const silent = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    const port = (silent.address() as net.AddressInfo).port;
    const started = performance.now();
    const result = await postWebhook(`http://127.0.0.1:${port}/`, { ...post, allowPrivate: true, timeoutMs: 200 });
    assert.match(errorOf(result), /timed out after 200 ms/);
    assert.ok(performance.now() - started < 5000);
    assert.equal(sockets.size, 1);
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => silent.close(() => r()));
  }
});

test('a refused connection is an error, not a throw', async () => {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((r) => probe.close(() => r()));
  assert.match(
    errorOf(await postWebhook(`http://127.0.0.1:${port}/`, { ...post, allowPrivate: true })),
    /ECONNREFUSED/,
  );
});

test('a keep-alive agent reuses one connection for POSTs in sequence', async () => {
  const server = await startServer((_req, res) => res.writeHead(200).end('ok'));
  const agent = webhookAgent('http:', checkedLookup(true, undefined), 8);
  try {
    for (let i = 0; i < 5; i++) {
      assert.equal(
        responseOf(await postWebhook(`http://127.0.0.1:${server.port}/`, { ...post, allowPrivate: true, agent }))
          .status,
        200,
      );
    }
    assert.equal(server.received.length, 5);
    assert.equal(server.connections(), 1);
  } finally {
    agent.destroy();
    await server.close();
  }
});

test('an agent built on the checked lookup refuses a name resolving to 127.0.0.1, whatever lookup the request names', async () => {
  const { lookup } = stubLookup({ 'evil.test': ['127.0.0.1'] });
  const agent = webhookAgent('https:', checkedLookup(false, lookup), 8);
  try {
    // The agent's own lookup wins over the request's, so every socket it opens is checked.
    const result = await postWebhook(`https://evil.test:${sink.port}/hook`, {
      ...post,
      agent,
      lookup: stubLookup({ 'evil.test': ['93.184.216.34'] }).lookup,
    });
    assert.match(errorOf(result), /refused: evil\.test resolves to 127\.0\.0\.1/);
    assert.equal(sink.connections(), 0);
  } finally {
    agent.destroy();
  }
});

test('a pooled socket the server closed while idle is retried once on a new connection', async () => {
  const server = await startServer((_req, res) => res.writeHead(200, { connection: 'keep-alive' }).end('ok'));
  const agent = webhookAgent('http:', checkedLookup(true, undefined), 8);
  try {
    assert.equal(
      responseOf(await postWebhook(`http://127.0.0.1:${server.port}/`, { ...post, allowPrivate: true, agent })).status,
      200,
    );
    // Close every server-side socket while the client still holds it in its pool.
    server.closeIdle();
    await new Promise<void>((resolve) => setImmediate(resolve));
    assert.equal(
      responseOf(await postWebhook(`http://127.0.0.1:${server.port}/`, { ...post, allowPrivate: true, agent })).status,
      200,
    );
    assert.equal(server.received.length, 2);
  } finally {
    agent.destroy();
    await server.close();
  }
});

test('aborting the signal ends a POST at once with an error', async () => {
  const sockets = new Set<net.Socket>();
  const silent = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => {});
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    const abort = new AbortController();
    const pending = postWebhook(`http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/`, {
      ...post,
      allowPrivate: true,
      signal: abort.signal,
    });
    while (sockets.size === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    abort.abort();
    assert.match(errorOf(await pending), /aborted/);
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => silent.close(() => r()));
  }
});
