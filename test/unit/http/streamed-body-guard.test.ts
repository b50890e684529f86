// The body guard (src/http/body-guard.ts) on a route that reads its body as a stream
// (`config.streamedBody`, as POST /v1/suppressions/import does): what it reserves from the budget,
// its own size limit, and a minimum rate that judges the client, not the route's pace.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { bodyGuard, createBodyBudget, STREAMED_BODY_RESERVE, type BodyBudget } from '../../../src/http/body-guard.js';
import { rawConnect, requestHead, until, type RawConnection } from '../../helpers/raw-http.js';

const WINDOW_MS = 300;
const MIN_RATE = 10 * 1024;
const LIMIT = 8 * 1024 * 1024;

describe('body guard on a streamed route', () => {
  let app: FastifyInstance;
  let port: number;
  let budget: BodyBudget;
  /** While set, the route does not read its body (a consumer busy elsewhere, e.g. a database write). */
  let hold: Promise<void> | null = null;
  const open: RawConnection[] = [];
  const connect = async () => {
    const c = await rawConnect(port);
    open.push(c);
    return c;
  };
  const head = (length: number | null) =>
    requestHead('POST', '/stream', length === null ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': length });

  before(async () => {
    budget = createBodyBudget(2 * 1024 * 1024);
    app = Fastify();
    app.addHook('preParsing', bodyGuard({ budget, minRate: MIN_RATE, windowMs: WINDOW_MS }));
    app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, _req, reply) => {
      void reply.code(err.statusCode ?? 500).send({ code: err.code });
    });
    app.addHook('onSend', (req, reply, payload, done) => {
      if (!req.raw.complete) reply.header('Connection', 'close');
      done(null, payload);
    });
    await app.register(async (child) => {
      child.removeAllContentTypeParsers();
      child.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
      child.post('/stream', { bodyLimit: LIMIT, config: { streamedBody: true } }, async (req) => {
        if (hold) await hold;
        let bytes = 0;
        for await (const chunk of req.body as Readable) bytes += (chunk as Buffer).length;
        return { bytes };
      });
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  after(async () => {
    for (const c of open) c.destroy();
    await app.close();
  });

  test('a streamed body reserves STREAMED_BODY_RESERVE, not its length: 5 MB goes through a 2 MiB budget', async () => {
    const size = 5 * 1024 * 1024;
    let release!: () => void;
    hold = new Promise((r) => {
      release = r;
    });
    const conn = await connect();
    await conn.write(head(size) + 'x'.repeat(64 * 1024));
    await until('the reservation', () => budget.inFlight() === STREAMED_BODY_RESERVE);
    release();
    hold = null;
    await conn.write('x'.repeat(size - 64 * 1024));
    const res = await until('the answer', () => conn.response(), 20_000);
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(JSON.parse(res.body), { bytes: size });
    await until('the release', () => budget.inFlight() === 0);
  });

  test('windows in which the route left the body unread are not held against the client', async () => {
    let release!: () => void;
    hold = new Promise((r) => {
      release = r;
    });
    const size = 4 * 1024 * 1024;
    const conn = await connect();
    // Sent at once: the kernel and stream buffers fill, then nothing moves while the route holds.
    void conn.write(head(size) + 'y'.repeat(size));
    const start = Date.now();
    // Four windows without a byte read: a client sending this slowly would have been cut off.
    await until('four rate windows', () => Date.now() - start > 4 * WINDOW_MS);
    assert.equal(conn.response(), undefined, 'the guard cut off a client the route was not reading');
    release();
    hold = null;
    const res = await until('the answer', () => conn.response(), 20_000);
    assert.equal(res.status, 200, res.body);
    assert.deepEqual(JSON.parse(res.body), { bytes: size });
  });

  test('a client trickling its body to a streamed route is still cut off with 408', async () => {
    const conn = await connect();
    await conn.write(`${head(100_000)}zzzz`);
    const trickle = setInterval(() => {
      void conn.write('z');
    }, 50);
    try {
      const res = await until('the 408', () => conn.response(), 5_000);
      assert.equal(res.status, 408);
      assert.equal(JSON.parse(res.body).code, 'POSTHORN_BODY_TOO_SLOW');
    } finally {
      clearInterval(trickle);
    }
    await until('the release', () => budget.inFlight() === 0);
  });

  test('over the route limit: 413 from the Content-Length alone, and mid-stream for a chunked body', async () => {
    const declared = await connect();
    await declared.write(head(LIMIT + 1));
    const res = await until('the 413', () => declared.response());
    assert.equal(res.status, 413);
    assert.equal(JSON.parse(res.body).code, 'POSTHORN_BODY_TOO_LARGE');
    assert.equal(budget.inFlight(), 0, 'nothing reserved for a refused body');

    const chunked = await connect();
    await chunked.write(head(null));
    const piece = 'c'.repeat(256 * 1024);
    for (let sent = 0; sent <= LIMIT && chunked.response() === undefined; sent += piece.length)
      await chunked.write(`${piece.length.toString(16)}\r\n${piece}\r\n`);
    const cut = await until('the 413', () => chunked.response(), 10_000);
    assert.equal(cut.status, 413);
    assert.equal(JSON.parse(cut.body).code, 'POSTHORN_BODY_TOO_LARGE');
    await until('the release', () => budget.inFlight() === 0);
  });
});
