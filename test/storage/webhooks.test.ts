// Webhooks end to end inside one process, on both databases: the event writer's outbox, the
// dispatcher against a real loopback HTTP receiver (signatures checked with the standardwebhooks
// package), retries on the schedule with the same webhook-id, disabling on 410 and on a long run
// of failures, rotation, the SSRF guard through the dispatcher, and a graceful stop.
import { findDomain } from '../../src/domains/add-domain.js';
import { CLI_ACTOR } from '../../src/core/actor.js';
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type net from 'node:net';
import type { LookupAddress } from 'node:dns';
import { Webhook } from 'standardwebhooks';
import { toEventRecord } from '../../src/events/event-record.js';
import { writeEvents, type NewEvent } from '../../src/events/write-events.js';
import { recordNotice } from '../../src/notices/record-notice.js';
import { PARKED_AT } from '../../src/webhooks/disable-endpoint.js';
import { rotateWebhookSecret } from '../../src/webhooks/rotate-webhook-secret.js';
import { setWebhook } from '../../src/webhooks/set-webhook.js';
import { showWebhook } from '../../src/webhooks/show-webhook.js';
import { signWebhook } from '../../src/webhooks/sign-webhook.js';
import { startWebhookDispatcher, type WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.js';
import { webhookPayload } from '../../src/events/webhook-payload.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const MIN = 60_000;

/** Polls `check` until it returns true, failing after `timeoutMs` with `what`. */
async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const headersOf = (r: ReceivedWebhook) => ({
  'webhook-id': r.id,
  'webhook-timestamp': r.timestamp,
  'webhook-signature': r.signature,
});

for (const dialect of testDialects()) {
  describe(`webhooks (${dialect})`, () => {
    let cleanup: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const c of cleanup.reverse()) await c();
      cleanup = [];
    });

    /** Deps on a fresh database whose fake clock starts at the real time (standardwebhooks checks timestamps against its own clock). */
    async function setup(env: Record<string, string> = {}) {
      const t: TestDeps = await createTestDeps(dialect, { env: { POSTHORN_WEBHOOK_ALLOW_PRIVATE: '1', ...env } });
      t.clock.set(Date.now());
      cleanup.push(() => t.close());
      const receiver: WebhookReceiver = await startWebhookReceiver();
      cleanup.push(() => receiver.close());
      const domain: Seeded = await seedDomain(t, { domain: 'acme.test' });
      return { t, receiver, domain };
    }

    function dispatcher(t: TestDeps, lookup?: net.LookupFunction): WebhookDispatcher {
      const d = startWebhookDispatcher(t, { claimBatch: 100, idlePollMs: 10, ...(lookup ? { lookup } : {}) });
      cleanup.push(() => d.stop(2_000));
      return d;
    }

    function event(t: TestDeps, d: Seeded, n: number, name: NewEvent['event'] = 'delivered'): NewEvent {
      const at = t.clock.now();
      return {
        id: t.ids.next('evt', at),
        accountId: d.accountId,
        domainId: d.domainId,
        messageId: t.ids.next('msg', at),
        event: name,
        recipient: `r${n}@example.org`,
        from: `Shop <orders@${d.domain}>`,
        subject: `Order ${n} — ü`,
        tags: ['receipt', `n${n}`],
        details: { smtp_reply: '250 2.0.0 OK' },
        occurredAt: at,
      };
    }

    const write = (t: TestDeps, events: NewEvent[]) => t.db.transaction().execute((trx) => writeEvents(trx, events));
    const attemptsOf = (t: TestDeps, eventId: string) =>
      t.db
        .selectFrom('webhook_attempts')
        .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
        .select([
          'webhook_attempts.attempt',
          'webhook_attempts.status',
          'webhook_attempts.error',
          'webhook_attempts.duration_ms',
          'webhook_attempts.response_snippet',
        ])
        .where('webhook_deliveries.event_id', '=', eventId)
        .orderBy('webhook_attempts.attempt')
        .execute();
    const deliveryOf = (t: TestDeps, eventId: string) =>
      t.db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).executeTakeFirstOrThrow();

    test('the event writer queues one delivery per event of a domain with an active endpoint; its payload is the GET /v1/events record', async () => {
      const { t, receiver, domain } = await setup();
      const other = await seedDomain(t, { domain: 'other.test' });
      await setWebhook(t, await findDomain(t, 'acme.test'), receiver.url, CLI_ACTOR);
      const events = [event(t, domain, 1), event(t, other, 2), event(t, domain, 3, 'accepted-by-mta')];
      await write(t, events);
      const rows = await t.db.selectFrom('webhook_deliveries').selectAll().orderBy('event_id').execute();
      assert.deepEqual(rows.map((r) => r.event_id).sort(), [events[0]!.id, events[2]!.id].sort());
      for (const row of rows) {
        const stored = await t.db
          .selectFrom('events')
          .selectAll()
          .where('id', '=', row.event_id)
          .executeTakeFirstOrThrow();
        assert.equal(row.payload, webhookPayload(toEventRecord(stored)));
        assert.equal(row.state, 'pending');
        assert.equal(row.attempts, 0);
        assert.equal(Number(row.next_attempt_at), Number(stored.occurred_at));
        assert.equal(row.event, stored.event);
      }
      assert.deepEqual(JSON.parse(rows.find((r) => r.event_id === events[0]!.id)!.payload).tags, ['receipt', 'n1']);

      // A notice of the domain goes to its webhook too (docs/webhooks.md), in its own payload shape.
      await recordNotice(t.db, t.ids, t.clock.now(), {
        accountId: domain.accountId,
        domainId: domain.domainId,
        kind: 'domain.warning',
        message: 'SPF stopped matching',
        details: { spf: { ok: false } },
      });
      const notice = await t.db.selectFrom('notices').selectAll().executeTakeFirstOrThrow();
      const queued = await deliveryOf(t, notice.id);
      assert.deepEqual(JSON.parse(queued.payload), {
        id: notice.id,
        event: 'domain.warning',
        occurred_at: new Date(Number(notice.created_at)).toISOString(),
        domain: 'acme.test',
        message: 'SPF stopped matching',
        details: { spf: { ok: false } },
      });

      // A disabled endpoint gets no new rows.
      await t.db.updateTable('webhook_endpoints').set({ status: 'disabled' }).execute();
      const later = event(t, domain, 4);
      await write(t, [later]);
      assert.equal(
        await t.db.selectFrom('webhook_deliveries').select('id').where('event_id', '=', later.id).executeTakeFirst(),
        undefined,
      );
    });

    test('signatures verify with standardwebhooks through the dispatcher; during a rotation both secrets verify, after it only the new one signs', async () => {
      const { t, receiver, domain } = await setup();
      const { secret: first } = await setWebhook(t, await findDomain(t, 'acme.test'), receiver.url, CLI_ACTOR);
      assert.ok(first);
      dispatcher(t);
      const e1 = event(t, domain, 1);
      await write(t, [e1]);
      await receiver.waitFor((r) => r.length >= 1);
      const got1 = receiver.received[0]!;
      assert.equal(got1.id, e1.id);
      assert.deepEqual(
        new Webhook(first).verify(got1.body, headersOf(got1)),
        JSON.parse((await deliveryOf(t, e1.id)).payload),
      );

      const { secret: second } = await rotateWebhookSecret(t, await findDomain(t, 'acme.test'), CLI_ACTOR);
      const e2 = event(t, domain, 2);
      await write(t, [e2]);
      await receiver.waitFor((r) => r.length >= 2);
      const got2 = receiver.received[1]!;
      assert.equal(got2.id, e2.id);
      assert.equal(got2.signature.split(' ').length, 2, 'two signatures during the overlap');
      for (const s of [first, second])
        assert.equal((new Webhook(s).verify(got2.body, headersOf(got2)) as { id: string }).id, e2.id);

      // Recorded before the clock jumps a day, or its lease would end and it would be posted again.
      await until('e2 recorded', async () => (await deliveryOf(t, e2.id)).state === 'delivered');
      // Past the overlap (24 h by default) only the new secret signs. The fake clock is a day
      // ahead of standardwebhooks' own, so the signature is compared with one computed here.
      t.clock.advance(t.config.webhookSecretOverlap + 1);
      const e3 = event(t, domain, 3);
      await write(t, [e3]);
      await receiver.waitFor((r) => r.length >= 3);
      const got3 = receiver.received[2]!;
      assert.equal(
        got3.signature,
        signWebhook({ id: e3.id, timestampSeconds: Number(got3.timestamp), body: got3.body, secrets: [second] })[
          'webhook-signature'
        ],
      );
      assert.equal(Number(got3.timestamp), Math.floor(t.clock.now() / 1000));
      assert.equal((await showWebhook(t, await findDomain(t, 'acme.test'))).secrets.length, 1);
    });

    test('a receiver answering 500, 500, 200 gets three attempts with the same webhook-id, on the retry schedule; the log has all three', async () => {
      const { t, receiver, domain } = await setup();
      await setWebhook(t, await findDomain(t, 'acme.test'), receiver.url, CLI_ACTOR);
      receiver.answer((_r, n) => (n <= 2 ? { status: 500, body: `boom ${n}` } : { status: 200, body: 'thanks' }));
      const d = dispatcher(t);
      const e = event(t, domain, 1);
      await write(t, [e]);
      await receiver.waitFor((r) => r.length >= 1);
      await until('the first attempt to be recorded', async () => (await deliveryOf(t, e.id)).attempts === 1);
      const afterFirst = await deliveryOf(t, e.id);
      assert.equal(afterFirst.state, 'pending');
      assert.equal(Number(afterFirst.next_attempt_at), t.clock.now() + 5_000, 'first retry after 5 s');
      // Not due yet: nothing more arrives until the clock passes the delay.
      t.clock.advance(4_999);
      await d.idle(); // a claim at 4.999 s found nothing due
      assert.equal(receiver.received.length, 1);
      t.clock.advance(1);
      await receiver.waitFor((r) => r.length >= 2);
      await until('the second attempt to be recorded', async () => (await deliveryOf(t, e.id)).attempts === 2);
      assert.equal(
        Number((await deliveryOf(t, e.id)).next_attempt_at),
        t.clock.now() + 5 * MIN,
        'second retry after 5 min',
      );
      assert.ok((await showWebhook(t, await findDomain(t, 'acme.test'))).failing_since !== null);
      t.clock.advance(5 * MIN);
      await receiver.waitFor((r) => r.length >= 3);
      await until('delivered', async () => (await deliveryOf(t, e.id)).state === 'delivered');

      assert.deepEqual(
        receiver.received.map((r) => r.id),
        [e.id, e.id, e.id],
      );
      assert.equal(new Set(receiver.received.map((r) => r.body)).size, 1, 'the same body every time');
      const log = await attemptsOf(t, e.id);
      assert.deepEqual(
        log.map((a) => [a.attempt, a.status, a.response_snippet]),
        [
          [1, 500, 'boom 1'],
          [2, 500, 'boom 2'],
          [3, 200, 'thanks'],
        ],
      );
      assert.ok(log.every((a) => a.error === null && a.duration_ms !== null && a.duration_ms >= 0));
      const done = await deliveryOf(t, e.id);
      assert.equal(done.attempts, 3);
      assert.equal(done.locked_by, null);
      const view = await showWebhook(t, await findDomain(t, 'acme.test'));
      assert.equal(view.failing_since, null, 'a 2xx ends the failure run');
      assert.deepEqual(
        view.last_attempts.map((a) => a.status),
        [200, 500, 500],
      );
      assert.equal(view.pending, 0);
    });

    test('after the last step of the schedule a delivery is given up as failed', async () => {
      const { t, receiver, domain } = await setup({ POSTHORN_WEBHOOK_RETRY_SCHEDULE: '1s,2s' });
      await setWebhook(t, await findDomain(t, 'acme.test'), receiver.url, CLI_ACTOR);
      receiver.answer(() => ({ status: 503 }));
      dispatcher(t);
      const e = event(t, domain, 1);
      await write(t, [e]);
      for (const [n, wait] of [
        [1, 1_000],
        [2, 2_000],
      ] as const) {
        await until(`attempt ${n} recorded`, async () => (await deliveryOf(t, e.id)).attempts === n);
        t.clock.advance(wait);
      }
      await until('given up', async () => (await deliveryOf(t, e.id)).state === 'failed');
      assert.equal(receiver.received.length, 3);
      assert.equal((await showWebhook(t, await findDomain(t, 'acme.test'))).failed, 1);
    });

    test('410 Gone disables the endpoint with a notice; its deliveries wait, parked, and go out after webhook set re-enables it', async () => {
      const { t, receiver, domain } = await setup();
      await setWebhook(t, await findDomain(t, 'acme.test'), receiver.url, CLI_ACTOR);
      receiver.answer(() => ({ status: 410, body: 'gone' }));
      const d = dispatcher(t);
      const e = event(t, domain, 1);
      await write(t, [e]);
      await until(
        'disabled',
        async () => (await showWebhook(t, await findDomain(t, 'acme.test'))).status === 'disabled',
      );
      const view = await showWebhook(t, await findDomain(t, 'acme.test'));
      assert.match(view.disabled_reason ?? '', /410 Gone/);
      const notices = await t.db.selectFrom('notices').selectAll().where('kind', '=', 'webhook.disabled').execute();
      assert.equal(notices.length, 1);
      assert.equal(notices[0]!.domain_id, domain.domainId);
      assert.match(notices[0]!.message, /410 Gone/);
      // The notice is stored, not queued for the endpoint it is about.
      assert.equal(
        await t.db
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('event_id', '=', notices[0]!.id)
          .executeTakeFirst(),
        undefined,
      );
      const parked = await deliveryOf(t, e.id);
      assert.equal(parked.state, 'pending');
      assert.equal(Number(parked.next_attempt_at), PARKED_AT);
      t.clock.advance(10 * MIN);
      await d.idle(); // a claim 10 min later found nothing
      assert.equal(receiver.received.length, 1, 'nothing is posted while disabled');

      receiver.answer(() => ({ status: 204 }));
      const again = await setWebhook(t, await findDomain(t, 'acme.test'), receiver.url, CLI_ACTOR);
      assert.equal(again.reenabled, true);
      assert.equal(again.secret, null);
      await until('delivered after re-enabling', async () => (await deliveryOf(t, e.id)).state === 'delivered');
      assert.deepEqual(
        receiver.received.map((r) => r.id),
        [e.id, e.id],
      );
      assert.equal((await showWebhook(t, await findDomain(t, 'acme.test'))).status, 'active');
    });

    test('an endpoint whose attempts have all failed for POSTHORN_WEBHOOK_DISABLE_AFTER is disabled with a notice', async () => {
      const { t, receiver, domain } = await setup({ POSTHORN_WEBHOOK_DISABLE_AFTER: '1h' });
      await setWebhook(t, await findDomain(t, 'acme.test'), receiver.url, CLI_ACTOR);
      receiver.answer(() => ({ status: 500 }));
      dispatcher(t);
      const started = t.clock.now();
      const e1 = event(t, domain, 1);
      await write(t, [e1]);
      await until(
        'first failure recorded',
        async () => (await showWebhook(t, await findDomain(t, 'acme.test'))).failing_since !== null,
      );
      assert.equal(
        (await showWebhook(t, await findDomain(t, 'acme.test'))).failing_since,
        new Date(started).toISOString(),
      );
      t.clock.advance(30 * MIN);
      await until('retry recorded', async () => (await deliveryOf(t, e1.id)).attempts === 2);
      assert.equal(
        (await showWebhook(t, await findDomain(t, 'acme.test'))).status,
        'active',
        'failing for 30 min: still active',
      );
      t.clock.advance(30 * MIN);
      const e2 = event(t, domain, 2);
      await write(t, [e2]);
      await until(
        'disabled',
        async () => (await showWebhook(t, await findDomain(t, 'acme.test'))).status === 'disabled',
      );
      assert.match(
        (await showWebhook(t, await findDomain(t, 'acme.test'))).disabled_reason ?? '',
        /every attempt has failed since/,
      );
      const notice = await t.db
        .selectFrom('notices')
        .selectAll()
        .where('kind', '=', 'webhook.disabled')
        .executeTakeFirstOrThrow();
      assert.equal(JSON.parse(notice.details).failing_since, new Date(started).toISOString());
      for (const id of [e1.id, e2.id]) assert.equal((await deliveryOf(t, id)).state, 'pending');
    });

    test('SSRF, switch off: loopback, 10/8, metadata, IPv4-mapped IPv6 and a name resolving to 127.0.0.1 are refused by the dispatcher and the log says why', async () => {
      const { t, receiver } = await setup({ POSTHORN_WEBHOOK_ALLOW_PRIVATE: '0' });
      // The stored URLs bypass `webhook set` (which refuses the IP literals already): a URL set
      // earlier, or a name whose DNS changed, must still be stopped when the POST is made.
      const targets: [string, RegExp][] = [
        [`https://127.0.0.1:${receiver.port}/hooks`, /refused: 127\.0\.0\.1 is not a public address/],
        ['https://10.0.0.1/hooks', /refused: 10\.0\.0\.1 is not a public address/],
        ['https://169.254.169.254/latest/meta-data/', /refused: 169\.254\.169\.254 is not a public address/],
        [`https://[::ffff:127.0.0.1]:${receiver.port}/hooks`, /refused: ::ffff:7f00:1 is not a public address/],
        [`https://hooks.evil.test:${receiver.port}/hooks`, /refused: hooks\.evil\.test resolves to 127\.0\.0\.1/],
        [`http://hooks.public.test:${receiver.port}/hooks`, /must use https/],
      ];
      const events: NewEvent[] = [];
      for (const [i, [url]] of targets.entries()) {
        const d = await seedDomain(t, { domain: `d${i}.test` });
        await t.db
          .insertInto('webhook_endpoints')
          .values({
            id: `whe_${i}`,
            domain_id: d.domainId,
            url,
            secrets: JSON.stringify([{ secret: 'whsec_c2VjcmV0', created_at: 0, expires_at: null }]),
            status: 'active',
            failing_since: null,
            disabled_at: null,
            disabled_reason: null,
            created_at: 0,
            updated_at: 0,
          })
          .execute();
        events.push(event(t, d, i));
      }
      const lookups: string[] = [];
      const lookup: net.LookupFunction = (hostname, options, callback) => {
        lookups.push(hostname);
        const table: Record<string, string> = { 'hooks.evil.test': '127.0.0.1', 'hooks.public.test': '93.184.216.34' };
        const address = table[hostname];
        if (!address) return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
        if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [{ address, family: 4 }]);
        else callback(null, address, 4);
      };
      dispatcher(t, lookup);
      await write(t, events);
      await until(
        'every target attempted',
        async () =>
          Number(
            (
              await t.db
                .selectFrom('webhook_attempts')
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          ) >= targets.length,
      );
      for (const [i, [url, why]] of targets.entries()) {
        const log = await attemptsOf(t, events[i]!.id);
        assert.equal(log.length, 1, url);
        assert.equal(log[0]!.status, null, url);
        assert.match(log[0]!.error ?? '', why, url);
        assert.equal((await deliveryOf(t, events[i]!.id)).state, 'pending', `${url}: retried later, like any failure`);
      }
      assert.deepEqual(
        lookups,
        ['hooks.evil.test'],
        'only the name was looked up; literals and http were refused before',
      );
      assert.equal(receiver.received.length, 0, 'nothing reached the loopback receiver');
    });

    test('a 302 to 127.0.0.1 is logged as a failed attempt and never followed', async () => {
      const { t, receiver, domain } = await setup();
      const inside = await startWebhookReceiver();
      cleanup.push(() => inside.close());
      await setWebhook(t, await findDomain(t, 'acme.test'), receiver.url, CLI_ACTOR);
      receiver.answer(() => ({ status: 302, headers: { location: inside.url }, body: 'moved' }));
      dispatcher(t);
      const e = event(t, domain, 1);
      await write(t, [e]);
      await until('attempt recorded', async () => (await attemptsOf(t, e.id)).length === 1);
      const [a] = await attemptsOf(t, e.id);
      assert.equal(a!.status, 302);
      assert.equal(a!.response_snippet, 'moved');
      assert.equal((await deliveryOf(t, e.id)).state, 'pending');
      assert.equal(inside.received.length, 0);
    });

    test('an endpoint that hangs holds at most its share of the slots; another endpoint is still served', async () => {
      const {
        t,
        receiver: hanging,
        domain,
      } = await setup({ POSTHORN_WEBHOOK_ENDPOINT_CONCURRENCY: '2', POSTHORN_WEBHOOK_CONCURRENCY: '16' });
      const fine = await startWebhookReceiver();
      cleanup.push(() => fine.close());
      const other = await seedDomain(t, { domain: 'other.test' });
      await setWebhook(t, await findDomain(t, 'acme.test'), hanging.url, CLI_ACTOR);
      await setWebhook(t, await findDomain(t, 'other.test'), fine.url, CLI_ACTOR);
      hanging.answer(() => 'hang');
      dispatcher(t);
      await write(
        t,
        [1, 2, 3, 4, 5, 6].map((n) => event(t, domain, n)),
      );
      await hanging.waitFor((r) => r.length >= 2);
      const served = [7, 8, 9].map((n) => event(t, other, n));
      await write(t, served);
      await fine.waitFor((r) => r.length >= 3);
      assert.deepEqual(fine.received.map((r) => r.id).sort(), served.map((e) => e.id).sort());
      await until(
        "the other endpoint's deliveries recorded",
        async () =>
          (await t.db.selectFrom('webhook_deliveries').select('id').where('state', '=', 'delivered').execute())
            .length === 3,
      );
      // The other endpoint's three POSTs were answered; the hanging one still has exactly its share in flight.
      assert.equal(hanging.received.length, 2);
      const waiting = await t.db
        .selectFrom('webhook_deliveries')
        .select(['locked_by'])
        .where('state', '=', 'pending')
        .execute();
      assert.equal(waiting.length, 6);
      // Its share (2) runs, at most one claim allowance (1) waits locally; the rest stay unclaimed in the outbox.
      assert.ok(
        waiting.filter((r) => r.locked_by !== null).length <= 3,
        'a hanging endpoint does not hoard claimed rows',
      );
      assert.ok(waiting.filter((r) => r.locked_by === null).length >= 3);
    });

    test('a stopping dispatcher aborts POSTs that do not finish, logs no attempt for them and releases them at once', async () => {
      const { t, receiver, domain } = await setup();
      await setWebhook(t, await findDomain(t, 'acme.test'), receiver.url, CLI_ACTOR);
      receiver.answer(() => 'hang');
      const d = startWebhookDispatcher(t, { claimBatch: 100, idlePollMs: 10 });
      const events = [1, 2, 3].map((n) => event(t, domain, n));
      await write(t, events);
      await receiver.waitFor((r) => r.length >= 3);
      await d.stop(100);
      const rows = await t.db.selectFrom('webhook_deliveries').selectAll().execute();
      assert.equal(rows.length, 3);
      for (const r of rows) {
        assert.equal(r.state, 'pending');
        assert.equal(r.locked_by, null);
        assert.equal(r.attempts, 0);
        assert.equal(Number(r.next_attempt_at), t.clock.now());
      }
      assert.equal((await t.db.selectFrom('webhook_attempts').select('id').execute()).length, 0);
      // Another dispatcher takes them over without waiting for a lease.
      receiver.answer(() => ({ status: 200 }));
      const next = dispatcher(t);
      await until(
        'all delivered',
        async () =>
          (await t.db.selectFrom('webhook_deliveries').select('id').where('state', '=', 'delivered').execute())
            .length === 3,
      );
      await next.idle();
    });
  });
}
