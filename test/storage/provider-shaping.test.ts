// Delivery shaping per mailbox provider (docs/delivery.md), end to end: real SMTP over
// loopback to a scripted sink MX that the loopback DNS server names mx.test-gmail.example, which
// POSTHORN_PROVIDERS rolls up into `gmail`; the fake clock is moved instead of sleeping, and the
// pace is measured on the sink, in messages per window of that clock.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAccountToken } from '../../src/credentials/account-tokens.js';
import { CLI_ACTOR } from '../../src/core/actor.js';
import { showProvider } from '../../src/delivery/provider-status.js';
import { resumeDelivery, suspendDelivery } from '../../src/queue-control/delivery-holds.js';
import { listQueue } from '../../src/queue-control/list-queue.js';
import { testDialects } from '../helpers/test-db.js';
import { createDeliveryHarness, MX_DOMAIN, SENDER_DOMAIN, type DeliveryHarness } from '../helpers/delivery-harness.js';
import type { SinkAction, SinkBehaviour } from '../helpers/sink-mx.js';

const GMAIL_DOMAIN = 'gmail.test';
const GMAIL_MX = 'mx.test-gmail.example';
const NODE = 'mail.posthorn.test'; // POSTHORN_HOSTNAME of the test deps
const accept: SinkAction = { kind: 'accept' };
const reject = (code: number, message: string): SinkAction => ({ kind: 'reject', code, message });

