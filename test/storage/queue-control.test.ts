// Queue control and scheduled send (docs/delivery.md) on the real delivery engine: a fake
// clock, a real SMTP sink over loopback, the loopback DNS server, and the management API over real
// HTTPS with every answer checked against the OpenAPI document by the typed client.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CLI_ACTOR } from '../../src/core/actor.js';
import { listHolds, resumeDelivery, suspendDelivery } from '../../src/queue-control/delivery-holds.js';
import { listQueue, showQueue } from '../../src/queue-control/list-queue.js';
import { cancelMessage, retryQueue } from '../../src/queue-control/queue-actions.js';
import { HOLD_RECHECK_MS } from '../../src/queue/holds.js';
import { watchDatabaseGauges } from '../../src/metrics/database-gauges.js';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { createDeliveryHarness, MX_DOMAIN, type DeliveryHarness } from '../helpers/delivery-harness.js';
import { assertError, auditEntries, rawCall } from '../helpers/management-calls.js';
import { testDialects } from '../helpers/test-db.js';
import { createRelayHarness, type RelayHarness } from '../helpers/relay-harness.js';

const NODE = { node: true } as const;
const ANY = { any: true } as const;

function mail(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { from: 'hello@acme.test', to: `ana@${MX_DOMAIN}`, subject: 'Hello', html: '<p>Hi</p>', ...over };
}

async function jobOf(hx: DeliveryHarness, messageId: string) {
  return hx.deps.db.selectFrom('jobs').selectAll().where('message_id', '=', messageId).executeTakeFirst();
}

async function recipientStatus(hx: DeliveryHarness, messageId: string): Promise<string[]> {
  const rows = await hx.deps.db
    .selectFrom('recipients')
    .select('status')
    .where('message_id', '=', messageId)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.status);
}

