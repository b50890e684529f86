// Sandbox mode (README, Quick start): the delivery engine keeps mail in the local mailbox instead of
// sending it, and answers by recipient address like a real server would, through the same
// classification, events and suppression as real mail.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readReturnPath } from '../../src/delivery/return-path.js';
import { testDialects } from '../helpers/test-db.js';
import { createDeliveryHarness, SENDER_DOMAIN, type DeliveryHarness } from '../helpers/delivery-harness.js';

for (const dialect of testDialects()) {
  describe(`sandbox mailbox delivery (${dialect})`, () => {
    let h: DeliveryHarness;
    afterEach(() => h.close());
    // The production retry schedule (first retry after 1 min), not the harness's shortened one.
    const harness = async () => {
      h = await createDeliveryHarness(dialect, {
        sandbox: true,
        env: { POSTHORN_SANDBOX: '1', POSTHORN_RETRY_SCHEDULE: '1m,5m', POSTHORN_MAX_QUEUE_LIFETIME: '72h' },
      });
      return h;
    };

    async function send(to: string): Promise<string> {
      const res = await h.send({
        from: `hello@${SENDER_DOMAIN}`,
        to,
        subject: 'Sandbox',
        html: '<p>Hello sandbox</p>',
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      return res.body.id;
    }

    const mailbox = () => h.deps.db.selectFrom('sandbox_messages').selectAll().orderBy('id').execute();
    const suppression = (address: string) =>
      h.deps.db.selectFrom('suppressions').select('reason').where('address', '=', address).executeTakeFirst();

    test('you@ is delivered into the sandbox mailbox, signed, on the aligned return path', async () => {
      await harness();
      assert.equal(h.deps.config.sandbox, true);
      const id = await send('you@example.org');
      await h.run();
      const events = await h.events(id, 'you@example.org');
      assert.deepEqual(
        events.map((e) => e.event),
        ['accepted-by-system', 'accepted-by-mta', 'delivered'],
      );
      assert.deepEqual(
        [events[2]!.details.mx_host, events[2]!.details.response],
        ['sandbox', '250 2.0.0 OK: queued (sandbox)'],
      );
      const rows = await mailbox();
      assert.equal(rows.length, 1);
      const row = rows[0]!;
      assert.equal(row.message_id, id);
      assert.deepEqual(JSON.parse(row.recipients), ['you@example.org']);
      assert.match(row.mail_from, new RegExp(`@bounce\\.${SENDER_DOMAIN.replace('.', '\\.')}$`));
      const rcpt = await h.deps.db
        .selectFrom('recipients')
        .select('id')
        .where('message_id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(readReturnPath(h.returnPathSecret, row.mail_from), rcpt.id);
      assert.deepEqual(
        (await h.verifyDkim(row.raw)).map((d) => [d.result, d.domain]),
        [['pass', SENDER_DOMAIN]],
      );
    });

    test('bounce@ fails as a hard bounce and is suppressed: the next send is 422', async () => {
      await harness();
      const id = await send('bounce@example.org');
      await h.run();
      const events = await h.events(id, 'bounce@example.org');
      assert.deepEqual(
        events.map((e) => e.event),
        ['accepted-by-system', 'accepted-by-mta', 'failed'],
      );
      assert.equal(events[2]!.details.bounce_class, 'hard');
      assert.deepEqual(await suppression('bounce@example.org'), { reason: 'hard_bounce' });
      assert.equal((await mailbox()).length, 0, 'nothing in the mailbox');
      const again = await h.send({
        from: `hello@${SENDER_DOMAIN}`,
        to: 'bounce@example.org',
        subject: 'Again',
        html: '<p>x</p>',
      });
      assert.deepEqual([again.status, again.body.error?.type], [422, 'recipient_suppressed']);
    });

    test('block@ fails with bounce_class block and is not suppressed', async () => {
      await harness();
      const id = await send('block@example.org');
      await h.run();
      const events = await h.events(id, 'block@example.org');
      assert.deepEqual(
        events.map((e) => e.event),
        ['accepted-by-system', 'accepted-by-mta', 'failed'],
      );
      assert.equal(events[2]!.details.bounce_class, 'block');
      assert.equal(await suppression('block@example.org'), undefined);
      assert.equal(
        (await h.send({ from: `hello@${SENDER_DOMAIN}`, to: 'block@example.org', subject: 'Again', html: '<p>x</p>' }))
          .status,
        202,
      );
    });

    test('defer@ is deferred once, then delivered once the clock passes the first retry', async () => {
      await harness();
      const id = await send('defer@example.org');
      await h.run();
      assert.deepEqual(await h.timeline(id, 'defer@example.org'), ['accepted-by-system', 'accepted-by-mta']);
      assert.equal((await mailbox()).length, 0);
      await h.advance(59_999);
      assert.deepEqual(
        await h.timeline(id, 'defer@example.org'),
        ['accepted-by-system', 'accepted-by-mta'],
        'not before the first retry',
      );
      await h.advance(1);
      assert.deepEqual(await h.timeline(id, 'defer@example.org'), [
        'accepted-by-system',
        'accepted-by-mta',
        'delivered',
      ]);
      assert.deepEqual(
        (await mailbox()).map((r) => JSON.parse(r.recipients)),
        [['defer@example.org']],
      );
      assert.equal(await suppression('defer@example.org'), undefined);
    });
  });
}
