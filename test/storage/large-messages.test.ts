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
import { composeDraft } from '../../src/mime/message-draft.js';
import { validateSendJson } from '../../src/send/validate-send-json.js';
import { requestFingerprint, type SendRequest } from '../../src/send/send-request.js';
import { sql } from 'kysely';
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

    test('the stored content of a large send (bodies serialised on the worker) is the text JSON.stringify(composeDraft(...)) gives, as for a small one; its fingerprint too', async () => {
      h = await createDeliveryHarness(dialect);
      const pipeline = createSubmitPipeline(h.deps);
      const offload = sharedOffloadPool(h.deps.config.offloadThreads);
      const file = (bytes: number, seed: number) =>
        Buffer.from(Array.from({ length: bytes }, (_, i) => (i * 31 + seed) & 0xff)).toString('base64');
      const request = (size: number, html: string, extra: Record<string, unknown> = {}) => ({
        from: `Shop <hello@${SENDER_DOMAIN}>`,
        to: [`Ann <ann@${MX_DOMAIN}>`, `bob@${MX_DOMAIN}`],
        cc: [`cc@${MX_DOMAIN}`],
        reply_to: `help@${SENDER_DOMAIN}`,
        subject: 'Your order — déjà vu',
        html,
        text: `Plain "quoted" text\twith\u0001 control and \\ back\nslash ${'x'.repeat(size)}`,
        headers: { 'X-Order': '42' },
        attachments: [
          { filename: 'a.bin', content: file(size, 1), content_type: 'application/octet-stream' },
          { filename: 'logo.png', content: file(100, 2), content_type: 'image/png', content_id: 'logo' },
        ],
        ...extra,
      });
      const cases: [string, Record<string, unknown>, boolean][] = [
        ['small', request(100, '<p>Hi <img src="cid:logo"></p>'), false],
        // All ASCII (bodies and head alike): the stored string is decoded as latin1, off the heap.
        ['large ascii', request(300 * 1024, bigHtml(300 * 1024) + '<img src="cid:logo">', { subject: 'Order' }), true],
        ['large utf-8', request(200 * 1024, bigHtml(200 * 1024) + '<p>Grüße, 你好 😀</p><img src="cid:logo">'), true],
      ];
      for (const [name, json, large] of cases) {
        const body = Buffer.from(JSON.stringify(json));
        // Today's compose, inline: what the stored text must be.
        const req = validateSendJson('application/json', body) as SendRequest;
        assert.ok(!('type' in req), name);
        const before = offload.offThread();
        const result = await pipeline.submit(
          httpIntake({
            authorization: `Bearer ${h.sender.key}`,
            contentType: 'application/json',
            idempotencyKey: `key-${name}`,
            body: Buffer.from(body),
          }),
        );
        assert.equal(result.kind, 'accepted', `${name}: ${JSON.stringify(result)}`);
        // (At least: the delivery worker may render an earlier one off thread meanwhile.)
        if (large) assert.ok(offload.offThread() > before, `${name}: validated off thread`);
        const id = result.kind === 'accepted' ? result.body.id : '';
        const row = await h.deps.db
          .selectFrom('messages')
          .select(['content', 'size', 'created_at', sql<string>`length(content)`.as('chars')])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        const expected: string = JSON.stringify(
          composeDraft({
            id,
            hostname: h.deps.config.hostname,
            now: Number(row.created_at),
            from: req.from,
            to: req.to,
            cc: req.cc,
            replyTo: req.replyTo,
            subject: req.subject,
            html: req.html,
            text: req.text,
            headers: req.headers,
            attachments: req.attachments,
          }),
        );
        assert.equal(typeof row.content, 'string', `${name}: stored as text`);
        assert.ok(row.content === expected, `${name}: stored content differs from JSON.stringify(composeDraft(...))`);
        assert.equal(Number(row.size), Buffer.byteLength(expected), `${name}: size`);
        // The database holds it as text of that many characters (not a blob, not mis-decoded).
        assert.equal(Number(row.chars), [...expected].length, `${name}: characters in the database`);
        const idem = await h.deps.db
          .selectFrom('idempotency_keys')
          .select('fingerprint')
          .where('key', '=', `key-${name}`)
          .executeTakeFirstOrThrow();
        assert.equal(idem.fingerprint, requestFingerprint(req), `${name}: fingerprint`);
        // The same key: replayed; with another body: refused as reused.
        const again = await pipeline.submit(
          httpIntake({
            authorization: `Bearer ${h.sender.key}`,
            contentType: 'application/json',
            idempotencyKey: `key-${name}`,
            body: Buffer.from(body),
          }),
        );
        assert.deepEqual(again, { ...result, replayed: true }, `${name}: replay`);
        const other = await pipeline.submit(
          httpIntake({
            authorization: `Bearer ${h.sender.key}`,
            contentType: 'application/json',
            idempotencyKey: `key-${name}`,
            body: Buffer.from(JSON.stringify({ ...json, html: `${String(json.html)} ` })),
          }),
        );
        assert.ok(other.kind === 'refused' && other.error.type === 'idempotency_key_reused', `${name}: reused key`);
      }
      await pipeline.drain();
      // And they are delivered as composed: each recipient gets the bodies whole.
      await h.run();
      const got = h.received(`ann@${MX_DOMAIN}`);
      assert.equal(got.length, cases.length);
      for (const m of got) {
        const parsed = await simpleParser(m.raw, { keepCidLinks: true });
        const sent = cases.find(([, json]) => parsed.html === json.html)?.[1];
        assert.ok(sent !== undefined, 'an html sent whole');
        assert.equal(parsed.text, String(sent.text));
        assert.deepEqual(
          parsed.attachments.map((a) => a.content.toString('base64')).sort(),
          (sent.attachments as { content: string }[]).map((a) => a.content).sort(),
        );
      }
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
