import { describe, test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_RETENTION_MS, purgeRetention, RATE_LIMIT_IDLE_MS } from '../../src/events/purge-retention.js';
import { writeEvents, type NewEvent } from '../../src/events/write-events.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';

const DAY = 86_400_000;

for (const dialect of testDialects()) {
  describe(`purgeRetention (${dialect})`, () => {
    let t: TestDeps;
    /** What this test opened, closed by afterEach even when setup failed half-way. */
    let opened: TestDeps[] = [];

    /** Fresh deps; `env` overrides configuration. */
    async function open(env: Record<string, string> = {}): Promise<TestDeps> {
      const deps = await createTestDeps(dialect, { env });
      opened.push(deps);
      return deps;
    }

    beforeEach(async () => {
      t = await open();
      const now = t.clock.now();
      await t.db
        .insertInto('accounts')
        .values({ id: 'acc_1', name: 'a', rate_limit: 5, monthly_quota: null, created_at: now })
        .execute();
      await t.db
        .insertInto('domains')
        .values({
          id: 'dom_1',
          account_id: 'acc_1',
          name: 'example.com',
          status: 'verified',
          sandbox: 0,
          dkim_selector: 'ph1',
          dkim_private_key: 'test key',
          dkim_public_key: 'test key',
          verified_at: now,
          checked_at: now,
          failing_since: null,
          last_checks: null,
          created_at: now,
          track_opens: 0,
          track_clicks: 0,
          unsubscribe: 0,
          complaint_warned_at: null,
        })
        .execute();
    });

    afterEach(async () => {
      for (const deps of opened) await deps.close();
      opened = [];
    });

    /** An event `ago` ms before now, on message `messageId`. */
    function event(ago: number, messageId = 'msg_01JD8Z3V5X6Y7Z8A9B0C1D2E3F'): NewEvent {
      const at = t.clock.now() - ago;
      return {
        id: t.ids.next('evt', at),
        accountId: 'acc_1',
        domainId: 'dom_1',
        messageId,
        event: 'delivered',
        recipient: 'a@example.net',
        from: 'app@example.com',
        subject: 's',
        tags: [],
        details: {},
        occurredAt: at,
      };
    }

    /** A message created `ago` ms before now, with its body. */
    async function message(ago: number): Promise<string> {
      const at = t.clock.now() - ago;
      const id = t.ids.next('msg', at);
      await t.db
        .insertInto('messages')
        .values({
          id,
          account_id: 'acc_1',
          domain_id: 'dom_1',
          from_address: 'app@example.com',
          subject: 's',
          tags: '[]',
          metadata: '{}',
          content: '{"draft":true}',
          mime: 'Subject: s\r\n\r\nhello\r\n',
          size: 22,
          created_at: at,
          track_opens: 0,
          track_clicks: 0,
          unsubscribe: 0,
        })
        .execute();
      return id;
    }

    const remainingEvents = async () =>
      (await t.db.selectFrom('events').select('id').orderBy('id').execute()).map((r) => r.id);

    test('events older than 120 days are deleted, younger ones kept', async () => {
      const old = [event(121 * DAY), event(EVENT_RETENTION_MS + 1), event(400 * DAY)];
      const kept = [event(119 * DAY), event(EVENT_RETENTION_MS), event(0)];
      await t.db.transaction().execute((trx) => writeEvents(trx, [...old, ...kept]));
      const counts = await purgeRetention(t);
      assert.equal(counts.events, 3);
      assert.deepEqual(await remainingEvents(), kept.map((e) => e.id).sort());
      assert.equal((await purgeRetention(t)).events, 0, 'a second run finds nothing');
      // 2 days later the 119-day event is past retention too.
      t.clock.advance(2 * DAY);
      assert.equal((await purgeRetention(t)).events, 2);
      assert.deepEqual(await remainingEvents(), [kept[2]?.id]);
    });

    test('large purges go in batches until nothing is left', async () => {
      const old = Array.from({ length: 23 }, (_, i) => event(130 * DAY + i));
      const kept = event(DAY);
      await t.db.transaction().execute((trx) => writeEvents(trx, [...old, kept]));
      const counts = await purgeRetention(t, { batchSize: 5 });
      assert.equal(counts.events, 23);
      assert.deepEqual(await remainingEvents(), [kept.id]);
    });

    test('bodies are cleared after bodyRetention while the message and its events stay', async () => {
      assert.equal(t.config.bodyRetention, 30 * DAY);
      const stale = await message(31 * DAY);
      const fresh = await message(29 * DAY);
      const pending = await message(31 * DAY);
      // A message still queued for delivery keeps its body until the job is done.
      await t.db
        .insertInto('recipients')
        .values({
          id: 'rcp_1',
          message_id: pending,
          address: 'a@example.net',
          domain: 'example.net',
          status: 'queued',
          updated_at: 0,
        })
        .execute();
      await t.db
        .insertInto('jobs')
        .values({
          id: 'job_1',
          kind: 'deliver',
          message_id: pending,
          recipient_id: 'rcp_1',
          run_at: t.clock.now(),
          attempts: 3,
          locked_by: null,
          locked_until: null,
          last_error: null,
          created_at: 0,
        })
        .execute();
      await t.db.transaction().execute((trx) => writeEvents(trx, [event(31 * DAY, stale), event(30 * DAY, stale)]));

      const counts = await purgeRetention(t);
      assert.equal(counts.bodies, 1);
      assert.equal(counts.events, 0);
      const rows = await t.db.selectFrom('messages').select(['id', 'content', 'mime', 'subject']).execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      assert.deepEqual(
        byId.get(stale),
        { id: stale, content: null, mime: null, subject: 's' },
        'the message row stays, its body goes',
      );
      assert.notEqual(byId.get(fresh)?.mime, null);
      assert.notEqual(byId.get(fresh)?.content, null);
      assert.notEqual(byId.get(pending)?.mime, null);
      assert.equal((await remainingEvents()).length, 2, 'events outlive bodies');
      assert.equal((await purgeRetention(t)).bodies, 0, 'cleared bodies are not counted again');

      await t.db.deleteFrom('jobs').execute();
      assert.equal((await purgeRetention(t)).bodies, 1, 'the body goes once delivery is done');
    });

    test('bodyRetention comes from configuration', async () => {
      t = await open({ POSTHORN_BODY_RETENTION: '2d' });
      await t.db
        .insertInto('accounts')
        .values({ id: 'acc_1', name: 'a', rate_limit: 5, monthly_quota: null, created_at: 0 })
        .execute();
      const older = await message(2 * DAY + 1);
      await message(2 * DAY - 1);
      assert.equal((await purgeRetention(t)).bodies, 1);
      const cleared = await t.db.selectFrom('messages').select('id').where('mime', 'is', null).execute();
      assert.deepEqual(
        cleared.map((r) => r.id),
        [older],
      );
    });

    test('expired idempotency keys are removed, live ones kept', async () => {
      const now = t.clock.now();
      const row = (key: string, expiresAt: number) => ({
        domain_id: 'dom_1',
        key,
        fingerprint: 'f',
        state: 'done' as const,
        response_status: 202,
        response_body: '{}',
        locked_until: 0,
        expires_at: expiresAt,
        created_at: expiresAt - DAY,
      });
      await t.db
        .insertInto('idempotency_keys')
        .values([row('gone-1', now - DAY), row('gone-2', now), row('kept-1', now + 1), row('kept-2', now + DAY)])
        .execute();
      // Same key on another domain, still live: the composite key matters.
      await t.db
        .insertInto('idempotency_keys')
        .values({ ...row('gone-1', now + DAY), domain_id: 'dom_2' })
        .execute();
      const counts = await purgeRetention(t, { batchSize: 1 });
      assert.equal(counts.idempotencyKeys, 2);
      const left = await t.db
        .selectFrom('idempotency_keys')
        .select(['domain_id', 'key'])
        .orderBy('domain_id')
        .orderBy('key')
        .execute();
      assert.deepEqual(left, [
        { domain_id: 'dom_1', key: 'kept-1' },
        { domain_id: 'dom_1', key: 'kept-2' },
        { domain_id: 'dom_2', key: 'gone-1' },
      ]);
    });

    test('idle rate-limit rows are removed', async () => {
      const now = t.clock.now();
      await t.db
        .insertInto('rate_limits')
        .values([
          // tat is in microseconds
          { key: 'idle', tat: (now - RATE_LIMIT_IDLE_MS - 1) * 1000 },
          { key: 'recent', tat: (now - RATE_LIMIT_IDLE_MS + 1) * 1000 },
          { key: 'busy', tat: (now + 500) * 1000 },
        ])
        .execute();
      const counts = await purgeRetention(t);
      assert.deepEqual(counts, {
        eventPartitions: 0,
        events: 0,
        bodies: 0,
        signatures: 0,
        idempotencyKeys: 0,
        rateLimits: 1,
        feedbackKeys: 0,
        inboundReports: 0,
        webhookDeliveries: 0,
        webhookAttempts: 0,
      });
      const left = await t.db.selectFrom('rate_limits').select('key').orderBy('key').execute();
      assert.deepEqual(
        left.map((r) => r.key),
        ['busy', 'recent'],
      );
    });

    test('feedback keys go with their events; processed reports, finished webhook deliveries and the delivery log go with bodies', async () => {
      const now = t.clock.now();
      const BODY = t.config.bodyRetention;
      await t.db
        .insertInto('feedback_keys')
        .values([
          { key: 'complained:rcp_old', created_at: now - EVENT_RETENTION_MS - 1 },
          { key: 'complained:rcp_new', created_at: now - EVENT_RETENTION_MS },
        ])
        .execute();
      const report = (id: string, state: 'pending' | 'processed', ago: number) => ({
        id,
        mail_from: '',
        rcpt_to: '[]',
        remote_address: '127.0.0.1',
        raw: 'x',
        state,
        result: null,
        received_at: now - ago,
        processed_at: null,
      });
      await t.db
        .insertInto('inbound_reports')
        .values([
          report('rpt_old', 'processed', BODY + 1),
          report('rpt_stuck', 'pending', BODY + 1),
          report('rpt_new', 'processed', BODY - 1),
        ])
        .execute();
      await t.db
        .insertInto('webhook_endpoints')
        .values({
          id: 'whe_1',
          domain_id: 'dom_1',
          url: 'https://hooks.example.com/',
          secrets: '[]',
          status: 'active',
          failing_since: null,
          disabled_at: null,
          disabled_reason: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const delivery = (id: string, state: 'pending' | 'delivered' | 'failed', ago: number) => ({
        id,
        endpoint_id: 'whe_1',
        event_id: id.replace('whd', 'evt'),
        event: 'delivered',
        payload: '{}',
        state,
        attempts: 1,
        next_attempt_at: now,
        locked_by: null,
        locked_until: null,
        created_at: now - ago,
        finished_at: null,
      });
      await t.db
        .insertInto('webhook_deliveries')
        .values([
          delivery('whd_done', 'delivered', BODY + 1),
          delivery('whd_gaveup', 'failed', BODY + 1),
          delivery('whd_waiting', 'pending', BODY + 1),
          delivery('whd_recent', 'delivered', BODY - 1),
        ])
        .execute();
      await t.db
        .insertInto('webhook_attempts')
        .values([
          {
            id: 'wha_old',
            delivery_id: 'whd_done',
            endpoint_id: 'whe_1',
            attempt: 1,
            status: 200,
            duration_ms: 3,
            response_snippet: '',
            error: null,
            attempted_at: now - BODY - 1,
          },
          {
            id: 'wha_new',
            delivery_id: 'whd_recent',
            endpoint_id: 'whe_1',
            attempt: 1,
            status: 200,
            duration_ms: 3,
            response_snippet: '',
            error: null,
            attempted_at: now - BODY + 1,
          },
        ])
        .execute();

      const counts = await purgeRetention(t);
      assert.deepEqual(
        [counts.feedbackKeys, counts.inboundReports, counts.webhookDeliveries, counts.webhookAttempts],
        [1, 1, 2, 1],
      );
      const keys = async <T extends 'feedback_keys' | 'inbound_reports' | 'webhook_deliveries' | 'webhook_attempts'>(
        table: T,
        column: string,
      ) => {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- one helper over four tables
        const db = t.db as any;
        const rows = (await db.selectFrom(table).select(column).orderBy(column).execute()) as Record<string, string>[];
        return rows.map((r) => r[column]);
      };
      assert.deepEqual(await keys('feedback_keys', 'key'), ['complained:rcp_new']);
      assert.deepEqual(
        await keys('inbound_reports', 'id'),
        ['rpt_new', 'rpt_stuck'],
        'a report not yet processed is never purged',
      );
      assert.deepEqual(
        await keys('webhook_deliveries', 'id'),
        ['whd_recent', 'whd_waiting'],
        'a pending delivery waits however old it is',
      );
      assert.deepEqual(await keys('webhook_attempts', 'id'), ['wha_new']);
    });
  });
}
