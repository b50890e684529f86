// Webhook delivery leases (POSTHORN_QUEUE_LEASE, as for delivery jobs): a dispatcher renews the
// rows of its running POSTs, so a slow endpoint keeps them and no other dispatcher posts them too;
// a dispatcher that stops renewing (it died) loses them to another right after the lease.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CLI_ACTOR } from '../../src/core/actor.js';
import { findDomain } from '../../src/domains/add-domain.js';
import { writeEvents } from '../../src/events/write-events.js';
import { claimDeliveries } from '../../src/webhooks/claim-deliveries.js';
import { setWebhook } from '../../src/webhooks/set-webhook.js';
import { startWebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.js';
import { seedDomain } from '../helpers/seed.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const LEASE = 600;

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

for (const dialect of testDialects()) {
  describe(`webhook leases (${dialect})`, () => {
    let cleanup: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const c of cleanup.reverse()) await c();
      cleanup = [];
    });

    async function setup(): Promise<{ t: TestDeps; receiver: WebhookReceiver }> {
      const t = await createTestDeps(dialect, {
        env: {
          POSTHORN_WEBHOOK_ALLOW_PRIVATE: '1',
          POSTHORN_QUEUE_LEASE: `${LEASE}ms`,
          POSTHORN_WEBHOOK_TIMEOUT: '10s',
        },
      });
      t.clock.set(Date.now());
      cleanup.push(() => t.close());
      const receiver = await startWebhookReceiver();
      cleanup.push(() => receiver.close());
      const d = await seedDomain(t, { domain: 'acme.test' });
      await setWebhook(t, await findDomain(t, 'acme.test'), receiver.url, CLI_ACTOR);
      const at = t.clock.now();
      await t.db.transaction().execute((trx) =>
        writeEvents(trx, [
          {
            id: t.ids.next('evt', at),
            accountId: d.accountId,
            domainId: d.domainId,
            messageId: t.ids.next('msg', at),
            event: 'delivered',
            recipient: 'r@example.org',
            from: 'orders@acme.test',
            subject: 'Order',
            tags: [],
            details: {},
            occurredAt: at,
          },
        ]),
      );
      return { t, receiver };
    }
    const row = (t: TestDeps) => t.db.selectFrom('webhook_deliveries').selectAll().executeTakeFirstOrThrow();

    test('a slow POST keeps its lease: another dispatcher cannot take the row while it runs', async () => {
      const { t, receiver } = await setup();
      receiver.answer(() => 'hang');
      const d = startWebhookDispatcher(t, { claimBatch: 10, idlePollMs: 10 });
      cleanup.push(() => d.stop(200));
      await receiver.waitFor((r) => r.length === 1);
      for (let step = 0; step < 6; step++) {
        t.clock.advance(LEASE / 2);
        const now = t.clock.now();
        await until('the lease to be renewed', async () => Number((await row(t)).next_attempt_at) === now + LEASE);
        assert.deepEqual(await claimDeliveries(t, 'other', 10, LEASE), [], 'still held by the dispatcher');
      }
      assert.equal(receiver.received.length, 1, 'posted once');
    });

    test('a dispatcher that stops renewing (it died) loses the row to another right after the lease', async () => {
      const { t } = await setup();
      const [claimed] = await claimDeliveries(t, 'dead', 10, LEASE);
      assert.ok(claimed);
      t.clock.advance(LEASE - 1);
      assert.deepEqual(await claimDeliveries(t, 'other', 10, LEASE), []);
      t.clock.advance(1);
      assert.deepEqual(
        (await claimDeliveries(t, 'other', 10, LEASE)).map((r) => r.id),
        [claimed.id],
      );
    });
  });
}
