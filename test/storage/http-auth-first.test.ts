import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/build-app.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { message, postSend } from '../helpers/send-client.js';
import { rawConnect, requestHead, until } from '../helpers/raw-http.js';

const CHALLENGE = 'Bearer realm="posthorn"';
const UNKNOWN_KEY = `ph_00000000_${'A'.repeat(43)}`;

for (const dialect of testDialects()) {
  describe(`HTTP API authenticates from the headers, before the body (${dialect})`, () => {
    let deps: TestDeps;
    let app: FastifyInstance;
    let port: number;
    let s: Seeded;
    before(async () => {
      deps = await createTestDeps(dialect);
      app = buildApp(deps);
      await app.listen({ host: '127.0.0.1', port: 0 });
      port = (app.server.address() as AddressInfo).port;
      s = await seedDomain(deps, { domain: 'acme.test', rateLimit: 10_000 });
    });
    after(async () => {
      await app.close();
      await deps.close();
    });

    for (const [what, auth, challenge] of [
      ['no Authorization header', undefined, CHALLENGE],
      ['an unknown key', `Bearer ${UNKNOWN_KEY}`, `${CHALLENGE}, error="invalid_token"`],
    ] as const) {
      test(`${what}: 401 as soon as the headers are in, none of a 9 MB body read, connection closed`, async () => {
        const conn = await rawConnect(port);
        try {
          // Headers announce 9 MB, and only 10 bytes of it follow: the old code waited for the rest.
          await conn.write(
            requestHead('POST', '/v1/send', {
              'Content-Type': 'application/json',
              'Content-Length': 9_000_000,
              ...(auth ? { Authorization: auth } : {}),
            }) + '{"from":"a',
          );
          const res = await until('the 401', () => conn.response(), 5_000);
          assert.equal(res.status, 401);
          assert.equal(res.headers['www-authenticate'], challenge);
          assert.equal(res.headers.connection, 'close');
          assert.deepEqual(JSON.parse(res.body), {
            error: {
              type: 'invalid_key',
              message: 'The API key is missing, malformed, revoked or not valid.',
              docs: '/docs/errors#invalid_key',
            },
          });
          await until('the server to close the connection', () => conn.closed(), 5_000);
        } finally {
          conn.destroy();
        }
      });
    }

    test('a small body with a bad key: 401 at once, the rest is discarded, and the connection serves the next request', async () => {
      const body = JSON.stringify(message('acme.test'));
      const conn = await rawConnect(port);
      try {
        await conn.write(
          requestHead('POST', '/v1/send', {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            Authorization: `Bearer ${UNKNOWN_KEY}`,
          }) + body.slice(0, 10),
        );
        const res = await until('the 401', () => conn.response(), 5_000);
        assert.equal(res.status, 401);
        assert.equal(res.headers.connection, 'keep-alive');
        await conn.write(body.slice(10) + requestHead('GET', '/healthz', {}));
        await until('the second response', () => conn.received().split('HTTP/1.1 ').length === 3, 5_000);
        assert.match(conn.received(), /HTTP\/1\.1 200 OK[^]*"status":"ok"/);
        assert.equal(conn.closed(), false);
      } finally {
        conn.destroy();
      }
    });

    for (const [what, method, path, status] of [
      ['an unknown route', 'POST', '/v1/nope', 404],
      ['a known path with another method', 'PUT', '/v1/send', 404],
      ['the unsubscribe POST (public, small bodies only)', 'POST', '/u/some-token', 413],
    ] as const) {
      test(`${what}: answered from the headers, none of a 9 MB body read, connection closed`, async () => {
        const conn = await rawConnect(port);
        try {
          await conn.write(
            requestHead(method, path, { 'Content-Type': 'application/json', 'Content-Length': 9_000_000 }) + '{"a',
          );
          const res = await until(`the ${status}`, () => conn.response(), 5_000);
          assert.equal(res.status, status);
          assert.equal(res.headers.connection, 'close');
          await until('the server to close the connection', () => conn.closed(), 5_000);
        } finally {
          conn.destroy();
        }
      });
    }

    test('Expect: 100-continue: a bad key gets its 401 instead of 100 Continue; a good key gets 100, then its answer', async () => {
      const body = JSON.stringify(message('acme.test'));
      const head = (auth: string) =>
        requestHead('POST', '/v1/send', {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          Expect: '100-continue',
          Authorization: auth,
        });
      const bad = await rawConnect(port);
      try {
        await bad.write(head(`Bearer ${UNKNOWN_KEY}`));
        const res = await until('the 401', () => bad.response(), 5_000);
        assert.equal(res.status, 401);
        assert.ok(!bad.received().includes('100 Continue'));
      } finally {
        bad.destroy();
      }
      const good = await rawConnect(port);
      try {
        await good.write(head(`Bearer ${s.key}`));
        await until('100 Continue', () => good.received().startsWith('HTTP/1.1 100 Continue\r\n\r\n'), 5_000);
        await good.write(body);
        const final = await until(
          'the 202',
          () => {
            const rest = good.received().slice('HTTP/1.1 100 Continue\r\n\r\n'.length);
            return rest.includes('\r\n\r\n') && /^HTTP\/1\.1 (\d+)/.exec(rest)?.[1];
          },
          5_000,
        );
        assert.equal(final, '202');
      } finally {
        good.destroy();
      }
    });

    test('a Content-Type that is no media type: 401 first without a key, then a 400 naming Content-Type', async () => {
      for (const ct of ['foo', '']) {
        const anon = await app.inject({
          method: 'POST',
          url: '/v1/send',
          headers: { 'content-type': ct },
          payload: JSON.stringify(message('acme.test')),
        });
        assert.equal(anon.statusCode, 401, `${JSON.stringify(ct)}: ${anon.body}`);
        assert.equal(anon.headers['www-authenticate'], CHALLENGE);
        const keyed = await postSend(app, s.key, message('acme.test'), { 'content-type': ct });
        assert.equal(keyed.status, 400);
        assert.equal(keyed.body.error.type, 'invalid_request');
        assert.equal(keyed.body.error.field, 'Content-Type');
        assert.match(keyed.body.error.message, /Content-Type/);
      }
    });

    test('every 401 carries WWW-Authenticate (RFC 6750 §3), invalid_token only when a token was sent', async () => {
      const cases: [Record<string, string>, string][] = [
        [{}, CHALLENGE],
        [{ authorization: 'Basic YTpi' }, CHALLENGE],
        [{ authorization: 'Bearer sk_live_123' }, `${CHALLENGE}, error="invalid_token"`],
        [{ authorization: `Bearer ${UNKNOWN_KEY}` }, `${CHALLENGE}, error="invalid_token"`],
        [{ authorization: `Bearer ${s.key} extra` }, `${CHALLENGE}, error="invalid_token"`],
      ];
      for (const [headers, challenge] of cases) {
        for (const [method, url] of [
          ['POST', '/v1/send'],
          ['GET', '/v1/events'],
          ['GET', '/v1/domain'],
        ] as const) {
          const res = await app.inject({
            method,
            url,
            headers: { ...headers, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
            ...(method === 'POST' ? { payload: '{}' } : {}),
          });
          assert.equal(res.statusCode, 401, `${method} ${url} ${JSON.stringify(headers)}`);
          assert.equal(res.headers['www-authenticate'], challenge, `${method} ${url} ${JSON.stringify(headers)}`);
          assert.equal(JSON.parse(res.body).error.type, 'invalid_key');
        }
      }
    });

    test('a valid key still sends over a real connection, and keyed GETs answer', async () => {
      const conn = await rawConnect(port);
      let id: string;
      try {
        const body = JSON.stringify(message('acme.test'));
        await conn.write(
          requestHead('POST', '/v1/send', {
            'Content-Type': 'application/json',
            'Content-Length': Buffer.byteLength(body),
            Authorization: `Bearer ${s.key}`,
          }) + body,
        );
        const res = await until('the 202', () => conn.response());
        assert.equal(res.status, 202, res.body);
        assert.equal(res.headers.connection, 'keep-alive');
        id = (JSON.parse(res.body) as { id: string }).id;
      } finally {
        conn.destroy();
      }
      const events = await app.inject({
        method: 'GET',
        url: `/v1/events?message_id=${id}`,
        headers: { authorization: `Bearer ${s.key}` },
      });
      assert.equal(events.statusCode, 200);
      assert.equal(JSON.parse(events.body).total, 1);
      const domain = await app.inject({
        method: 'GET',
        url: '/v1/domain',
        headers: { authorization: `Bearer ${s.key}` },
      });
      assert.equal(domain.statusCode, 200);
      assert.equal(JSON.parse(domain.body).domain, 'acme.test');
    });

    test('public routes need no key: /healthz, the unsubscribe POST; /metrics is not on the API port', async () => {
      assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
      assert.equal((await app.inject({ method: 'GET', url: '/metrics' })).statusCode, 404);
      const unsub = await app.inject({
        method: 'POST',
        url: '/u/not-a-token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      assert.equal(unsub.statusCode, 400); // the token is bad, which is the route's own answer, not a 401
      assert.equal(unsub.headers['www-authenticate'], undefined);
    });
  });
}
