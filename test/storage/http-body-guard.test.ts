import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/build-app.js';
import { createBodyBudget, type BodyBudget } from '../../src/http/body-guard.js';
import { SEND_BODY_LIMIT } from '../../src/core/limits.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { message } from '../helpers/send-client.js';
import { rawConnect, requestHead, until, type RawConnection } from '../helpers/raw-http.js';

/** A valid send body of exactly `size` bytes (the html is padded). */
function sendBody(size: number): string {
  const base = JSON.stringify(message('acme.test', { html: '' }));
  return JSON.stringify(message('acme.test', { html: 'x'.repeat(size - base.length) }));
}

for (const dialect of testDialects()) {
  describe(`HTTP API deadlines, minimum body rate and body budget (${dialect})`, () => {
    let deps: TestDeps;
    let app: FastifyInstance;
    let port: number;
    let s: Seeded;
    let budget: BodyBudget;
    const open: RawConnection[] = [];
    const connect = async () => {
      const c = await rawConnect(port);
      open.push(c);
      return c;
    };
    const sendHead = (length: number | null, key: string | null = s.key) =>
      requestHead('POST', '/v1/send', {
        'Content-Type': 'application/json',
        ...(length === null ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': length }),
        ...(key === null ? {} : { Authorization: `Bearer ${key}` }),
      });

    before(async () => {
      deps = await createTestDeps(dialect, {
        env: {
          POSTHORN_HTTP_HEADERS_TIMEOUT: '500ms',
          POSTHORN_HTTP_BODY_TIMEOUT: '2s',
          POSTHORN_HTTP_MIN_BODY_RATE: '1KB',
          POSTHORN_HTTP_BODY_RATE_WINDOW: '1s',
        },
      });
      budget = createBodyBudget(20_000);
      app = buildApp(deps, { budget });
      await app.listen({ host: '127.0.0.1', port: 0 });
      port = (app.server.address() as AddressInfo).port;
      s = await seedDomain(deps, { domain: 'acme.test', rateLimit: 10_000 });
    });
    after(async () => {
      for (const c of open) c.destroy();
      await app.close();
      await deps.close();
    });

    test('headers that never finish: 408 in the API error format, then closed', async () => {
      const conn = await connect();
      await conn.write('POST /v1/send HTTP/1.1\r\nHost: localhost\r\nContent-Le');
      const res = await until('the 408', () => conn.response(), 5_000);
      assert.equal(res.status, 408);
      assert.equal(JSON.parse(res.body).error.type, 'request_timeout');
      await until('the close', () => conn.closed(), 5_000);
    });

    test('a connection that sends nothing at all is closed by the same deadline', async () => {
      const conn = await connect();
      await until('the close', () => conn.closed(), 5_000);
      assert.equal(conn.response()?.status, 408);
    });

    test('a body trickled a byte at a time is cut off with 408 within a window or two, and its budget share is released', async () => {
      const conn = await connect();
      await conn.write(sendHead(2_000) + '{"from":"');
      await until('the reservation', () => budget.inFlight() === 2_000);
      const trickle = setInterval(() => {
        void conn.write('a');
      }, 100);
      try {
        const res = await until('the 408', () => conn.response(), 5_000);
        assert.equal(res.status, 408);
        const err = JSON.parse(res.body).error;
        assert.equal(err.type, 'request_timeout');
        assert.equal(err.field, 'body');
        assert.match(err.message, /POSTHORN_HTTP_MIN_BODY_RATE/);
        assert.equal(res.headers.connection, 'close');
        await until('the close', () => conn.closed(), 5_000);
      } finally {
        clearInterval(trickle);
      }
      await until('the release', () => budget.inFlight() === 0);
    });

    test('a body fast enough for the rate but not done by the body deadline gets 408 and is closed', async () => {
      const conn = await connect();
      // About 5 KB/s: five times the 1 KB/s minimum, but 19 KB takes about 4 s against a 2 s deadline.
      await conn.write(sendHead(19_000) + 'x'.repeat(500));
      const feed = setInterval(() => {
        void conn.write('x'.repeat(500));
      }, 100);
      try {
        const res = await until('the 408', () => conn.response(), 8_000);
        assert.equal(res.status, 408);
        const err = JSON.parse(res.body).error;
        assert.equal(err.type, 'request_timeout');
        assert.match(err.message, /POSTHORN_HTTP_BODY_TIMEOUT/); // the deadline, not the rate, cut it
        await until('the close', () => conn.closed(), 5_000);
      } finally {
        clearInterval(feed);
      }
      await until('the release', () => budget.inFlight() === 0);
    });

    test('a body sent in pieces with short pauses, above the rate, is accepted', async () => {
      const body = sendBody(3_000);
      const conn = await connect();
      await conn.write(sendHead(body.length));
      for (let i = 0; i < body.length; i += 1_000) {
        await conn.write(body.slice(i, i + 1_000));
        await new Promise((r) => setTimeout(r, 100)); // pacing the upload is the point of this test
      }
      const res = await until('the 202', () => conn.response());
      assert.equal(res.status, 202, res.body);
      await until('the release', () => budget.inFlight() === 0);
    });

    test('over the budget: 503 with Retry-After before the body is read; an aborted upload gives its share back', async () => {
      const holder = await connect();
      await holder.write(sendHead(15_000) + 'x'.repeat(5_000));
      await until('the reservation', () => budget.inFlight() === 15_000);

      const refused = await connect();
      await refused.write(sendHead(10_000));
      const res = await until('the 503', () => refused.response());
      assert.equal(res.status, 503);
      assert.equal(res.headers['retry-after'], '2');
      assert.equal(res.headers.connection, 'close');
      const err = JSON.parse(res.body).error;
      assert.equal(err.type, 'server_busy');
      assert.match(err.message, /POSTHORN_HTTP_BODY_BUDGET/);
      await until('the close', () => refused.closed());

      // An unauthenticated caller still gets its 401 first, whatever the budget.
      const anon = await connect();
      await anon.write(sendHead(10_000, null));
      assert.equal((await until('the 401', () => anon.response())).status, 401);

      // The holder keeps sending above the rate until it drops the connection mid-body.
      await holder.write('x'.repeat(1_000));
      holder.destroy();
      await until('the aborted share to be released', () => budget.inFlight() === 0);

      const body = sendBody(10_000);
      const next = await connect();
      await next.write(sendHead(body.length) + body);
      const ok = await until('the 202', () => next.response());
      assert.equal(ok.status, 202, ok.body);
      await until('the release', () => budget.inFlight() === 0);
    });

    test('a chunked body is reserved as it arrives and refused with 503 once it would go over', async () => {
      const conn = await connect();
      await conn.write(sendHead(null));
      const chunk = 'x'.repeat(4_000);
      const feed = setInterval(() => {
        void conn.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      }, 20);
      try {
        const res = await until('the 503', () => conn.response(), 5_000);
        assert.equal(res.status, 503);
        assert.equal(JSON.parse(res.body).error.type, 'server_busy');
      } finally {
        clearInterval(feed);
      }
      await until('the release', () => budget.inFlight() === 0);
    });

    test('a send body over 16 MiB by its Content-Length is 413 at once, unread and closed', async () => {
      const conn = await connect();
      await conn.write(sendHead(SEND_BODY_LIMIT + 1) + '{');
      const res = await until('the 413', () => conn.response());
      assert.equal(res.status, 413);
      assert.equal(res.headers.connection, 'close');
      await until('the close', () => conn.closed());
      assert.equal(budget.inFlight(), 0);
    });
  });
}
