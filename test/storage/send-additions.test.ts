// POST /v1/send's cc, bcc, reply_to, attachments and metadata (docs/api.md, Fields and
// Attachments), on both databases: delivered through the real engine to a sink MX over loopback and
// read back with mailparser as a mail client would show them, DKIM checked with mailauth against
// the loopback DNS; metadata in events and in signed webhooks at a real receiver; and every refusal
// with its field, over real HTTPS with the typed client that checks each answer against the
// OpenAPI document.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { Webhook } from 'standardwebhooks';
import { setWebhook } from '../../src/webhooks/set-webhook.js';
import { findDomain } from '../../src/domains/add-domain.js';
import { CLI_ACTOR } from '../../src/core/actor.js';
import { startWebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.js';
import { SEND_BODY_LIMIT, BODY_LIMIT } from '../../src/core/limits.js';
import { createDeliveryHarness, MX_DOMAIN, SENDER_DOMAIN, type DeliveryHarness } from '../helpers/delivery-harness.js';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { testDialects } from '../helpers/test-db.js';

const at = (local: string) => `${local}@${MX_DOMAIN}`;
/** A file with every byte value, so a lost or changed byte shows. */
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256))]);
/** A 1×1 PNG. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f6e5e20000000049454e44ae426082',
  'hex',
);

const addresses = (a: AddressObject | AddressObject[] | undefined) =>
  (Array.isArray(a) ? a.flatMap((x) => x.value) : (a?.value ?? [])).map((m) => [m.name, m.address]);

/** Polls `check` until true, failing after `timeoutMs` with `what`. */
async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

