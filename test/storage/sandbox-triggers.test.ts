// The sandbox's open@, click@ and unsubscribe@ recipients produce their events after
// delivery through the same functions as the tracking routes, on every test database.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PREFETCH_WINDOW_MS } from '../../src/tracking/automated.js';
import { runSandboxTriggers, SANDBOX_USER_AGENT } from '../../src/sandbox/sandbox-triggers.js';
import { testDialects } from '../helpers/test-db.js';
import { createDeliveryHarness, SENDER_DOMAIN, type DeliveryHarness } from '../helpers/delivery-harness.js';

for (const dialect of testDialects()) {
  describe(`sandbox triggers (${dialect})`, () => {
    let h: DeliveryHarness;
    afterEach(() => h.close());

    const start = async () => {
      h = await createDeliveryHarness(dialect, { sandbox: true, env: { POSTHORN_SANDBOX: '1' } });
      await h.deps.db
        .updateTable('domains')
        .set({ track_opens: 1, track_clicks: 1, unsubscribe: 1 })
        .where('id', '=', h.sender.domainId)
        .execute();
    };
    const send = async (to: string[]) => {
      const res = await h.send({
        from: `hello@${SENDER_DOMAIN}`,
        to,
        subject: 'Lifecycle',
        html: '<p><a href="https://docs.example/start?a=1&amp;b=2">Start</a> <a href="https://other.example/">Other</a></p>',
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      return res.body.id;
    };
    const triggers = () =>
      runSandboxTriggers(h.deps, { trackingSecret: h.trackingSecret, returnPathSecret: h.returnPathSecret });
    const pending = async () =>
      (await h.deps.db.selectFrom('sandbox_messages').select('id').where('triggers_pending', '=', 1).execute()).length;

    test('open@, click@ and unsubscribe@ act after delivered; a later pass (as after a restart) adds nothing', async () => {
      await start();
      const id = await send(['open@example.org', 'click@example.org', 'unsubscribe@example.org', 'you@example.org']);
      await h.run();
      assert.equal(await pending(), 3, 'one mailbox row per tracked recipient; you@ has no trigger');
      assert.equal(await triggers(), 1, 'unsubscribe@ acts at once; open@ and click@ wait for the prefetch window');
      assert.deepEqual(await h.timeline(id, 'unsubscribe@example.org'), [
        'accepted-by-system',
        'accepted-by-mta',
        'delivered',
        'unsubscribed',
      ]);
      const sup = await h.deps.db
        .selectFrom('suppressions')
        .select('reason')
        .where('address', '=', 'unsubscribe@example.org')
        .executeTakeFirst();
      assert.deepEqual(sup, { reason: 'unsubscribed' });
      assert.deepEqual(await h.timeline(id, 'open@example.org'), [
        'accepted-by-system',
        'accepted-by-mta',
        'delivered',
      ]);

      h.deps.clock.advance(PREFETCH_WINDOW_MS);
      assert.equal(await triggers(), 2);
      assert.equal(await pending(), 0);
      const opened = await h.events(id, 'open@example.org');
      assert.deepEqual(
        opened.map((e) => e.event),
        ['accepted-by-system', 'accepted-by-mta', 'delivered', 'opened'],
      );
      assert.deepEqual([opened[3]!.details.user_agent, opened[3]!.details.automated], [SANDBOX_USER_AGENT, false]);
      const clicked = await h.events(id, 'click@example.org');
      assert.deepEqual(
        clicked.map((e) => e.event),
        ['accepted-by-system', 'accepted-by-mta', 'delivered', 'opened', 'clicked'],
      );
      assert.equal(clicked[4]!.details.url, 'https://docs.example/start?a=1&b=2', 'the first link, exactly');
      assert.deepEqual(await h.timeline(id, 'you@example.org'), ['accepted-by-system', 'accepted-by-mta', 'delivered']);

      // A crash after acting but before the mark is cleared: the pass runs again and records nothing twice.
      await h.deps.db.updateTable('sandbox_messages').set({ triggers_pending: 1 }).execute();
      await triggers();
      assert.equal(
        (await h.events(id)).filter((e) => ['opened', 'clicked', 'unsubscribed'].includes(e.event)).length,
        4,
      );
    });

    test('a trigger waits for its delivered event: nothing happens while the recipient is still queued', async () => {
      await start();
      const id = await send(['open@example.org']);
      // The sandbox row exists only after the transport took it; before, there is nothing to act on.
      assert.equal(await triggers(), 0);
      await h.run();
      // Delivered but before the window: still pending, then acted once the clock passes it.
      assert.equal(await triggers(), 0);
      assert.equal(await pending(), 1);
      h.deps.clock.advance(PREFETCH_WINDOW_MS);
      assert.equal(await triggers(), 1);
      assert.deepEqual(await h.timeline(id, 'open@example.org'), [
        'accepted-by-system',
        'accepted-by-mta',
        'delivered',
        'opened',
      ]);
    });

    test('complain@ is reported through an ARF report to the inbound path: complained and suppressed once, tracking on or off', async () => {
      await start();
      // Tracking off: complain@ shares one transaction (a message-wide return path) with another recipient.
      await h.deps.db
        .updateTable('domains')
        .set({ track_opens: 0, track_clicks: 0, unsubscribe: 0 })
        .where('id', '=', h.sender.domainId)
        .execute();
      const id = await send(['complain@example.org', 'you@example.org']);
      await h.run();
      assert.equal(await triggers(), 1);
      const events = await h.events(id, 'complain@example.org');
      assert.deepEqual(
        events.map((e) => e.event),
        ['accepted-by-system', 'accepted-by-mta', 'delivered', 'complained'],
      );
      assert.equal(events[3]!.details.feedback_type, 'abuse');
      const sup = await h.deps.db
        .selectFrom('suppressions')
        .select('reason')
        .where('address', '=', 'complain@example.org')
        .executeTakeFirst();
      assert.deepEqual(sup, { reason: 'complaint' });
      assert.deepEqual(await h.timeline(id, 'you@example.org'), ['accepted-by-system', 'accepted-by-mta', 'delivered']);
      const report = await h.deps.db
        .selectFrom('inbound_reports')
        .select(['state', 'rcpt_to'])
        .executeTakeFirstOrThrow();
      assert.deepEqual([report.state, JSON.parse(report.rcpt_to)], ['processed', [h.deps.config.complaintAddress]]);

      // Run again as after a crash before the mark was cleared: a second report, still one event.
      await h.deps.db.updateTable('sandbox_messages').set({ triggers_pending: 1 }).execute();
      await triggers();
      assert.equal((await h.events(id, 'complain@example.org')).filter((e) => e.event === 'complained').length, 1);
    });

    test('with tracking off, open@ and click@ are delivered and record nothing more', async () => {
      await start();
      await h.deps.db
        .updateTable('domains')
        .set({ track_opens: 0, track_clicks: 0, unsubscribe: 0 })
        .where('id', '=', h.sender.domainId)
        .execute();
      const id = await send(['open@example.org', 'click@example.org', 'unsubscribe@example.org']);
      await h.run();
      h.deps.clock.advance(PREFETCH_WINDOW_MS);
      await triggers();
      assert.equal(await pending(), 0);
      for (const r of ['open@example.org', 'click@example.org', 'unsubscribe@example.org']) {
        assert.deepEqual(await h.timeline(id, r), ['accepted-by-system', 'accepted-by-mta', 'delivered']);
      }
    });
  });
}