for (const dialect of testDialects()) {
  describe(`provider shaping (${dialect})`, () => {
    let h: DeliveryHarness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    /** A harness whose gmail.test MX is the sink under a gmail-like name, gmail paced at 60 per minute. */
    async function harness(
      behaviour: SinkBehaviour,
      gmail: Record<string, unknown> = { per_minute: 60, connections: 2, messages_per_connection: 10 },
    ): Promise<DeliveryHarness> {
      h = await createDeliveryHarness(dialect, {
        sink: { behaviour },
        zone: {
          [GMAIL_DOMAIN]: { MX: [{ exchange: GMAIL_MX, priority: 10 }] },
          [GMAIL_MX]: { A: ['127.0.0.1'] },
        },
        env: {
          POSTHORN_PROVIDERS: JSON.stringify({
            gmail: { suffixes: ['test-gmail.example'], ...gmail },
          }),
          POSTHORN_RETRY_SCHEDULE: '1s',
          POSTHORN_MAX_QUEUE_LIFETIME: '3h',
        },
      });
      return h;
    }

    /** Advances the fake clock one second at a time, `seconds` times, running the worker to idle after each. */
    async function tick(hx: DeliveryHarness, seconds: number): Promise<void> {
      for (let i = 0; i < seconds; i++) await hx.advance(1000);
    }

    const rateOf = async (hx: DeliveryHarness) =>
      (await hx.deps.db
        .selectFrom('provider_throttles')
        .selectAll()
        .where('provider', '=', 'gmail')
        .executeTakeFirst()) ?? null;

    test('421 to every fifth message lowers the pace seen by the sink, which recovers once the 421s stop', async (t) => {
      let now = () => 0;
      let throttling = true;
      let rcpts = 0;
      const taken: number[] = [];
      const hx = await harness((rcpt) => {
        if (!rcpt.endsWith(`@${GMAIL_DOMAIN}`)) return accept;
        rcpts++;
        if (throttling && rcpts % 5 === 0) return reject(421, '4.7.0 Try again later, closing connection.');
        taken.push(now());
        return accept;
      });
      now = () => hx.deps.clock.now();
      const t0 = hx.deps.clock.now();
      for (let i = 0; i < 200; i++) await hx.insertMessage([`r${i}@${GMAIL_DOMAIN}`]);
      await hx.run();
      await tick(hx, 60);
      const throttled = await rateOf(hx);
      assert.ok(throttled !== null && throttled.rate < 60, `rate after the 421s: ${throttled?.rate}`);
      assert.ok(Number(throttled.throttle_events) >= 3, `throttle events: ${throttled.throttle_events}`);
      const scrape = await hx.deps.metrics.registry.metrics();
      assert.match(scrape, /posthorn_provider_throttles_total\{provider="gmail"\} [1-9]/);
      const gauge = /posthorn_provider_rate_per_minute\{provider="gmail"\} ([\d.]+)/.exec(scrape);
      assert.ok(gauge !== null && Number(gauge[1]) < 60, `rate gauge: ${gauge?.[1]}`);

      throttling = false;
      await tick(hx, 150);
      const windows = Array.from(
        { length: 21 },
        (_, k) => taken.filter((t) => t >= t0 + k * 10_000 && t < t0 + (k + 1) * 10_000).length,
      );
      t.diagnostic(`recipients the sink took per 10 s (421s until 60 s): ${windows.join(',')}`);
      const first = windows[0]!;
      const slowest = Math.min(...windows.slice(2, 6));
      const last = windows[19]!;
      // At 60 per minute a 10 s window holds about 10; the 421s halve the pace (once per 10 s round).
      assert.ok(first >= 5, `first window: ${windows.join(',')}`);
      assert.ok(slowest < first / 2, `the pace fell: ${windows.join(',')}`);
      assert.ok(last >= 8 && last > slowest * 2, `the pace recovered: ${windows.join(',')}`);
      const recovered = await rateOf(hx);
      assert.equal(recovered?.rate, 60);
      assert.ok(
        hx.sink!.connectionLog.every((c) => c.transactions <= 10),
        'sessions closed after 10 messages',
      );
      // Never faster than the configured pace, burst of one second included.
      assert.ok(Math.max(...windows) <= 11, `never over 60 per minute: ${windows.join(',')}`);
    });

    test("a provider's connections are shared by its transactions and closed after its messages per connection", async () => {
      const hx = await harness(() => accept, { per_minute: null, connections: 2, messages_per_connection: 3 });
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(await hx.insertMessage([`c${i}@${GMAIL_DOMAIN}`]));
      await hx.run();
      for (const [i, id] of ids.entries())
        assert.deepEqual(await hx.timeline(id, `c${i}@${GMAIL_DOMAIN}`), [
          'accepted-by-system',
          'accepted-by-mta',
          'delivered',
        ]);
      const sink = hx.sink!;
      assert.ok(sink.peakConnections <= 2, `peak connections ${sink.peakConnections}`);
      assert.ok(
        sink.connectionLog.every((c) => c.transactions <= 3),
        JSON.stringify(sink.connectionLog),
      );
      assert.ok(
        sink.connections >= 4,
        `12 messages at 3 per connection need at least 4 connections, saw ${sink.connections}`,
      );
    });

    test('"try again in 5 seconds" holds that recipient back 5 s, though the retry schedule says 1 s', async () => {
      let now = () => 0;
      const seen: number[] = [];
      const hx = await harness((rcpt) => {
        if (!rcpt.startsWith('wait@')) return accept;
        seen.push(now());
        return seen.length === 1 ? reject(451, '4.7.1 Rate limited, try again in 5 seconds') : accept;
      });
      now = () => hx.deps.clock.now();
      const t0 = hx.deps.clock.now();
      const id = await hx.insertMessage([`wait@${GMAIL_DOMAIN}`]);
      await hx.run();
      const job = await hx.deps.db
        .selectFrom('jobs')
        .select(['run_at', 'attempts', 'provider'])
        .where('message_id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(job.run_at), t0 + 5000);
      assert.equal(Number(job.attempts), 1);
      // The MX host is gmail's only by the configured suffix: the queue names the provider the pacing used.
      assert.equal(job.provider, 'gmail');
      for (let i = 0; i < 10 && seen.length < 2; i++) await hx.advance(1000);
      assert.equal(seen.length, 2);
      assert.ok(seen[1]! - seen[0]! >= 5000, `retried after ${seen[1]! - seen[0]!} ms`);
      assert.deepEqual(await hx.timeline(id, `wait@${GMAIL_DOMAIN}`), [
        'accepted-by-system',
        'accepted-by-mta',
        'delivered',
      ]);
    });

    test('a provider added by POSTHORN_PROVIDERS is named by the queue, and its queue can be listed and held by that name', async () => {
      let deferred = true;
      h = await createDeliveryHarness(dialect, {
        sink: { behaviour: () => (deferred ? reject(451, '4.3.0 Try again later') : accept) },
        zone: {
          [GMAIL_DOMAIN]: { MX: [{ exchange: GMAIL_MX, priority: 10 }] },
          [GMAIL_MX]: { A: ['127.0.0.1'] },
        },
        env: { POSTHORN_PROVIDERS: 'corp=test-gmail.example', POSTHORN_RETRY_SCHEDULE: '1s' },
      });
      const hx = h;
      const id = await hx.insertMessage([`ana@${GMAIL_DOMAIN}`]);
      await hx.run();
      const listed = await listQueue(hx.deps, { any: true }, { provider: 'corp', limit: 10 });
      assert.deepEqual(
        listed.jobs.map((j) => [j.message_id, j.provider, j.status]),
        [[id, 'corp', 'deferred']],
      );
      assert.equal((await listQueue(hx.deps, { any: true }, { provider: 'other', limit: 10 })).jobs.length, 0);
      // A hold by the added name holds its mail; the refusal of an unknown name lists the added one.
      await suspendDelivery(hx.deps, { node: true }, { scope: 'provider', value: 'corp' }, CLI_ACTOR);
      deferred = false;
      await hx.advance(2000);
      const job = await hx.deps.db
        .selectFrom('jobs')
        .select(['held', 'provider'])
        .where('message_id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(job.held, 'provider:corp:*');
      await assert.rejects(
        suspendDelivery(hx.deps, { node: true }, { scope: 'provider', value: 'hotmail' }, CLI_ACTOR),
        /provider must be one of gmail, outlook, yahoo, apple, corp, other/,
      );
      await resumeDelivery(hx.deps, { node: true }, { scope: 'provider', value: 'corp' }, CLI_ACTOR);
      await hx.run();
      assert.deepEqual(await hx.timeline(id, `ana@${GMAIL_DOMAIN}`), [
        'accepted-by-system',
        'accepted-by-mta',
        'delivered',
      ]);
    });

    test('a 5.7.1 block suspends the provider on this node with a notice; its mail is deferred, not failed, and goes out after', async () => {
      let blocking = true;
      const hx = await harness((rcpt) =>
        blocking && rcpt.startsWith('victim@')
          ? reject(550, '5.7.1 Service unavailable; client host [127.0.0.1] blocked using zen.spamhaus.org')
          : accept,
      );
      const t0 = hx.deps.clock.now();
      const victim = `victim@${GMAIL_DOMAIN}`;
      const m1 = await hx.insertMessage([victim]);
      await hx.run();
      assert.deepEqual(await hx.timeline(m1, victim), ['accepted-by-system', 'accepted-by-mta']);
      const r1 = await hx.deps.db
        .selectFrom('recipients')
        .select('status')
        .where('message_id', '=', m1)
        .executeTakeFirstOrThrow();
      assert.equal(r1.status, 'deferred');
      const job1 = await hx.deps.db
        .selectFrom('jobs')
        .select('run_at')
        .where('message_id', '=', m1)
        .executeTakeFirstOrThrow();
      assert.equal(Number(job1.run_at), t0 + 3_600_000);
      const suspension = await hx.deps.db.selectFrom('provider_suspensions').selectAll().executeTakeFirstOrThrow();
      assert.equal(suspension.provider, 'gmail');
      assert.equal(suspension.node, NODE);
      assert.equal(Number(suspension.until), t0 + 3_600_000);
      const notices = await hx.deps.db
        .selectFrom('notices')
        .selectAll()
        .where('kind', '=', 'provider.suspended')
        .execute();
      assert.equal(notices.length, 1);
      assert.equal(notices[0]!.account_id, hx.sender.accountId);
      assert.match(
        notices[0]!.message,
        /gmail: delivery from mail\.posthorn\.test suspended until .* blocked using zen\.spamhaus\.org/,
      );

      // Meanwhile gmail's mail waits (no attempt counted) and other destinations are not held up.
      const m2 = await hx.insertMessage([`later@${GMAIL_DOMAIN}`]);
      const m3 = await hx.insertMessage([`ok-elsewhere@${MX_DOMAIN}`]);
      await hx.advance(60_000);
      assert.deepEqual(await hx.timeline(m3, `ok-elsewhere@${MX_DOMAIN}`), [
        'accepted-by-system',
        'accepted-by-mta',
        'delivered',
      ]);
      assert.equal(hx.received(`later@${GMAIL_DOMAIN}`).length, 0);
      const job2 = await hx.deps.db
        .selectFrom('jobs')
        .select(['run_at', 'attempts'])
        .where('message_id', '=', m2)
        .executeTakeFirstOrThrow();
      assert.equal(Number(job2.run_at), t0 + 3_600_000);
      assert.equal(Number(job2.attempts), 0);
      assert.match(await hx.deps.metrics.registry.metrics(), /posthorn_provider_suspended\{provider="gmail"\} 1/);

      // Visible to operators: provider show (the CLI's view) and GET /v1/providers, admins only.
      const view = await showProvider(hx.deps, 'gmail');
      assert.equal(view.suspended, true);
      assert.deepEqual(
        view.suspensions.map((s) => [s.node, s.until]),
        [[NODE, new Date(t0 + 3_600_000).toISOString()]],
      );
      await assert.rejects(showProvider(hx.deps, 'hotmale'), /no provider named "hotmale"/);
      const admin = await createAccountToken(hx.deps, 'acme', { role: 'admin', actor: CLI_ACTOR });
      const viewer = await createAccountToken(hx.deps, 'acme', { role: 'viewer', actor: CLI_ACTOR });
      const res = await hx.app.inject({
        method: 'GET',
        url: '/v1/providers',
        headers: { authorization: `Bearer ${admin.token}` },
      });
      assert.equal(res.statusCode, 200, res.body);
      const listed = (
        res.json() as { providers: { provider: string; suspended: boolean; per_minute: number | null }[] }
      ).providers;
      assert.deepEqual(
        listed.map((p) => [p.provider, p.suspended, p.per_minute]),
        [
          ['gmail', true, 60],
          ['outlook', false, 600],
          ['yahoo', false, 600],
          ['apple', false, 600],
          ['other', false, null],
        ],
      );
      const denied = await hx.app.inject({
        method: 'GET',
        url: '/v1/providers',
        headers: { authorization: `Bearer ${viewer.token}` },
      });
      assert.equal(denied.statusCode, 403);
      const byKey = await hx.app.inject({
        method: 'GET',
        url: '/v1/providers',
        headers: { authorization: `Bearer ${hx.sender.key}` },
      });
      assert.equal(byKey.statusCode, 403);

      // After the suspension both go out; the blocked recipient was never failed nor suppressed.
      blocking = false;
      await hx.advance(3_600_000 - 60_000);
      await tick(hx, 2); // both come due at once: the second a second later, at 60 per minute
      assert.deepEqual(await hx.timeline(m1, victim), ['accepted-by-system', 'accepted-by-mta', 'delivered']);
      assert.deepEqual(await hx.timeline(m2, `later@${GMAIL_DOMAIN}`), [
        'accepted-by-system',
        'accepted-by-mta',
        'delivered',
      ]);
      assert.equal(await hx.deps.db.selectFrom('suppressions').select('address').executeTakeFirst(), undefined);
      assert.match(await hx.deps.metrics.registry.metrics(), /posthorn_provider_suspended\{provider="gmail"\} 0/);
    });

    test('the same block from a host of no provider (`other`) fails the recipient as before: no suspension', async () => {
      const hx = await harness((rcpt) =>
        rcpt.startsWith('block')
          ? reject(550, '5.7.1 Service unavailable; client host [127.0.0.1] blocked using zen.spamhaus.org')
          : accept,
      );
      const address = `block-ip@${MX_DOMAIN}`;
      const id = await hx.insertMessage([address]);
      await hx.run();
      assert.deepEqual(await hx.timeline(id, address), ['accepted-by-system', 'accepted-by-mta', 'failed']);
      const [failed] = (await hx.events(id, address)).filter((e) => e.event === 'failed');
      assert.equal(failed!.details.bounce_class, 'block');
      assert.equal(
        await hx.deps.db.selectFrom('provider_suspensions').select('provider').executeTakeFirst(),
        undefined,
      );
    });

    test('Feedback-ID: campaign:account:domain:sender id, colons escaped, signed by DKIM, and in the source as delivered', async () => {
      const hx = await harness(() => accept);
      const to = `ok-fbl@${MX_DOMAIN}`;
      const res = await hx.send({
        from: `hello@${SENDER_DOMAIN}`,
        to,
        subject: 'Spring',
        html: '<p>Hello</p>',
        tags: ['spring:sale 2026', 'second'],
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      await hx.run();
      const [message] = hx.received(to);
      assert.ok(message);
      const head = message.raw.toString('latin1').split('\r\n\r\n')[0]!;
      const values = [...head.matchAll(/^Feedback-ID: (.*)$/gim)].map((m) => m[1]!);
      assert.deepEqual(values, [`spring_sale_2026:${hx.sender.accountId}:${SENDER_DOMAIN}:posthorn`]);
      assert.equal(values[0]!.split(':').length, 4);
      const dkim = /^DKIM-Signature:[\s\S]*?(?=\r\n\S)/m.exec(head)![0].replace(/\r\n\s+/g, ' ');
      assert.match(dkim, /h=[^;]*feedback-id/i);
      assert.deepEqual(
        (await hx.verifyDkim(message.raw)).map((v) => v.result),
        ['pass'],
      );
      // Changing the header breaks the signature: it is covered.
      const tampered = Buffer.from(message.raw.toString('latin1').replace(':posthorn\r\n', ':posthorx\r\n'), 'latin1');
      assert.notDeepEqual(
        (await hx.verifyDkim(tampered)).map((v) => v.result),
        ['pass'],
      );
      // GET /v1/messages/{id}/content rebuilds the source as delivered, Feedback-ID included.
      const content = await hx.app.inject({
        method: 'GET',
        url: `/v1/messages/${res.body.id}/content`,
        headers: { authorization: `Bearer ${hx.sender.key}` },
      });
      assert.equal(content.statusCode, 200, content.body);
      assert.equal(content.rawPayload.toString('latin1'), message.raw.toString('latin1'));
    });
  });
}