for (const dialect of testDialects()) {
  describe(`send additions, delivered (${dialect})`, () => {
    const cleanup: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const c of cleanup.splice(0).reverse()) await c();
    });
    const harness = async (env: Record<string, string> = {}): Promise<DeliveryHarness> => {
      const hx = await createDeliveryHarness(dialect, { env });
      cleanup.push(() => hx.close());
      return hx;
    };

    test('cc, bcc, reply_to, a file and an inline image arrive as a mail client shows them, DKIM-signed; metadata rides every event and webhook', async () => {
      const hx = await harness({ POSTHORN_WEBHOOK_ALLOW_PRIVATE: '1' });
      // standardwebhooks checks the signature's time against its own clock.
      hx.deps.clock.set(Date.now());
      const receiver: WebhookReceiver = await startWebhookReceiver();
      cleanup.push(() => receiver.close());
      const { secret } = await setWebhook(hx.deps, await findDomain(hx.deps, SENDER_DOMAIN), receiver.url, CLI_ACTOR);
      const dispatcher = startWebhookDispatcher(hx.deps, { claimBatch: 100, idlePollMs: 10 });
      cleanup.push(() => dispatcher.stop(2_000));

      const [to, cc, bcc] = [at('ok-ana'), at('ok-carol'), at('ok-hidden')];
      const metadata = { order_id: '4711', customer: 'c_829 — ü' };
      const html = '<p>Thanks for your order.</p><p><img src="cid:logo@acme" alt="Acme"></p>';
      const res = await hx.send({
        from: `Acme Orders <orders@${SENDER_DOMAIN}>`,
        to: `Ana Lima <${to}>`,
        cc: [`Carol Copy <${cc}>`],
        bcc,
        reply_to: `Help Desk <help@${SENDER_DOMAIN}>`,
        subject: 'Your order 4711',
        html,
        attachments: [
          { filename: 'Rechnung März 4711.pdf', content: PDF.toString('base64') },
          { filename: 'logo.png', content: PNG.toString('base64'), content_type: 'image/png', content_id: 'logo@acme' },
        ],
        tags: ['receipt'],
        metadata,
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      const id = res.body.id;
      await hx.run();

      // One SMTP transaction for the three (one domain, untracked): the same bytes reach the bcc.
      const [mail, ...more] = hx.sink!.messages;
      assert.equal(more.length, 0);
      assert.deepEqual([...mail!.rcptTo].sort(), [bcc, cc, to].sort());
      assert.equal(hx.received(bcc).length, 1, 'the bcc recipient got the message');
      const raw = mail!.raw.toString('latin1');
      assert.doesNotMatch(raw, /^bcc:/im, 'no Bcc header');
      assert.ok(!raw.toLowerCase().includes('ok-hidden'), 'the bcc address appears nowhere in what the recipients get');

      const dkim = await hx.verifyDkim(mail!.raw);
      assert.deepEqual(
        dkim.map((d) => [d.result, d.domain]),
        [['pass', SENDER_DOMAIN]],
        JSON.stringify(dkim),
      );

      const parsed: ParsedMail = await simpleParser(mail!.raw);
      assert.deepEqual(addresses(parsed.to), [['Ana Lima', to]]);
      assert.deepEqual(addresses(parsed.cc), [['Carol Copy', cc]]);
      assert.equal(parsed.bcc, undefined);
      assert.deepEqual(addresses(parsed.replyTo), [['Help Desk', `help@${SENDER_DOMAIN}`]]);
      assert.equal(
        parsed.headers.get('content-type') && (parsed.headers.get('content-type') as { value: string }).value,
        'multipart/mixed',
      );
      const file = parsed.attachments.find((a) => a.filename === 'Rechnung März 4711.pdf');
      assert.ok(file, `attachments: ${parsed.attachments.map((a) => a.filename).join(', ')}`);
      assert.equal(file.contentType, 'application/pdf');
      assert.equal(file.contentDisposition, 'attachment');
      assert.ok(file.content.equals(PDF), 'the file arrives byte for byte');
      const logo = parsed.attachments.find((a) => a.cid === 'logo@acme');
      assert.ok(logo?.related, 'the image is inline, in multipart/related with the html');
      assert.ok(logo.content.equals(PNG));
      // The html's cid: reference resolves to the inline part (mailparser inlines it as a mail client would).
      assert.ok(
        String(parsed.html).includes(`src="data:image/png;base64,${PNG.toString('base64')}"`),
        String(parsed.html),
      );
      assert.match(parsed.text ?? '', /Thanks for your order\./);

      // Every recipient has its row and its events, each carrying the metadata; the message row too.
      const rows = await hx.deps.db
        .selectFrom('recipients')
        .select(['address', 'status'])
        .where('message_id', '=', id)
        .orderBy('address')
        .execute();
      assert.deepEqual(
        rows,
        [
          { address: bcc, status: 'delivered' },
          { address: to, status: 'delivered' },
          { address: cc, status: 'delivered' },
        ].sort((a, b) => (a.address < b.address ? -1 : 1)),
      );
      const message = await hx.deps.db
        .selectFrom('messages')
        .select('metadata')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(message.metadata), metadata);
      const events = await hx.deps.db
        .selectFrom('events')
        .select(['id', 'event', 'recipient', 'metadata'])
        .where('message_id', '=', id)
        .execute();
      assert.equal(events.length, 9, 'accepted-by-system, accepted-by-mta, delivered for each of the three');
      for (const e of events) assert.deepEqual(JSON.parse(e.metadata ?? ''), metadata, `${e.event} ${e.recipient}`);
      const api = await hx.app.inject({
        method: 'GET',
        url: `/v1/events?message_id=${id}&event=delivered`,
        headers: { authorization: `Bearer ${hx.sender.key}` },
      });
      const listed = api.json() as { events: { to: string; metadata: unknown }[] };
      assert.equal(listed.events.length, 3, api.body);
      for (const e of listed.events) assert.deepEqual(e.metadata, metadata);

      // Each event went to the webhook, signed, with the metadata in its body.
      await until('nine webhooks', () => receiver.received.length >= 9);
      const wh = new Webhook(secret!);
      for (const got of receiver.received) {
        const body = wh.verify(got.body, {
          'webhook-id': got.id,
          'webhook-timestamp': got.timestamp,
          'webhook-signature': got.signature,
        }) as { message_id: string; metadata: unknown; tags: unknown };
        assert.equal(body.message_id, id);
        assert.deepEqual(body.metadata, metadata);
        assert.deepEqual(body.tags, ['receipt']);
      }
    });

    test('a tracked message with a file goes one copy per recipient, the bcc too, each signed, its files and inline image intact', async () => {
      const hx = await harness();
      const [to, bcc] = [at('ok-one'), at('ok-two')];
      const res = await hx.send({
        from: `hello@${SENDER_DOMAIN}`,
        to,
        bcc: [bcc],
        subject: 'Tracked',
        html: '<p><a href="https://shop.example.org/order/4711">Your order</a><img src="cid:logo@acme"></p>',
        attachments: [
          { filename: 'logo.png', content: PNG.toString('base64'), content_id: 'logo@acme' },
          { filename: 'terms.txt', content: Buffer.from('Terms: ünïcödé\n').toString('base64') },
        ],
        track_clicks: true,
        track_opens: true,
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      await hx.run();
      assert.equal(hx.sink!.messages.length, 2, 'per-recipient URLs: one transaction each');
      for (const address of [to, bcc]) {
        const [mail] = hx.received(address);
        assert.deepEqual(mail!.rcptTo, [address]);
        assert.deepEqual(
          (await hx.verifyDkim(mail!.raw)).map((d) => d.result),
          ['pass'],
        );
        assert.doesNotMatch(mail!.raw.toString('latin1'), /^bcc:/im);
        const parsed = await simpleParser(mail!.raw);
        assert.deepEqual(addresses(parsed.to), [['', to]], 'To shows the to recipient, to the bcc as well');
        assert.match(String(parsed.html), /\/t\/c\//, 'the link is tracked');
        assert.match(String(parsed.html), /\/t\/o\//, 'the open pixel is there');
        assert.ok(
          String(parsed.html).includes(`data:image/png;base64,${PNG.toString('base64')}`),
          'cid: still resolves',
        );
        const terms = parsed.attachments.find((a) => a.filename === 'terms.txt');
        assert.equal(terms?.content.toString('utf8'), 'Terms: ünïcödé\n');
        assert.equal(terms?.contentType, 'text/plain');
      }
      // The to recipient's copy does not name the bcc recipient.
      assert.ok(!hx.received(to)[0]!.raw.toString('latin1').includes(bcc));
    });

    test('a 3 MiB attachment (rendered and signed off the event loop) arrives byte for byte, DKIM passing', async () => {
      const hx = await harness();
      const big = randomBytes(3 * 1024 * 1024);
      const res = await hx.send({
        from: `hello@${SENDER_DOMAIN}`,
        to: at('ok-big'),
        subject: 'Big file',
        text: 'Attached.',
        attachments: [{ filename: 'backup.tar.gz', content: big.toString('base64') }],
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      const stored = await hx.deps.db
        .selectFrom('messages')
        .select('size')
        .where('id', '=', res.body.id)
        .executeTakeFirstOrThrow();
      assert.ok(Number(stored.size) > 4 * 1024 * 1024, 'stored as a large message, rendered when its turn comes');
      await hx.run();
      const [mail] = hx.received(at('ok-big'));
      assert.deepEqual(
        (await hx.verifyDkim(mail!.raw)).map((d) => d.result),
        ['pass'],
      );
      const parsed = await simpleParser(mail!.raw);
      assert.equal(parsed.attachments.length, 1);
      assert.ok(parsed.attachments[0]!.content.equals(big));
      // The type from the file name, as nodemailer's table has it.
      assert.equal(parsed.attachments[0]!.contentType, 'application/x-gzip');
    });
  });

  describe(`send additions over HTTPS (${dialect})`, () => {
    let api: ApiHarness | undefined;
    afterEach(async () => {
      await api?.close();
      api = undefined;
    });
    const start = async (): Promise<{ api: ApiHarness; s: Seeded }> => {
      api = await startApiHarness(dialect);
      const s = await seedDomain(api.deps, { domain: 'acme.test', rateLimit: 100_000 });
      return { api, s };
    };
    const good = { from: 'Acme <hello@acme.test>', to: 'ana@example.org', subject: 'Hi', html: '<p>Hi</p>' };
    /** POST /v1/send through the typed client, which checks the answer against the OpenAPI document. */
    const send = async (
      a: ApiHarness,
      key: string,
      body: Record<string, unknown>,
      headers: Record<string, string> = {},
    ) => {
      const r = await a.client(key).POST('/v1/send', { body: body as never, headers });
      return {
        status: r.response.status,
        data: r.data,
        error: r.error?.error,
        replayed: r.response.headers.get('idempotent-replayed'),
      };
    };
    const count = async (a: ApiHarness, table: 'messages' | 'recipients' | 'jobs') =>
      (await a.deps.db.selectFrom(table).select('id').execute()).length;

    test('202: a recipients row, an accepted-by-system event and a job per distinct address of to, cc and bcc; all count against the volume', async () => {
      const { api: a, s } = await start();
      const r = await send(a, s.key, {
        ...good,
        to: ['ana@example.org', 'Bob <bob@example.net>'],
        cc: ['carol@example.org', 'ANA@example.org'],
        bcc: 'dan@example.com',
        metadata: { order_id: '4711' },
      });
      assert.equal(r.status, 202, JSON.stringify(r.error));
      const id = r.data!.id;
      const rcpts = await a.deps.db
        .selectFrom('recipients')
        .select('address')
        .where('message_id', '=', id)
        .orderBy('address')
        .execute();
      assert.deepEqual(
        rcpts.map((x) => x.address),
        ['ana@example.org', 'bob@example.net', 'carol@example.org', 'dan@example.com'],
        'ANA@example.org in cc is ana of to: sent once',
      );
      assert.equal(await count(a, 'jobs'), 4);
      const events = await a.deps.db
        .selectFrom('events')
        .select(['event', 'metadata'])
        .where('message_id', '=', id)
        .execute();
      assert.deepEqual(
        events.map((e) => [e.event, JSON.parse(e.metadata ?? '')]),
        Array(4).fill(['accepted-by-system', { order_id: '4711' }]),
      );
      const volume = await a.deps.db.selectFrom('volume').select('count').executeTakeFirstOrThrow();
      assert.equal(Number(volume.count), 4);
      const draft = JSON.parse(
        (await a.deps.db.selectFrom('messages').select('content').where('id', '=', id).executeTakeFirstOrThrow())
          .content as string,
      ) as Record<string, unknown>;
      assert.deepEqual(draft.cc, [
        { name: '', address: 'carol@example.org' },
        { name: '', address: 'ANA@example.org' },
      ]);
      assert.ok(!JSON.stringify(draft).includes('dan@example.com'), 'the stored message never names the bcc');
    });

    test('every bad new field is 400 invalid_request naming it, and nothing is stored', async () => {
      const { api: a, s } = await start();
      const file = { filename: 'a.pdf', content: 'QQ==' };
      const cases: [string, Record<string, unknown>, string][] = [
        ['cc not an address list', { cc: 5 }, 'cc'],
        ['a bad cc address', { cc: ['ok@example.org', 'bad@'] }, 'cc'],
        ['bcc of 51', { bcc: Array.from({ length: 51 }, (_, i) => `b${i}@example.org`) }, 'bcc'],
        ['a bad reply_to', { reply_to: 'nobody' }, 'reply_to'],
        ['attachments not an array', { attachments: file }, 'attachments'],
        ['101 attachments', { attachments: Array(101).fill(file) }, 'attachments'],
        ['an attachment not an object', { attachments: ['QQ=='] }, 'attachments[0]'],
        ['a missing filename', { attachments: [file, { content: 'QQ==' }] }, 'attachments[1].filename'],
        ['bad base64', { attachments: [{ filename: 'a.pdf', content: 'not base64!' }] }, 'attachments[0].content'],
        ['base64url', { attachments: [{ filename: 'a.pdf', content: 'aGV-bG8_' }] }, 'attachments[0].content'],
        ['an .exe', { attachments: [{ filename: 'setup.exe', content: 'TVo=' }] }, 'attachments[0].filename'],
        [
          'a .js, upper case',
          { attachments: [{ filename: 'INVOICE.PDF.JS', content: 'QQ==' }] },
          'attachments[0].filename',
        ],
        [
          'an executable type under a harmless name',
          { attachments: [{ ...file, content_type: 'application/x-msdownload' }] },
          'attachments[0].content_type',
        ],
        ['a type that is not one', { attachments: [{ ...file, content_type: 'pdf' }] }, 'attachments[0].content_type'],
        [
          'a content_id in brackets',
          { attachments: [{ ...file, content_id: '<logo@acme>' }] },
          'attachments[0].content_id',
        ],
        [
          'a content_id twice',
          {
            attachments: [
              { ...file, content_id: 'x@y' },
              { ...file, content_id: 'x@y' },
            ],
          },
          'attachments[1].content_id',
        ],
        ['an unknown attachment key', { attachments: [{ ...file, encoding: 'base64' }] }, 'attachments[0].encoding'],
        ['metadata an array', { metadata: ['a'] }, 'metadata'],
        [
          'metadata of 21 keys',
          { metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) },
          'metadata',
        ],
        ['a metadata key of 41', { metadata: { ['k'.repeat(41)]: 'v' } }, `metadata.${'k'.repeat(41)}`],
        ['a metadata number', { metadata: { order_id: 4711 } }, 'metadata.order_id'],
        ['a nested metadata value', { metadata: { order: { id: '1' } } }, 'metadata.order'],
        ['a metadata value of 501', { metadata: { note: 'n'.repeat(501) } }, 'metadata.note'],
      ];
      for (const [what, extra, field] of cases) {
        const r = await send(a, s.key, { ...good, ...extra });
        assert.equal(r.status, 400, `${what}: ${JSON.stringify(r.data)}`);
        assert.equal(r.error?.type, 'invalid_request', what);
        assert.equal(r.error?.field, field, `${what}: ${r.error?.message}`);
      }
      assert.equal(await count(a, 'messages'), 0);
    });

    test('To, Cc, Bcc and Reply-To in headers are 400 naming headers.<Name>, pointing at the field to use', async () => {
      const { api: a, s } = await start();
      const cases: [string, string][] = [
        ['To', 'use the to field'],
        ['cc', 'use the cc field'],
        ['BCC', 'use the bcc field'],
        ['Reply-To', 'use the reply_to field'],
      ];
      for (const [name, hint] of cases) {
        const r = await send(a, s.key, { ...good, headers: { [name]: 'x@example.org' } });
        assert.equal(r.status, 400);
        assert.equal(r.error?.field, `headers.${name}`);
        assert.ok(r.error?.message.includes(hint), r.error?.message);
      }
    });

    test('at most 50 distinct recipients across to, cc and bcc: the 400 names the field that crosses it', async () => {
      const { api: a, s } = await start();
      const list = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.org`);
      const cases: [Record<string, unknown>, string | null][] = [
        [{ to: list('t', 30), cc: list('c', 21) }, 'cc'],
        [{ to: list('t', 30), cc: list('c', 10), bcc: list('b', 11) }, 'bcc'],
        [{ to: list('t', 30), bcc: list('b', 21) }, 'bcc'],
        [{ to: list('t', 30), cc: list('c', 10), bcc: list('b', 10) }, null],
        // Addresses of to repeated in cc and bcc are one recipient each: 50 distinct.
        [{ to: list('t', 50), cc: list('t', 50), bcc: list('T', 50) }, null],
      ];
      for (const [extra, field] of cases) {
        const r = await send(a, s.key, { ...good, ...extra });
        assert.equal(
          r.status,
          field === null ? 202 : 400,
          `${JSON.stringify(Object.keys(extra))}: ${r.error?.message}`,
        );
        if (field !== null) {
          assert.equal(r.error?.field, field);
          assert.match(r.error?.message ?? '', /at most 50 distinct recipients/);
        }
      }
      const last = await a.deps.db.selectFrom('recipients').select('id').execute();
      assert.equal(last.length, 50 + 50, 'the two accepted sends: 50 recipients each');
    });

    test('10 MiB decoded content: exactly at the limit is 202; one byte over is 413 naming the file that crosses it; a body over 16 MiB is 413 unread', async () => {
      const { api: a, s } = await start();
      const html = '<p>Hi</p>';
      const fill = Buffer.alloc(BODY_LIMIT - Buffer.byteLength(html) - 1024, 7);
      const small = Buffer.alloc(1024, 9);
      const exact = await send(a, s.key, {
        ...good,
        html,
        attachments: [
          { filename: 'fill.bin', content: fill.toString('base64') },
          { filename: 'small.bin', content: small.toString('base64') },
        ],
      });
      assert.equal(exact.status, 202, JSON.stringify(exact.error));
      const over = await send(a, s.key, {
        ...good,
        html,
        attachments: [
          { filename: 'fill.bin', content: fill.toString('base64') },
          { filename: 'small.bin', content: Buffer.alloc(1025, 9).toString('base64') },
        ],
      });
      assert.equal(over.status, 413);
      assert.equal(over.error?.type, 'payload_too_large');
      assert.equal(over.error?.field, 'attachments[1].content');
      assert.equal(await count(a, 'messages'), 1);

      const res = await a
        .fetch('/v1/send', {
          method: 'POST',
          headers: {
            authorization: `Bearer ${s.key}`,
            'content-type': 'application/json',
            'content-length': String(SEND_BODY_LIMIT + 1),
          },
          body: '{',
          duplex: 'half',
        } as never)
        .catch((err: Error) => err);
      // The server answers from the Content-Length and closes; undici may see the close first.
      if (!(res instanceof Error)) {
        assert.equal(res.status, 413);
        assert.equal(((await res.json()) as { error: { field: string } }).error.field, 'body');
      }
    });

    test('a suppressed cc or bcc refuses the whole send (422 naming its field) with rejected-by-system events that carry the metadata', async () => {
      const { api: a, s } = await start();
      await a.deps.db
        .insertInto('suppressions')
        .values({
          account_id: s.accountId,
          address: 'gone@example.org',
          reason: 'hard_bounce',
          message_id: null,
          created_at: a.deps.clock.now(),
        })
        .execute();
      for (const field of ['cc', 'bcc']) {
        const r = await send(a, s.key, { ...good, [field]: 'Gone@example.org', metadata: { run: field } });
        assert.equal(r.status, 422);
        assert.equal(r.error?.type, 'recipient_suppressed');
        assert.equal(r.error?.field, field);
      }
      const rejected = await a.deps.db
        .selectFrom('events')
        .select(['event', 'recipient', 'metadata'])
        .orderBy('id')
        .execute();
      assert.deepEqual(
        rejected.map((e) => [e.event, e.recipient, JSON.parse(e.metadata ?? '')]),
        [
          ['rejected-by-system', 'Gone@example.org', { run: 'cc' }],
          ['rejected-by-system', 'Gone@example.org', { run: 'bcc' }],
        ],
      );
      assert.equal(await count(a, 'messages'), 0);
    });

    test('the monthly quota counts cc and bcc recipients', async () => {
      const { api: a, s } = await start();
      await a.deps.db.updateTable('accounts').set({ monthly_quota: 2 }).where('id', '=', s.accountId).execute();
      const r = await send(a, s.key, { ...good, cc: 'c@example.org', bcc: 'b@example.org' });
      assert.equal(r.status, 429);
      assert.equal(r.error?.type, 'quota_exceeded');
      assert.equal((await send(a, s.key, { ...good, bcc: 'b@example.org' })).status, 202);
    });

    test('Idempotency-Key: the same request (metadata keys in another order) is replayed; other file bytes are a different request', async () => {
      const { api: a, s } = await start();
      const body = {
        ...good,
        cc: 'c@example.org',
        attachments: [{ filename: 'a.pdf', content: PDF.toString('base64') }],
        metadata: { a: '1', b: '2' },
      };
      const key = { 'idempotency-key': 'order-4711' };
      const first = await send(a, s.key, body, key);
      assert.equal(first.status, 202);
      const again = await send(a, s.key, { ...body, metadata: { b: '2', a: '1' } }, key);
      assert.equal(again.status, 202);
      assert.equal(again.replayed, 'true');
      assert.equal(again.data?.id, first.data?.id);
      const changed = Buffer.from(PDF);
      changed[100] ^= 1;
      const other = await send(
        a,
        s.key,
        { ...body, attachments: [{ filename: 'a.pdf', content: changed.toString('base64') }] },
        key,
      );
      assert.equal(other.status, 422);
      assert.equal(other.error?.type, 'idempotency_key_reused');
      assert.equal(await count(a, 'messages'), 1);
    });

    test('an account token on POST /v1/send is 403 forbidden: sending takes the domain key', async () => {
      const { api: a } = await start();
      const token = await a.token('acme');
      const r = await send(a, token, good);
      assert.equal(r.status, 403);
      assert.equal(r.error?.type, 'forbidden');
    });
  });
}
