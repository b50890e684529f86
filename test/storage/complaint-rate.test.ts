import { describe, test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { makeReturnPath, returnPathSecret } from '../../src/delivery/return-path.js';
import { COMPLAINT_RATE, complaintRate } from '../../src/feedback/complaint-rate.js';
import { receiveReport } from '../../src/feedback/receive-report.js';
import { buildApp } from '../../src/http/build-app.js';
import type { EventTable } from '../../src/storage/database.js';
import { insertChunked } from '../../src/storage/insert-chunked.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { buildArf, insertDelivered } from '../helpers/report-builders.js';

const DAY = 86_400_000;

for (const dialect of testDialects()) {
  describe(`complaint rate (${dialect})`, () => {
    let t: TestDeps;
    let sender: Seeded;
    let other: Seeded;
    let secret: Buffer;

    beforeEach(async () => {
      t = await createTestDeps(dialect);
      sender = await seedDomain(t, { domain: 'acme.test' });
      other = await seedDomain(t, { domain: 'other.test' });
      secret = await returnPathSecret(t);
    });
    afterEach(async () => t.close());

    /** `n` events named `event` on `domain`, `ago` ms before now. */
    async function bulk(domain: Seeded, event: string, n: number, ago = 0): Promise<void> {
      const at = t.clock.now() - ago;
      const rows: EventTable[] = Array.from({ length: n }, (_, i) => ({
        id: t.ids.next('evt', at),
        account_id: domain.accountId,
        domain_id: domain.domainId,
        message_id: 'msg_01JD0000000000000000000000',
        event,
        recipient: `r${i}@example.org`,
        from_address: `hello@${domain.domain}`,
        subject: 's',
        tags: '[]',
        details: '{}',
        occurred_at: at,
      }));
      await insertChunked(t.db, 'events', rows);
    }

    /** A complaint (ARF to the complaint address) about a fresh one-recipient message of acme.test. */
    let complainers = 0;
    async function complain(): Promise<void> {
      const sent = await insertDelivered(t, sender, [`complainer${++complainers}@example.org`]);
      const [address, rcp] = [...sent.recipients][0]!;
      const raw = buildArf({
        to: t.config.complaintAddress,
        originalMailFrom: makeReturnPath(secret, rcp, 'acme.test'),
        rcptTo: address,
      });
      const { result } = await receiveReport(t, {
        raw,
        mailFrom: '',
        rcptTo: [t.config.complaintAddress],
        remoteAddress: '192.0.2.9',
      });
      assert.equal(result?.recipients[0]?.applied, 'event');
    }

    const notices = () =>
      t.db
        .selectFrom('notices')
        .select(['kind', 'domain_id', 'message', 'details', 'created_at'])
        .where('kind', '=', 'domain.complaint_rate')
        .orderBy('created_at')
        .execute();

    test('complained over delivered, per recipient, in the 30 days ending now, for this domain only', async () => {
      await bulk(sender, 'delivered', 2000);
      await bulk(sender, 'complained', 3);
      await bulk(sender, 'delivered', 500, 31 * DAY);
      await bulk(sender, 'complained', 7, 31 * DAY);
      await bulk(sender, 'failed', 40);
      await bulk(other, 'complained', 9);
      const rate = await complaintRate(t.db, sender.domainId, t.clock.now());
      assert.deepEqual(rate, {
        complaints: 3,
        delivered: 2000,
        rate: 0.0015,
        threshold: 0.001,
        warning_at: 0.0008,
        window_days: 30,
        min_delivered: 1000,
      });
      assert.equal((await complaintRate(t.db, other.domainId, t.clock.now())).rate, null, 'no deliveries: no rate');
    });

    test('a complaint that takes the rate past 0.08% with 1,000+ delivered raises one notice a day', async () => {
      await bulk(sender, 'delivered', 1000);
      await complain();
      // 1 / 1001 delivered = 0.0999%: above the warning level.
      let list = await notices();
      assert.equal(list.length, 1);
      assert.equal(list[0]?.domain_id, sender.domainId);
      assert.match(list[0]?.message ?? '', /acme\.test: complaint rate 0\.100% .*1 complaints, 1001 delivered/);
      assert.deepEqual(JSON.parse(list[0]!.details), {
        domain: 'acme.test',
        ...(await complaintRate(t.db, sender.domainId, t.clock.now())),
        complaints: 1,
        delivered: 1001,
        rate: 1 / 1001,
      });
      const warned = await t.db
        .selectFrom('domains')
        .select('complaint_warned_at')
        .where('id', '=', sender.domainId)
        .executeTakeFirstOrThrow();
      assert.equal(Number(warned.complaint_warned_at), t.clock.now());

      t.clock.advance(DAY - 1);
      await complain();
      assert.equal((await notices()).length, 1, 'not again within a day');
      t.clock.advance(1);
      await complain();
      list = await notices();
      assert.equal(list.length, 2, 'again once a day has passed');
      assert.match(list[1]?.message ?? '', /3 complaints/);
    });

    test(`no notice below ${COMPLAINT_RATE.minDelivered} delivered, however high the rate; none at or under 0.08%`, async () => {
      await bulk(sender, 'delivered', 10);
      await complain();
      assert.equal((await complaintRate(t.db, sender.domainId, t.clock.now())).complaints, 1);
      assert.deepEqual(await notices(), []);
      await bulk(sender, 'delivered', 2489);
      // 2 complaints / 2501 delivered = 0.07997%: under the warning level.
      await complain();
      assert.ok(((await complaintRate(t.db, sender.domainId, t.clock.now())).rate ?? 1) <= COMPLAINT_RATE.warningAt);
      assert.deepEqual(await notices(), []);
    });

    test("GET /v1/domain: the key's own domain with its complaint rate; 401 without a valid key", async () => {
      await bulk(sender, 'delivered', 4000);
      await bulk(sender, 'complained', 2);
      await bulk(other, 'complained', 5);
      const app = buildApp(t);
      try {
        const res = await app.inject({
          method: 'GET',
          url: '/v1/domain',
          headers: { authorization: `Bearer ${sender.key}` },
        });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.json(), {
          domain: 'acme.test',
          status: 'verified',
          verified_at: new Date(t.clock.now()).toISOString(),
          complaint_rate: {
            complaints: 2,
            delivered: 4000,
            rate: 0.0005,
            threshold: 0.001,
            warning_at: 0.0008,
            window_days: 30,
            min_delivered: 1000,
          },
        });
        const bad = await app.inject({
          method: 'GET',
          url: '/v1/domain',
          headers: { authorization: 'Bearer ph_nope' },
        });
        assert.equal(bad.statusCode, 401);
        assert.equal((bad.json() as { error: { type: string } }).error.type, 'invalid_key');
        assert.equal((await app.inject({ method: 'GET', url: '/v1/domain' })).statusCode, 401);
      } finally {
        await app.close();
      }
    });
  });
}
