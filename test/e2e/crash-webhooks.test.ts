// Crash safety of webhooks: kill -9 of `posthorn serve --roles api,webhooks` with 500 events in the
// outbox and the receiver no longer answering, then a restart: every event arrives (at-least-once;
// the receiver dedupes on webhook-id), every arrival verifies with standardwebhooks, and what
// arrived twice is no more than what was in flight when the process died.
import { findDomain } from '../../src/domains/add-domain.js';
import { CLI_ACTOR } from '../../src/core/actor.js';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { loadConfig } from '../../src/config/load.js';
import { systemClock } from '../../src/core/clock.js';
import { createIds } from '../../src/core/ids.js';
import { writeEvents, type NewEvent } from '../../src/events/write-events.js';
import { setWebhook } from '../../src/webhooks/set-webhook.js';
import { LEASE_MS } from '../../src/delivery/delivery-worker.js';
import { seedDomain } from '../helpers/seed.js';
import { startServer } from '../helpers/spawn-server.js';
import { createTestDb, testDialects } from '../helpers/test-db.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';

const TOTAL = 500;
const ANSWERED_BEFORE_KILL = 100;
const CONCURRENCY = 32;
const TIMEOUT_MS = 60_000;

for (const dialect of testDialects()) {
  describe(`crash safety of webhooks (${dialect})`, () => {
    test(`kill -9 with ${TOTAL} events pending and the receiver hanging, restart: all ${TOTAL} arrive`, async () => {
      const db = await createTestDb(dialect);
      const receiver = await startWebhookReceiver();
      try {
        const ids = createIds();
        const config = loadConfig({
          POSTHORN_SANDBOX: '0',
          POSTHORN_HOSTNAME: 'mail.posthorn.test',
          POSTHORN_WEBHOOK_ALLOW_PRIVATE: '1',
          ...db.env,
        });
        const deps = { db: db.db, clock: systemClock, ids, config };
        const seeded = await seedDomain(deps, { domain: 'acme.test' });
        const { secret } = await setWebhook(deps, await findDomain(deps, 'acme.test'), receiver.url, CLI_ACTOR);
        assert.ok(secret);
        const now = Date.now();
        const events: NewEvent[] = Array.from({ length: TOTAL }, (_, i) => ({
          id: ids.next('evt', now),
          accountId: seeded.accountId,
          domainId: seeded.domainId,
          messageId: ids.next('msg', now),
          event: 'delivered',
          recipient: `r${i}@example.org`,
          from: 'orders@acme.test',
          subject: `Order ${i}`,
          tags: ['crash'],
          details: {},
          occurredAt: now,
        }));
        await db.db.transaction().execute((trx) => writeEvents(trx, events));
        assert.equal(
          (await db.db.selectFrom('webhook_deliveries').select('id').where('state', '=', 'pending').execute()).length,
          TOTAL,
        );

        // The first 100 are answered; after that the receiver takes requests and never answers.
        receiver.answer((_r, n) => (n <= ANSWERED_BEFORE_KILL ? { status: 200 } : 'hang'));
        const env = {
          ...db.env,
          POSTHORN_SANDBOX: '0',
          POSTHORN_HOSTNAME: 'mail.posthorn.test',
          POSTHORN_LISTEN_HOST: '127.0.0.1',
          POSTHORN_WEBHOOK_ALLOW_PRIVATE: '1',
          POSTHORN_WEBHOOK_CONCURRENCY: String(CONCURRENCY),
          POSTHORN_WEBHOOK_TIMEOUT: `${TIMEOUT_MS}ms`,
        };
        const roles = { args: ['--roles', 'api,webhooks'] };
        const server = await startServer(env, roles);
        await receiver.waitFor((r) => r.length >= ANSWERED_BEFORE_KILL + CONCURRENCY / 2, 60_000);
        await server.kill9();
        const delivered = (
          await db.db.selectFrom('webhook_deliveries').select('id').where('state', '=', 'delivered').execute()
        ).length;
        assert.ok(delivered < TOTAL, `the kill came with deliveries outstanding (${delivered} delivered)`);
        const held = await db.db
          .selectFrom('webhook_deliveries')
          .select('event_id')
          .where('state', '=', 'pending')
          .where('locked_by', 'is not', null)
          .execute();
        assert.ok(held.length > 0 && held.length <= CONCURRENCY, `${held.length} rows held by the dead dispatcher`);
        // The restarted server runs on the real clock; the dead dispatcher's leases end at most
        // LEASE_MS (the default POSTHORN_QUEUE_LEASE, renewed while held) from now. Moving them back
        // by exactly the lease stands for waiting that long.
        const lease = LEASE_MS;
        await db.db
          .updateTable('webhook_deliveries')
          .set((eb) => ({
            next_attempt_at: eb('next_attempt_at', '-', lease),
            locked_until: eb('locked_until', '-', lease),
          }))
          .where('locked_by', 'is not', null)
          .where('state', '=', 'pending')
          .execute();

        receiver.answer(() => ({ status: 200 }));
        const restarted = await startServer(env, roles);
        let stopped = false;
        try {
          const expected = new Set(events.map((e) => e.id));
          // Answered, not just received: the requests that hung before the kill count only when posted again.
          await receiver.waitFor((r) => {
            const got = new Set(r.filter((x) => x.answered === 200).map((x) => x.id));
            return [...expected].every((id) => got.has(id));
          }, 60_000);
          // Each 200 is recorded in a group commit shortly after the response.
          const deadline = Date.now() + 30_000;
          const outstanding = () =>
            db.db.selectFrom('webhook_deliveries').select('id').where('state', '!=', 'delivered').execute();
          while ((await outstanding()).length > 0) {
            assert.ok(Date.now() < deadline, 'every delivery recorded as delivered within 30 s');
            await new Promise((r) => setTimeout(r, 20));
          }
          assert.equal(await restarted.stop(), 0, 'a clean SIGTERM stop');
          stopped = true;
        } finally {
          if (!stopped) await restarted.kill9();
        }

        const verifier = new Webhook(secret);
        const counts = new Map<string, number>();
        for (const r of receiver.received) {
          const body = verifier.verify(r.body, {
            'webhook-id': r.id,
            'webhook-timestamp': r.timestamp,
            'webhook-signature': r.signature,
          }) as { id: string };
          assert.equal(body.id, r.id, 'the webhook-id is the event id');
          counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
        }
        assert.equal(counts.size, TOTAL, 'nothing arrived that was not written');
        const twice = [...counts].filter(([, n]) => n > 1);
        assert.ok(
          twice.every(([, n]) => n === 2),
          'nothing arrived three times',
        );
        const heldIds = new Set(held.map((h) => h.event_id));
        assert.ok(
          twice.every(([id]) => heldIds.has(id)),
          'only what was in flight at the kill arrived twice',
        );
        const rows = await db.db.selectFrom('webhook_deliveries').select(['state', 'locked_by']).execute();
        assert.deepEqual(
          rows.filter((r) => r.state !== 'delivered' || r.locked_by !== null),
          [],
          'the outbox is fully delivered',
        );
      } finally {
        await receiver.close();
        await db.close();
      }
    });
  });
}