for (const dialect of testDialects()) {
  describe(`queue control (${dialect})`, () => {
    let hx: DeliveryHarness;
    let api: ApiHarness;
    let admin: string;
    let viewer: string;
    let otherToken: string;

    before(async () => {
      hx = await createDeliveryHarness(dialect, { env: { POSTHORN_MAX_QUEUE_LIFETIME: '1h' } });
      api = await startApiHarness(dialect, { deps: hx.deps });
      admin = await api.token('acme');
      viewer = await api.token('acme', 'viewer');
      otherToken = await api.token('other');
    });
    after(async () => {
      await api?.close();
      await hx?.close();
    });

    test('a held domain is not attempted while held (no attempt counted) and is delivered once resumed', async () => {
      const hold = await suspendDelivery(
        hx.deps,
        NODE,
        { scope: 'domain', value: 'Example.ORG', reason: 'their MX is down' },
        CLI_ACTOR,
      );
      assert.deepEqual(
        [hold.scope, hold.value, hold.account_only, hold.reason],
        ['domain', 'example.org', false, 'their MX is down'],
      );
      const to = `held-1@${MX_DOMAIN}`;
      const sent = await hx.send(mail({ to }));
      assert.equal(sent.status, 202);
      await hx.run();
      assert.equal(hx.received(to).length, 0, 'nothing is sent to a held domain');
      const job = await jobOf(hx, sent.body.id);
      assert.equal(job?.attempts, 0, 'a hold does not count an attempt');
      assert.equal(job?.held, 'domain:example.org:*');
      assert.equal(job?.locked_by, null);
      assert.equal(Number(job?.run_at), hx.deps.clock.now() + HOLD_RECHECK_MS);
      const listed = await listQueue(hx.deps, ANY, { limit: 10, status: 'suspended' });
      assert.deepEqual(
        listed.jobs.map((j) => [j.message_id, j.recipient, j.domain, j.status, j.attempts]),
        [[sent.body.id, to, MX_DOMAIN, 'suspended', 0]],
      );
      // Looked at again after the recheck interval: still held, still not sent, still no attempt.
      await hx.advance(HOLD_RECHECK_MS);
      assert.equal(hx.received(to).length, 0);
      assert.equal((await jobOf(hx, sent.body.id))?.attempts, 0);
      assert.deepEqual(await hx.timeline(sent.body.id, to), ['accepted-by-system']);

      const resumed = await resumeDelivery(hx.deps, NODE, { scope: 'domain', value: MX_DOMAIN }, CLI_ACTOR);
      assert.equal(resumed.released, 1, 'resume makes the held job due at once');
      await hx.run();
      assert.equal(hx.received(to).length, 1);
      assert.deepEqual(await hx.timeline(sent.body.id, to), ['accepted-by-system', 'accepted-by-mta', 'delivered']);
      assert.equal(await jobOf(hx, sent.body.id), undefined);
      await assert.rejects(
        resumeDelivery(hx.deps, NODE, { scope: 'domain', value: MX_DOMAIN }, CLI_ACTOR),
        (e: Error & { reason?: string }) => e.reason === 'not_found' && /not suspended/.test(e.message),
      );
      // Both changes are in the account's audit log, as the CLI made them.
      const suspends = await auditEntries(api, admin, 'queue.suspend');
      assert.ok(suspends.some((e) => e.target === 'domain:example.org' && e.actor === 'cli'));
      assert.ok((await auditEntries(api, admin, 'queue.resume')).some((e) => e.target === 'domain:example.org'));
    });

    test('a held provider is checked at the MX host; a hold with an end lets the mail go when it ends', async () => {
      // The zone's MX for example.org is 127.0.0.1: provider `other`.
      await suspendDelivery(hx.deps, NODE, { scope: 'provider', value: 'other' }, CLI_ACTOR);
      const to = `held-2@${MX_DOMAIN}`;
      const sent = await hx.send(mail({ to }));
      await hx.run();
      assert.equal(hx.received(to).length, 0);
      const job = await jobOf(hx, sent.body.id);
      assert.equal(job?.held, 'provider:other:*');
      assert.equal(job?.attempts, 0);
      assert.equal(job?.provider, 'other', 'the provider the route led to is recorded');
      await resumeDelivery(hx.deps, NODE, { scope: 'provider', value: 'other' }, CLI_ACTOR);
      await hx.run();
      assert.equal(hx.received(to).length, 1);

      const until = hx.deps.clock.now() + 10_000;
      await suspendDelivery(hx.deps, NODE, { scope: 'domain', value: MX_DOMAIN, until }, CLI_ACTOR);
      const to2 = `held-3@${MX_DOMAIN}`;
      const later = await hx.send(mail({ to: to2 }));
      await hx.run();
      assert.equal(Number((await jobOf(hx, later.body.id))?.run_at), until, 'due again when the hold ends');
      await hx.advance(9_999);
      assert.equal(hx.received(to2).length, 0);
      await hx.advance(1);
      assert.equal(hx.received(to2).length, 1, 'delivered once the hold has ended by itself');
      assert.deepEqual(await listHolds(hx.deps, NODE), [], 'an ended hold is no longer in force');
    });

    test('time under a hold is not queue lifetime: a recipient held past it is still retried, not given up', async () => {
      await suspendDelivery(hx.deps, NODE, { scope: 'domain', value: MX_DOMAIN }, CLI_ACTOR);
      // The sink defers defer-… with 451; the harness's queue lifetime is 1 h.
      const to = `defer-long-hold@${MX_DOMAIN}`;
      const sent = await hx.send(mail({ to }));
      await hx.run();
      const heldAt = Number((await jobOf(hx, sent.body.id))?.held_at);
      assert.equal(heldAt, hx.deps.clock.now());
      await hx.advance(2 * 3_600_000);
      assert.equal((await jobOf(hx, sent.body.id))?.held_at, heldAt, 'held again: the first hold time is kept');
      await resumeDelivery(hx.deps, NODE, { scope: 'domain', value: MX_DOMAIN }, CLI_ACTOR);
      await hx.run();
      const job = await jobOf(hx, sent.body.id);
      assert.equal(job?.attempts, 1, 'deferred once, to be tried again');
      assert.equal(job?.held, null);
      assert.equal(job?.held_at, null);
      assert.ok(Number(job?.created_at) >= heldAt + 2 * 3_600_000, 'its lifetime starts after the hold');
      assert.deepEqual(await hx.timeline(sent.body.id, to), ['accepted-by-system', 'accepted-by-mta']);
      await cancelMessage(hx.deps, ANY, sent.body.id, CLI_ACTOR);
    });

    test('bad hold input is refused naming the field', async () => {
      const refused = (field: string) => (e: Error & { field?: string }) => e.field === field;
      await assert.rejects(
        suspendDelivery(hx.deps, NODE, { scope: 'domain', value: 'not a domain' }, CLI_ACTOR),
        refused('domain'),
      );
      await assert.rejects(
        suspendDelivery(hx.deps, NODE, { scope: 'provider', value: 'hotmail' }, CLI_ACTOR),
        refused('provider'),
      );
      await assert.rejects(
        suspendDelivery(
          hx.deps,
          NODE,
          { scope: 'domain', value: MX_DOMAIN, until: hx.deps.clock.now() - 1 },
          CLI_ACTOR,
        ),
        refused('until'),
      );
    });

    test('scheduled send: not due before send_at, delivered at it, queue lifetime counted from it', async () => {
      const now = hx.deps.clock.now();
      const sendAt = Math.ceil((now + 3_000) / 1000) * 1000;
      const to = `later@${MX_DOMAIN}`;
      const sent = await hx.send(mail({ to, send_at: new Date(sendAt).toISOString() }));
      assert.equal(sent.status, 202, JSON.stringify(sent.body));
      assert.deepEqual(await recipientStatus(hx, sent.body.id), ['scheduled']);
      const accepted = (await hx.events(sent.body.id))[0]!;
      assert.equal(accepted.event, 'accepted-by-system');
      assert.equal(accepted.details.send_at, new Date(sendAt).toISOString());
      const job = await jobOf(hx, sent.body.id);
      assert.equal(Number(job?.run_at), sendAt);
      assert.equal(Number(job?.created_at), sendAt);
      const { data: shown } = await api
        .client(admin)
        .GET('/v1/messages/{id}', { params: { path: { id: sent.body.id } } });
      assert.equal(shown!.recipients[0]!.status, 'scheduled');
      const q = await showQueue(hx.deps, ANY, sent.body.id);
      assert.equal(q.send_at, new Date(sendAt).toISOString());
      assert.equal(q.recipients[0]!.job?.status, 'scheduled');
      // Retry does not send a scheduled message early.
      assert.deepEqual(await retryQueue(hx.deps, ANY, { messageId: sent.body.id }, CLI_ACTOR), { retried: 0 });

      await hx.run();
      await hx.advance(sendAt - hx.deps.clock.now() - 1);
      assert.equal(hx.received(to).length, 0, 'not before send_at');
      await hx.advance(1);
      assert.equal(hx.received(to).length, 1, 'delivered at send_at');
      assert.deepEqual(await hx.timeline(sent.body.id, to), ['accepted-by-system', 'accepted-by-mta', 'delivered']);
      assert.deepEqual(await recipientStatus(hx, sent.body.id), ['delivered']);
    });

    test('a cancelled scheduled message is never delivered; cancelling again is 409', async () => {
      const sendAt = Math.floor(hx.deps.clock.now() / 1000) + 60;
      const to = `cancel-me@${MX_DOMAIN}`;
      const sent = await hx.send(mail({ to: [to, `cancel-too@${MX_DOMAIN}`], send_at: sendAt }));
      assert.equal(sent.status, 202, JSON.stringify(sent.body));
      const client = api.client(hx.sender.key);
      const res = await client.POST('/v1/messages/{id}/cancel', { params: { path: { id: sent.body.id } } });
      assert.equal(res.response.status, 200, JSON.stringify(res.error));
      assert.deepEqual(res.data, { cancelled: 2 });
      const again = await client.POST('/v1/messages/{id}/cancel', { params: { path: { id: sent.body.id } } });
      assertError(again, 409, 'conflict', 'id');
      await hx.advance(61_000);
      assert.equal(hx.received(to).length, 0, 'never delivered');
      const events = await hx.events(sent.body.id, to);
      assert.deepEqual(
        events.map((e) => [e.event, e.details.reason]),
        [
          ['accepted-by-system', undefined],
          ['failed', 'cancelled'],
        ],
      );
      assert.deepEqual(await recipientStatus(hx, sent.body.id), ['failed', 'failed']);
      const suppressed = await hx.deps.db
        .selectFrom('suppressions')
        .select('address')
        .where('address', '=', to)
        .execute();
      assert.deepEqual(suppressed, [], 'a cancellation suppresses nobody');
      // Another account's token: 404; a viewer: 403.
      const theirs = await api
        .client(otherToken)
        .POST('/v1/messages/{id}/cancel', { params: { path: { id: sent.body.id } } });
      assertError(theirs, 404, 'not_found', 'id');
      const viewed = await api
        .client(viewer)
        .POST('/v1/messages/{id}/cancel', { params: { path: { id: sent.body.id } } });
      assertError(viewed, 403, 'forbidden');
      assert.ok((await auditEntries(api, admin, 'message.cancel')).some((e) => e.target === `${sent.body.id} (2)`));
    });

    test('send_at: past, malformed, without offset or over 30 days ahead is 400 naming send_at', async () => {
      const now = hx.deps.clock.now();
      const cases: [unknown, RegExp][] = [
        [new Date(now - 1000).toISOString(), /must be in the future/],
        [Math.floor(now / 1000) - 5, /must be in the future/],
        ['tomorrow', /ISO 8601 date-time with an offset/],
        ['2026-12-01T09:00:00', /ISO 8601 date-time with an offset/],
        ['2027-02-30T09:00:00Z', /not a real date/],
        [1.5, /must be/],
        [1e20, /must be/],
        [true, /must be/],
        [new Date(now + 31 * 86_400_000).toISOString(), /at most 30 days ahead/],
      ];
      for (const [value, message] of cases) {
        const res = await hx.send(mail({ send_at: value }));
        assert.equal(res.status, 400, `${JSON.stringify(value)}: ${JSON.stringify(res.body)}`);
        const err = (res.body as unknown as { error: { field: string; message: string } }).error;
        assert.equal(err.field, 'send_at', JSON.stringify(value));
        assert.match(err.message, message, JSON.stringify(value));
      }
      // Accepted: Unix seconds, and ISO 8601 with a numeric offset, 30 days ahead exactly.
      const inDays = new Date(now + 30 * 86_400_000 - 60_000);
      const offset = inDays.toISOString().replace(/\.\d{3}Z$/, '+00:00');
      for (const value of [Math.floor(now / 1000) + 10, offset]) {
        const res = await hx.send(mail({ send_at: value }));
        assert.equal(res.status, 202, `${JSON.stringify(value)}: ${JSON.stringify(res.body)}`);
        await cancelMessage(hx.deps, ANY, res.body.id, CLI_ACTOR);
      }
    });

    test('queue API: list with filters and pages, show, retry, cancel, holds; roles and accounts', async () => {
      const client = api.client(admin);
      // Two deferred recipients (the sink answers 451 to defer-…), tried once, provider known.
      const a = await hx.send(mail({ to: `defer-a@${MX_DOMAIN}` }));
      const b = await hx.send(mail({ to: `defer-b@${MX_DOMAIN}` }));
      await hx.run();
      const page1 = await client.GET('/v1/queue', { params: { query: { status: 'deferred', limit: 1 } } });
      assert.equal(page1.response.status, 200, JSON.stringify(page1.error));
      assert.equal(page1.data!.jobs.length, 1);
      assert.equal(page1.data!.jobs[0]!.message_id, a.body.id);
      assert.equal(page1.data!.jobs[0]!.provider, 'other');
      assert.equal(page1.data!.jobs[0]!.attempts, 1);
      assert.match(page1.data!.jobs[0]!.last_reply ?? '', /^451/);
      assert.ok(page1.data!.next_cursor);
      const page2 = await client.GET('/v1/queue', {
        params: { query: { status: 'deferred', limit: 1, cursor: page1.data!.next_cursor! } },
      });
      assert.deepEqual(
        page2.data!.jobs.map((j) => j.message_id),
        [b.body.id],
      );
      assert.equal(page2.data!.next_cursor, null);
      const byProvider = await client.GET('/v1/queue', { params: { query: { provider: 'gmail' } } });
      assert.deepEqual(byProvider.data!.jobs, []);
      const byDomain = await client.GET('/v1/queue', { params: { query: { domain: MX_DOMAIN, provider: 'other' } } });
      assert.deepEqual(
        byDomain.data!.jobs.map((j) => j.message_id),
        [a.body.id, b.body.id],
      );
      // Another account sees none of it.
      const theirs = await api.client(otherToken).GET('/v1/queue', { params: { query: {} } });
      assert.deepEqual(theirs.data!.jobs, []);
      assertError(
        await api.client(otherToken).GET('/v1/queue/{message_id}', { params: { path: { message_id: a.body.id } } }),
        404,
        'not_found',
        'id',
      );
      // A sending key may not manage the queue; a viewer may read it but not change it.
      assertError(await api.client(hx.sender.key).GET('/v1/queue', { params: { query: {} } }), 403, 'forbidden');
      assert.equal((await api.client(viewer).GET('/v1/queue', { params: { query: {} } })).response.status, 200);
      assertError(await api.client(viewer).POST('/v1/queue/retry', { body: { domain: MX_DOMAIN } }), 403, 'forbidden');
      assertError(
        await rawCall(api, 'GET', '/v1/queue', '/v1/queue?status=lost', admin),
        400,
        'invalid_request',
        'status',
      );

      const shown = await client.GET('/v1/queue/{message_id}', { params: { path: { message_id: a.body.id } } });
      assert.equal(shown.data!.recipients[0]!.status, 'deferred');
      assert.equal(shown.data!.recipients[0]!.job!.status, 'deferred');

      // Retry one message now: it is due at once (the sink defers it again: a second attempt).
      const retried = await client.POST('/v1/queue/{message_id}/retry', {
        params: { path: { message_id: a.body.id } },
      });
      assert.deepEqual(retried.data, { retried: 1 });
      await hx.run();
      assert.equal((await jobOf(hx, a.body.id))?.attempts, 2);
      assert.equal((await jobOf(hx, b.body.id))?.attempts, 1, 'the other waits for its own time');
      // By provider: both.
      const both = await client.POST('/v1/queue/retry', { body: { provider: 'other' } });
      assert.deepEqual(both.data, { retried: 2 });
      await hx.run();
      assertError(await client.POST('/v1/queue/retry', { body: {} }), 400, 'invalid_request', 'domain');
      assertError(
        await client.POST('/v1/queue/retry', { body: { domain: MX_DOMAIN, provider: 'other' } }),
        400,
        'invalid_request',
        'provider',
      );

      // Cancel through the queue route.
      const cancelled = await client.POST('/v1/queue/{message_id}/cancel', {
        params: { path: { message_id: b.body.id } },
      });
      assert.deepEqual(cancelled.data, { cancelled: 1 });
      assert.equal(await jobOf(hx, b.body.id), undefined);
      assert.ok((await auditEntries(api, admin, 'queue.retry')).length >= 2);
      assert.ok((await auditEntries(api, admin, 'queue.cancel')).some((e) => e.target === `${b.body.id} (1)`));
      await cancelMessage(hx.deps, ANY, a.body.id, CLI_ACTOR);

      // An account's own hold: it holds that account's mail only, and the account can lift it.
      const made = await client.POST('/v1/queue/holds', {
        body: { domain: MX_DOMAIN, until: '2h', reason: 'maintenance' },
      });
      assert.equal(made.response.status, 201, JSON.stringify(made.error));
      assert.equal(made.data!.account_only, true);
      assert.equal(made.data!.until, new Date(hx.deps.clock.now() + 7_200_000).toISOString());
      assert.match(made.data!.actor, /^token:/);
      const listed = await api.client(viewer).GET('/v1/queue/holds');
      assert.deepEqual(
        listed.data!.holds.map((h) => [h.scope, h.value, h.account_only]),
        [['domain', MX_DOMAIN, true]],
      );
      assert.deepEqual((await api.client(otherToken).GET('/v1/queue/holds')).data!.holds, []);
      const unwatch = watchDatabaseGauges(hx.deps);
      try {
        const scraped = await hx.deps.metrics.registry.metrics();
        assert.match(scraped, /posthorn_delivery_holds\{scope="domain"\} 1/);
        assert.match(scraped, /posthorn_delivery_holds\{scope="provider"\} 0/);
      } finally {
        unwatch();
      }
      const to = `own-hold@${MX_DOMAIN}`;
      const held = await hx.send(mail({ to }));
      await hx.run();
      assert.equal(hx.received(to).length, 0);
      assert.equal((await jobOf(hx, held.body.id))?.held, `domain:${MX_DOMAIN}:${hx.sender.accountId}`);
      assertError(
        await client.DELETE('/v1/queue/holds/{scope}/{value}', {
          params: { path: { scope: 'provider', value: 'gmail' } },
        }),
        404,
        'not_found',
        'provider',
      );
      const lifted = await client.DELETE('/v1/queue/holds/{scope}/{value}', {
        params: { path: { scope: 'domain', value: MX_DOMAIN } },
      });
      assert.equal(lifted.response.status, 204);
      await hx.run();
      assert.equal(hx.received(to).length, 1);
      assertError(
        await client.POST('/v1/queue/holds', { body: { provider: 'aol' as 'gmail' } }),
        400,
        'invalid_request',
        'provider',
      );
      assertError(
        await client.POST('/v1/queue/holds', { body: { domain: MX_DOMAIN, until: 'soon' } }),
        400,
        'invalid_request',
        'until',
      );
      // The action counter (the holds gauge is read while the hold is in force, above).
      const metrics = await hx.deps.metrics.registry.metrics();
      assert.match(metrics, /posthorn_queue_actions_total\{action="held"\} \d+/);
      assert.match(metrics, /posthorn_queue_actions_total\{action="retry"\} \d+/);
    });
  });
}

