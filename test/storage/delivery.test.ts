// The delivery engine: real SMTP over loopback to a scripted sink MX whose answers depend
// on the recipient, a real DNS server on loopback, and the fake clock moved instead of sleeping.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { simpleParser } from 'mailparser';
import { LEASE_MS } from '../../src/delivery/delivery-worker.js';
import { readReturnPath } from '../../src/delivery/return-path.js';
import { findBareLineBreak } from '../../src/delivery/smtp/bare-line-break.js';
import { testDialects } from '../helpers/test-db.js';
import {
  BRAND_DOMAIN,
  createDeliveryHarness,
  MX_DOMAIN,
  NULL_MX_DOMAIN,
  SENDER_DOMAIN,
  type DeliveryHarness,
  type HarnessOptions,
} from '../helpers/delivery-harness.js';

const at = (local: string) => `${local}@${MX_DOMAIN}`;

for (const dialect of testDialects()) {
  describe(`delivery engine (${dialect})`, () => {
    let h: DeliveryHarness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });
    const harness = async (opts?: HarnessOptions) => {
      h = await createDeliveryHarness(dialect, opts);
      return h;
    };

    /** Sends one message and asserts it was accepted; returns its id. */
    async function accepted(hx: DeliveryHarness, body: Record<string, unknown>): Promise<string> {
      const res = await hx.send({
        from: `hello@${SENDER_DOMAIN}`,
        subject: 'Your receipt',
        html: '<p>Thanks for your order!</p>',
        ...body,
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      return res.body.id;
    }

    const suppressed = async (hx: DeliveryHarness, address: string) =>
      (await hx.deps.db
        .selectFrom('suppressions')
        .select(['reason', 'message_id'])
        .where('address', '=', address.toLowerCase())
        .executeTakeFirst()) ?? null;

    test('delivered mail: MAIL FROM on bounce.<domain>, DKIM verifies (and fails on one changed body byte), From rewritten, headers intact', async () => {
      const hx = await harness();
      const to = at('ok-receipt');
      const id = await accepted(hx, {
        from: `"Brand, Inc." <news@${BRAND_DOMAIN}>`,
        to: `Pat Doe <${to}>`,
        subject: 'Your receipt — déjà vu',
        text: 'Thanks for your order!\nTotal: 42 EUR',
        reply_to: `help@${SENDER_DOMAIN}`,
        headers: { 'X-Campaign': 'spring-2026' },
        tags: ['receipt'],
      });
      await hx.run();

      const got = hx.received(to);
      assert.equal(got.length, 1, 'delivered once');
      const mail = got[0]!;
      assert.deepEqual(mail.rcptTo, [to]);
      assert.ok(mail.tls, 'opportunistic STARTTLS was used');
      // The return path is on the aligned bounce domain and names the recipient (signed token).
      assert.match(
        mail.mailFrom,
        new RegExp(`^b-rcp[0-9a-z]{26}-[0-9a-z]{12}@bounce\\.${SENDER_DOMAIN.replace('.', '\\.')}$`),
      );
      const rcpt = await hx.deps.db
        .selectFrom('recipients')
        .select(['id', 'status'])
        .where('message_id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(readReturnPath(hx.returnPathSecret, mail.mailFrom), rcpt.id);
      assert.equal(rcpt.status, 'delivered');

      const dkim = await hx.verifyDkim(mail.raw);
      assert.deepEqual(
        dkim.map((d) => [d.result, d.domain, d.selector]),
        [['pass', SENDER_DOMAIN, hx.sender.selector]],
        JSON.stringify(dkim),
      );
      const split = mail.raw.indexOf('\r\n\r\nThanks');
      const bodyAt = split >= 0 ? split + 4 : mail.raw.lastIndexOf('Thanks');
      assert.ok(bodyAt > 0, 'the body text is in the message');
      const tampered = Buffer.from(mail.raw);
      tampered[bodyAt] = 't'.charCodeAt(0); // "Thanks" → "thanks": one body byte
      // mailauth reports a body hash mismatch as `neutral (body hash did not verify)`: not a pass.
      assert.deepEqual(
        (await hx.verifyDkim(tampered)).map((d) => [d.result, d.comment]),
        [['neutral', 'body hash did not verify']],
      );

      const parsed = await simpleParser(mail.raw);
      assert.deepEqual(
        parsed.from?.value,
        [{ name: 'Brand, Inc.', address: `news@${SENDER_DOMAIN}` }],
        "From rewritten to the key's domain, name kept",
      );
      assert.equal(parsed.subject, 'Your receipt — déjà vu');
      assert.equal(parsed.messageId, `<${id}@mail.posthorn.test>`);
      assert.deepEqual((parsed.to as { value: unknown[] }).value, [{ name: 'Pat Doe', address: to }]);
      assert.equal(parsed.headers.get('x-campaign'), 'spring-2026');
      assert.deepEqual((parsed.replyTo as { value: unknown[] }).value, [
        { name: '', address: `help@${SENDER_DOMAIN}` },
      ]);
      assert.equal(parsed.text?.trim(), 'Thanks for your order!\nTotal: 42 EUR');
      assert.equal(parsed.date?.getTime(), hx.deps.clock.now() - (hx.deps.clock.now() % 1000));

      // Events per recipient: accepted-by-system → accepted-by-mta → delivered, the last with the SMTP details.
      const events = await hx.events(id, to);
      assert.deepEqual(
        events.map((e) => e.event),
        ['accepted-by-system', 'accepted-by-mta', 'delivered'],
      );
      const delivered = events[2]!.details;
      assert.equal(delivered.mx_host, `127.0.0.1:${hx.sink!.port}`);
      assert.match(String((delivered.tls as { version?: string }).version), /^TLSv1\.[23]$/);
      assert.match(String(delivered.response), /^250 2\.0\.0 Ok: queued as /);
      assert.equal(await hx.deps.db.selectFrom('jobs').select('id').executeTakeFirst(), undefined, 'the job is done');
    });

    test('a deferral then success gives only `delivered`: no event for the deferral', async () => {
      const hx = await harness();
      const to = at('defer-1-once');
      const id = await accepted(hx, { to });
      await hx.run();
      assert.equal(hx.received(to).length, 0);
      // After the 451: the engine took and signed it, but the deferral itself is no event (only
      // outcomes are).
      assert.deepEqual(await hx.timeline(id, to), ['accepted-by-system', 'accepted-by-mta']);
      const job = await hx.deps.db
        .selectFrom('jobs')
        .select(['attempts', 'run_at', 'locked_by', 'last_error'])
        .executeTakeFirstOrThrow();
      assert.deepEqual([job.attempts, Number(job.run_at), job.locked_by], [1, hx.deps.clock.now() + 1000, null]);
      assert.match(String(job.last_error), /^451 4\.3\.0 /);
      assert.equal(
        (await hx.deps.db.selectFrom('recipients').select('status').executeTakeFirstOrThrow()).status,
        'deferred',
      );

      await hx.advance(999);
      assert.equal(hx.received(to).length, 0, 'not before the retry is due');
      await hx.advance(1);
      assert.equal(hx.received(to).length, 1);
      assert.deepEqual(await hx.timeline(id, to), ['accepted-by-system', 'accepted-by-mta', 'delivered']);
      assert.equal(
        (await hx.deps.db.selectFrom('recipients').select('status').executeTakeFirstOrThrow()).status,
        'delivered',
      );
      assert.equal(await hx.deps.db.selectFrom('jobs').select('id').executeTakeFirst(), undefined);
    });

    test('deferral past the queue lifetime gives `failed` (soft, not suppressed)', async () => {
      const hx = await harness();
      const to = at('defer-forever');
      const id = await accepted(hx, { to });
      await hx.run();
      // Schedule 1s, lifetime 5s: attempts at 0…5 s, and the one after would land past the lifetime.
      for (let s = 1; s <= 5; s++) {
        assert.deepEqual(
          await hx.timeline(id, to),
          ['accepted-by-system', 'accepted-by-mta'],
          `still queued at ${s - 1} s`,
        );
        await hx.advance(1000);
      }
      const events = await hx.events(id, to);
      assert.deepEqual(
        events.map((e) => e.event),
        ['accepted-by-system', 'accepted-by-mta', 'failed'],
      );
      assert.equal(events[2]!.details.bounce_class, 'soft');
      assert.match(String(events[2]!.details.reason), /^gave up after 6 attempts: 451 /);
      assert.equal(await suppressed(hx, to), null);
      assert.equal(await hx.deps.db.selectFrom('jobs').select('id').executeTakeFirst(), undefined);
      await hx.advance(60_000);
      assert.equal((await hx.events(id, to)).length, 3, 'nothing after the give-up');
    });

    test('550 5.1.1 gives `failed` and suppression, so the next send is 422', async () => {
      const hx = await harness();
      const to = at('bounce-gone');
      const id = await accepted(hx, { to });
      await hx.run();
      const events = await hx.events(id, to);
      assert.deepEqual(
        events.map((e) => e.event),
        ['accepted-by-system', 'accepted-by-mta', 'failed'],
      );
      assert.deepEqual([events[2]!.details.bounce_class, events[2]!.details.enhanced_status], ['hard', '5.1.1']);
      assert.match(String(events[2]!.details.response), /^550 5\.1\.1 /);
      assert.deepEqual(await suppressed(hx, to), { reason: 'hard_bounce', message_id: id });
      assert.equal(hx.received(to).length, 0);
      const again = await hx.send({ from: `hello@${SENDER_DOMAIN}`, to, subject: 'Again', html: '<p>x</p>' });
      assert.deepEqual(
        [again.status, again.body.error?.type, again.body.error?.field],
        [422, 'recipient_suppressed', 'to'],
      );
    });

    test('550 5.7.1 gives `failed` with bounce_class block and no suppression', async () => {
      const hx = await harness();
      const to = at('block-me');
      const id = await accepted(hx, { to });
      await hx.run();
      const events = await hx.events(id, to);
      assert.deepEqual(
        events.map((e) => e.event),
        ['accepted-by-system', 'accepted-by-mta', 'failed'],
      );
      assert.equal(events[2]!.details.bounce_class, 'block');
      assert.equal(await suppressed(hx, to), null);
      assert.equal(
        (await hx.send({ from: `hello@${SENDER_DOMAIN}`, to, subject: 'Again', html: '<p>x</p>' })).status,
        202,
      );
    });

    test('a null MX gives `rejected-by-mta` and no connection', async () => {
      const hx = await harness();
      const to = `someone@${NULL_MX_DOMAIN}`;
      const id = await accepted(hx, { to });
      await hx.run();
      const events = await hx.events(id, to);
      assert.deepEqual(
        events.map((e) => e.event),
        ['accepted-by-system', 'accepted-by-mta', 'rejected-by-mta'],
      );
      assert.match(String(events[2]!.details.reason), /null MX/);
      assert.equal(hx.sink!.connections, 0);
      assert.equal(
        (await hx.deps.db.selectFrom('recipients').select('status').executeTakeFirstOrThrow()).status,
        'rejected',
      );
      assert.equal(await suppressed(hx, to), null);
      assert.equal(await hx.deps.db.selectFrom('jobs').select('id').executeTakeFirst(), undefined);
    });

    test('a bare CR or LF in an API text or html never goes out: what the MX receives has CRLF only, DKIM passes', async () => {
      const hx = await harness();
      const to = at('ok-bare-cr');
      await accepted(hx, {
        to,
        text: 'line one\rline two\nline three\r\n.\rMAIL FROM:<x@evil.test>\r',
        html: '<p>a\rb</p>\r<p>c é</p>',
      });
      await hx.run();
      const [mail] = hx.received(to);
      assert.ok(mail, 'delivered');
      assert.equal(findBareLineBreak(mail.raw), null, 'no bare CR or LF in the delivered bytes');
      assert.deepEqual(
        (await hx.verifyDkim(mail.raw)).map((d) => d.result),
        ['pass'],
      );
      const parsed = await simpleParser(mail.raw);
      assert.deepEqual(parsed.text?.replace(/\r\n/g, '\n').trimEnd().split('\n').slice(0, 3), [
        'line one',
        'line two',
        'line three',
      ]);
    });

    test('one transaction, a reply per recipient: each recipient gets its own outcome', async () => {
      const hx = await harness();
      const [ok, bounce, block, defer] = [at('ok-mixed'), at('bounce-mixed'), at('block-mixed'), at('defer-1-mixed')];
      const id = await accepted(hx, { to: [ok, bounce, block, defer] });
      await hx.run();
      assert.equal(hx.sink!.messages.length, 1);
      assert.deepEqual(hx.sink!.messages[0]!.rcptTo, [ok]);
      // Several recipients in one transaction: the return path is a group token naming the first of
      // them (shared by the transaction's recipients), never the message as a whole.
      const subject = readReturnPath(hx.returnPathSecret, hx.sink!.messages[0]!.mailFrom) ?? '';
      assert.match(subject, /^grp_/);
      const anchor = await hx.deps.db
        .selectFrom('recipients')
        .select(['message_id', 'address'])
        .where('id', '=', `rcp_${subject.slice(4)}`)
        .executeTakeFirstOrThrow();
      assert.equal(anchor.message_id, id);
      assert.ok([ok, bounce, block, defer].includes(anchor.address), anchor.address);
      await hx.advance(1000);
      assert.deepEqual(
        hx.sink!.messages.map((m) => m.rcptTo),
        [[ok], [defer]],
      );
      for (const [address, last] of [
        [ok, 'delivered'],
        [bounce, 'failed'],
        [block, 'failed'],
        [defer, 'delivered'],
      ] as const) {
        assert.deepEqual(await hx.timeline(id, address), ['accepted-by-system', 'accepted-by-mta', last], address);
      }
      assert.ok(await suppressed(hx, bounce));
      assert.equal(await suppressed(hx, block), null);
    });

    test('150 recipients at a sink that takes 100 per transaction arrive in 100 + 50; three API messages of 50 arrive whole', async () => {
      const hx = await harness({ sink: { maxRecipients: 100 } });
      // The API takes at most 50 recipients (docs/api.md, Fields); the SMTP relay will take more,
      // so this one is inserted as submit's plan() writes it.
      const id = await hx.insertMessage(Array.from({ length: 150 }, (_, i) => at(`ok-big-${i}`)));
      hx.worker.nudge();
      await hx.run();
      const big = hx.sink!.messages.filter((m) => m.rcptTo[0]?.startsWith('ok-big-'));
      assert.deepEqual(
        big.map((m) => m.rcptTo.length).sort((a, b) => b - a),
        [100, 50],
        'two transactions, no 452 and retry',
      );
      assert.equal(new Set(big.flatMap((m) => m.rcptTo)).size, 150);
      const delivered = await hx.deps.db
        .selectFrom('events')
        .select('recipient')
        .where('message_id', '=', id)
        .where('event', '=', 'delivered')
        .execute();
      assert.equal(delivered.length, 150);

      const ids: string[] = [];
      for (let n = 0; n < 3; n++)
        ids.push(await accepted(hx, { to: Array.from({ length: 50 }, (_, i) => at(`ok-api${n}-${i}`)) }));
      await hx.run();
      for (let n = 0; n < 3; n++) {
        const got = hx.sink!.messages.filter((m) => m.rcptTo[0]?.startsWith(`ok-api${n}-`));
        assert.deepEqual(
          got.map((m) => m.rcptTo.length),
          [50],
          `message ${n} in one transaction`,
        );
        const events = await hx.deps.db
          .selectFrom('events')
          .select('recipient')
          .where('message_id', '=', ids[n]!)
          .where('event', '=', 'delivered')
          .execute();
        assert.equal(events.length, 50);
      }
      assert.equal(await hx.deps.db.selectFrom('jobs').select('id').executeTakeFirst(), undefined);
    });

    test('a sink that drops the connection mid-DATA gets the message again later', async () => {
      const hx = await harness();
      const to = at('drop-1-cut');
      const id = await accepted(hx, { to });
      await hx.run();
      assert.equal(hx.received(to).length, 0, 'the cut transaction is not a delivery');
      assert.deepEqual(await hx.timeline(id, to), ['accepted-by-system', 'accepted-by-mta']);
      const job = await hx.deps.db.selectFrom('jobs').select(['attempts', 'locked_by']).executeTakeFirstOrThrow();
      assert.deepEqual([job.attempts, job.locked_by], [1, null]);
      await hx.advance(1000);
      const got = hx.received(to);
      assert.equal(got.length, 1);
      assert.deepEqual(
        (await hx.verifyDkim(got[0]!.raw)).map((d) => d.result),
        ['pass'],
      );
      assert.deepEqual(await hx.timeline(id, to), ['accepted-by-system', 'accepted-by-mta', 'delivered']);
    });

    test(
      'a message that cannot be loaded does not stop the worker from delivering the others',
      { timeout: 20_000 },
      async () => {
        const hx = await harness();
        // A row the worker cannot read (corrupt JSON) is a fault of that message alone: its jobs wait
        // for their lease to end, and the loop goes on. (Were the loop to die, run() would never return.)
        await hx.insertMessage([at('ok-poison')], { tags: 'not json' });
        hx.worker.nudge();
        await hx.run();
        const good = await accepted(hx, { to: at('ok-after-poison') });
        await hx.run();
        assert.equal(hx.received(at('ok-after-poison')).length, 1);
        assert.deepEqual(await hx.timeline(good, at('ok-after-poison')), [
          'accepted-by-system',
          'accepted-by-mta',
          'delivered',
        ]);
        const stuck = await hx.deps.db.selectFrom('jobs').select(['run_at', 'attempts']).executeTakeFirstOrThrow();
        assert.deepEqual(
          [Number(stuck.run_at), stuck.attempts],
          [hx.deps.clock.now() + LEASE_MS, 0],
          'the unreadable one waits for its lease',
        );
      },
    );

    test('graceful stop: no more claims, the attempt in flight finishes and is recorded', async () => {
      const hx = await harness({ sink: { slowDataMs: 600 } });
      const to = at('slow-finish');
      const id = await accepted(hx, { to });
      hx.worker.nudge();
      await hx.sink!.waitFor((_m, s) => s.openConnections > 0);
      const started = performance.now();
      await hx.worker.stop(5_000);
      const took = performance.now() - started;
      assert.ok(took < 3_000, `stop took ${took} ms`);
      assert.equal(hx.received(to).length, 1);
      assert.deepEqual(await hx.timeline(id, to), ['accepted-by-system', 'accepted-by-mta', 'delivered']);
      assert.equal(await hx.deps.db.selectFrom('jobs').select('id').executeTakeFirst(), undefined);
      // Stopped means stopped: a new message stays queued.
      const later = await accepted(hx, { to: at('ok-after-stop') });
      hx.worker.nudge();
      const job = await hx.deps.db
        .selectFrom('jobs')
        .select(['locked_by', 'attempts'])
        .where('message_id', '=', later)
        .executeTakeFirstOrThrow();
      assert.deepEqual([job.locked_by, job.attempts], [null, 0]);
    });

    test('graceful stop with a stuck MX returns within its bound; what was in flight is retried after the lease', async () => {
      const hx = await harness({ sink: { slowDataMs: 60_000 }, mxMaxConnections: 1 });
      const slow = [at('slow-a'), at('slow-b'), at('slow-c')];
      const ids = [];
      for (const to of slow) ids.push(await accepted(hx, { to }));
      hx.worker.nudge();
      await hx.sink!.waitFor((_m, s) => s.openConnections > 0);
      const started = performance.now();
      await hx.worker.stop(300);
      const took = performance.now() - started;
      assert.ok(took >= 300 && took < 2_000, `stop took ${took} ms`);
      // Nothing is lost: every job is still queued, due again by the end of the lease at the latest.
      const jobs = await hx.deps.db.selectFrom('jobs').select(['run_at', 'attempts']).execute();
      assert.equal(jobs.length, 3);
      assert.ok(
        jobs.every((j) => Number(j.run_at) <= hx.deps.clock.now() + LEASE_MS && j.attempts === 0),
        JSON.stringify(jobs),
      );
      assert.equal(hx.sink!.messages.length, 0);
      for (let i = 0; i < 3; i++) assert.deepEqual(await hx.timeline(ids[i]!, slow[i]!), ['accepted-by-system']);
      hx.sink!.dropConnections(); // lets the transport close without waiting for the stuck reply
    });
  });
}
