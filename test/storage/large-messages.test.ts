// Large messages are parsed and rendered on the offload worker threads (src/offload/offload-pool.ts), not
// on the event loop, and the number of them in processing is bounded.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { simpleParser } from 'mailparser';
import { sharedOffloadPool } from '../../src/offload/offload-pool.js';
import { createSubmitPipeline } from '../../src/send/submit.js';
import { httpIntake } from '../../src/http/routes/send.js';
import { buildApp } from '../../src/http/build-app.js';
import { testDialects } from '../helpers/test-db.js';
import { createDeliveryHarness, MX_DOMAIN, SENDER_DOMAIN, type DeliveryHarness } from '../helpers/delivery-harness.js';

/** About `bytes` of HTML with links and paragraphs, so html-to-text has real work. */
function bigHtml(bytes: number): string {
  const para =
    '<p>Order line with a <a href="https://shop.example.org/item?id=42">link to the item</a> and some words.</p>\n';
  return `<html><body>${para.repeat(Math.ceil(bytes / para.length))}</body></html>`;
}

for (const dialect of testDialects()) {
  describe(`large messages off the event loop (${dialect})`, () => {
    let h: DeliveryHarness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    test('a 1 MiB html send is parsed and rendered on a worker thread and arrives whole, text generated, DKIM passing', async () => {
      h = await createDeliveryHarness(dialect);
      const offload = sharedOffloadPool(h.deps.config.offloadThreads);
      assert.ok(h.deps.config.offloadThreads > 0);
      const html = bigHtml(1024 * 1024);
      const before = offload.offThread();
      const res = await h.send({ from: `hello@${SENDER_DOMAIN}`, to: `big@${MX_DOMAIN}`, subject: 'Large', html });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      assert.equal(offload.offThread(), before + 1, 'the body was validated on a worker thread');
      await h.run();
      assert.equal(offload.offThread(), before + 2, 'the message was rendered on a worker thread');
      const got = h.received(`big@${MX_DOMAIN}`);
      assert.equal(got.length, 1);
      const parsed = await simpleParser(got[0]!.raw);
      assert.equal(parsed.html, html);
      assert.match(
        parsed.text ?? '',
        /Order line with a link to the item \[https:\/\/shop\.example\.org\/item\?id=42\] and\nsome words\./,
      );
      assert.deepEqual(
        (await h.verifyDkim(got[0]!.raw)).map((d) => d.result),
        ['pass'],
      );
    });

    test("a large tracked message gets its recipient's pixel and click links when rendered off thread", async () => {
      h = await createDeliveryHarness(dialect);
      const offload = sharedOffloadPool(h.deps.config.offloadThreads);
      const before = offload.offThread();
      const res = await h.send({
        from: `hello@${SENDER_DOMAIN}`,
        to: [`t1@${MX_DOMAIN}`, `t2@${MX_DOMAIN}`],
        subject: 'Tracked',
        html: bigHtml(200 * 1024),
        track_opens: true,
        track_clicks: true,
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      await h.run();
      assert.equal(offload.offThread(), before + 3, 'one validation, one rendering per recipient');
      const rcpts = await h.deps.db
        .selectFrom('recipients')
        .select(['id', 'address'])
        .where('message_id', '=', res.body.id)
        .execute();
      for (const r of rcpts) {
        const got = h.received(r.address);
        assert.equal(got.length, 1, r.address);
        const parsed = await simpleParser(got[0]!.raw);
        const html = String(parsed.html);
        assert.match(html, /\/t\/o\/[^"]+/, 'open pixel');
        assert.doesNotMatch(html, /href="https:\/\/shop\.example\.org/, 'every link is wrapped');
        assert.match(html, /href="[^"]*\/t\/c\//);
        assert.deepEqual(
          (await h.verifyDkim(got[0]!.raw)).map((d) => d.result),
          ['pass'],
        );
      }
      const [a, b] = await Promise.all(
        rcpts.map(
          async (r) => /\/t\/o\/([^"]+)/.exec(String((await simpleParser(h!.received(r.address)[0]!.raw)).html))?.[1],
        ),
      );
      assert.ok(a !== undefined && b !== undefined);
      assert.notEqual(a, b, 'each recipient has its own pixel');
    });

    test('large sends past the budget and its waiting line are refused 503 server_busy with Retry-After; small ones never wait', async () => {
      h = await createDeliveryHarness(dialect);
      // A budget of one byte: one large submission at a time, one more may wait.
      const pipeline = createSubmitPipeline(h.deps, { largeBudget: 1, largeWaiting: 1 });
      const body = (subject: string, html: string) =>
        httpIntake({
          authorization: `Bearer ${h!.sender.key}`,
          contentType: 'application/json',
          idempotencyKey: undefined,
          body: Buffer.from(JSON.stringify({ from: `hello@${SENDER_DOMAIN}`, to: `u@${MX_DOMAIN}`, subject, html })),
        });
      const results = await Promise.all([
        pipeline.submit(body('one', bigHtml(100 * 1024))),
        pipeline.submit(body('two', bigHtml(100 * 1024))),
        pipeline.submit(body('three', bigHtml(100 * 1024))),
        pipeline.submit(body('small', '<p>hi</p>')),
      ]);
      assert.deepEqual(
        results.map((r) => r.kind),
        ['accepted', 'accepted', 'refused', 'accepted'],
      );
      const refused = results[2]!;
      assert.ok(refused.kind === 'refused');
      assert.equal(refused.error.type, 'server_busy');
      assert.ok((refused.error.retryAfter ?? 0) >= 1);
      const stored = await h.deps.db.selectFrom('messages').select('subject').execute();
      assert.deepEqual(
        stored.map((m) => m.subject).sort(),
        ['one', 'small', 'two'],
        'nothing is stored for the refusal',
      );
      await pipeline.drain();
    });
    test('with no room among large messages, POST /v1/send is refused 503 from its Content-Length, before the body', async () => {
      h = await createDeliveryHarness(dialect);
      // The first send holds its room until it commits: it is kept at its rate-limit step until the
      // second request has had its answer, so the test does not depend on how fast the first one is.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const limiter = h.deps.limiter;
      const deps = {
        ...h.deps,
        limiter: {
          take: async (...args: Parameters<typeof limiter.take>) => {
            await held;
            return limiter.take(...args);
          },
        },
      };
      const pipeline = createSubmitPipeline(deps, { largeBudget: 1, largeWaiting: 0 });
      const json = (subject: string, html: string) =>
        Buffer.from(JSON.stringify({ from: `hello@${SENDER_DOMAIN}`, to: `u@${MX_DOMAIN}`, subject, html }));
      assert.equal(pipeline.refusalForSize(200 * 1024), null, 'room while nothing is in processing');
      const first = pipeline.submit(
        httpIntake({
          authorization: `Bearer ${h.sender.key}`,
          contentType: 'application/json',
          idempotencyKey: undefined,
          body: json('first', bigHtml(200 * 1024)),
        }),
      );
      assert.equal(pipeline.refusalForSize(200 * 1024)?.type, 'server_busy', 'a second large one has no room');
      assert.equal(pipeline.refusalForSize(1024), null, 'small ones never wait');
      const app = buildApp(h.deps, { pipeline });
      try {
        const big = json('second', bigHtml(200 * 1024));
        const res = await app.inject({
          method: 'POST',
          url: '/v1/send',
          headers: {
            authorization: `Bearer ${h.sender.key}`,
            'content-type': 'application/json',
            'content-length': String(big.length),
          },
          payload: big,
        });
        assert.equal(res.statusCode, 503);
        assert.equal(res.json<{ error: { type: string } }>().error.type, 'server_busy');
        assert.ok(Number(res.headers['retry-after']) >= 1);
        release();
        assert.equal((await first).kind, 'accepted');
        assert.equal(pipeline.refusalForSize(200 * 1024), null, 'room again once the first is committed');
        const stored = await h.deps.db.selectFrom('messages').select('subject').execute();
        assert.deepEqual(
          stored.map((m) => m.subject),
          ['first'],
          'nothing stored for the refusal',
        );
      } finally {
        release();
        await app.close();
      }
    });
  });
}