for (const dialect of testDialects()) {
  describe(`scheduled send over the SMTP relay (${dialect})`, () => {
    let rx: RelayHarness;
    before(async () => {
      rx = await createRelayHarness(dialect);
    });
    after(() => rx?.close());

    test('X-Posthorn-Send-At holds the message until then and is not delivered; a bad one is refused naming it', async () => {
      const sendAt = Math.ceil((rx.deps.clock.now() + 3_000) / 1000) * 1000;
      const to = `relayed-later@${MX_DOMAIN}`;
      const info = await rx.client({ implicitTls: true }).sendMail({
        from: 'hello@acme.test',
        to,
        subject: 'Later',
        text: 'x',
        headers: { 'X-Posthorn-Send-At': new Date(sendAt).toISOString() },
      });
      const id = /Queued as (msg_[0-9A-Za-z]+)/.exec(info.response)![1]!;
      assert.deepEqual(await recipientStatus(rx, id), ['scheduled']);
      await rx.run();
      await rx.advance(sendAt - rx.deps.clock.now() - 1);
      assert.equal(rx.received(to).length, 0, 'not before X-Posthorn-Send-At');
      await rx.advance(1);
      const [got] = rx.received(to);
      assert.ok(got, 'delivered at its time');
      assert.doesNotMatch(got.raw.toString('latin1'), /X-Posthorn-Send-At/i, 'the header is removed before delivery');

      for (const [value, message] of [
        ['next week', /ISO 8601 date-time with an offset/],
        [String(Math.floor(rx.deps.clock.now() / 1000) - 60), /must be in the future/],
      ] as const) {
        const err = await rx
          .client({ implicitTls: true })
          .sendMail({
            from: 'hello@acme.test',
            to,
            subject: 'Bad',
            text: 'x',
            headers: { 'X-Posthorn-Send-At': value },
          })
          .then(
            () => assert.fail(`accepted X-Posthorn-Send-At: ${value}`),
            (e: Error & { response?: string; responseCode?: number }) => e,
          );
        assert.equal(err.responseCode, 550, err.response);
        assert.match(err.response ?? '', /X-Posthorn-Send-At/);
        assert.match(err.response ?? '', message);
      }
    });
  });
}
