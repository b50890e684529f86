// GET /v1/usage over real HTTPS on both databases: the month's accepted recipients from the volume
// table that the quota counts in, each UTC day's events from real sends and recorded events, the
// month boundaries, and who may read it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../helpers/test-db.js';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { newEvent } from '../../src/events/event-record.js';
import { writeEvents } from '../../src/events/write-events.js';
import type { EventName } from '../../src/core/event-names.js';

const at = (iso: string): number => Date.parse(iso);
const NOW = at('2026-11-21T12:00:00.000Z');

/** A day's row with every count zero but those given. */
function day(
  date: string,
  counts: Partial<Record<'accepted' | 'delivered' | 'failed' | 'complained' | 'opened' | 'clicked', number>> = {},
) {
  return { date, accepted: 0, delivered: 0, failed: 0, complained: 0, opened: 0, clicked: 0, ...counts };
}

for (const dialect of testDialects()) {
  describe(`GET /v1/usage (${dialect})`, () => {
    let api: ApiHarness;
    let acme: Seeded;
    let acme2: Seeded;
    let other: Seeded;
    let admin: string;
    /** The message each send made, by label. */
    const sent = new Map<string, { id: string; domain: Seeded; to: string[] }>();

    /** POST /v1/send at `when` (the fake clock), `n` recipients, from `domain`. */
    async function send(label: string, domain: Seeded, when: string, n: number): Promise<void> {
      api.deps.clock.set(at(when));
      const to = Array.from({ length: n }, (_, i) => `${label}-${i}@example.org`);
      const res = await api.fetch('/v1/send', {
        method: 'POST',
        headers: { authorization: `Bearer ${domain.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ from: `hello@${domain.domain}`, to, subject: 'Usage', text: 'hi' }),
      });
      assert.equal(res.status, 202, await res.clone().text());
      sent.set(label, { id: ((await res.json()) as { id: string }).id, domain, to });
    }

    /** Records `event` for the first `n` recipients of the send `label`, at `when`, through the one event writer. */
    async function record(label: string, event: EventName, when: string, n = 1): Promise<void> {
      const m = sent.get(label)!;
      const message = {
        id: m.id,
        accountId: m.domain.accountId,
        domainId: m.domain.domainId,
        from: `hello@${m.domain.domain}`,
        subject: 'Usage',
        tags: [],
        metadata: {},
      };
      const events = m.to
        .slice(0, n)
        .map((recipient) => newEvent(api.deps.ids, message, { event, recipient, at: at(when), suppress: false }));
      await api.deps.db.transaction().execute((trx) => writeEvents(trx, events));
    }

    before(async () => {
      api = await startApiHarness(dialect);
      acme = await seedDomain(api.deps, { account: 'acme', domain: 'acme.test', quota: 1000 });
      acme2 = await seedDomain(api.deps, { account: 'acme', domain: 'second.acme.test' });
      other = await seedDomain(api.deps, { account: 'other', domain: 'other.test' });
      admin = await api.token('acme');

      await send('oct', acme, '2026-10-31T23:59:59.999Z', 1);
      await send('nov1', acme, '2026-11-01T00:00:00.000Z', 2);
      await send('nov1b', acme2, '2026-11-01T13:00:00.000Z', 1);
      await send('theirs', other, '2026-11-20T23:59:59.999Z', 4);
      await send('nov21', acme, '2026-11-21T11:00:00.000Z', 3);

      await record('oct', 'delivered', '2026-10-31T23:59:59.999Z');
      await record('nov1', 'delivered', '2026-11-01T00:00:01.000Z', 2);
      await record('nov1b', 'failed', '2026-11-01T23:59:59.999Z');
      await record('nov21', 'delivered', '2026-11-21T11:00:01.000Z', 3);
      await record('nov21', 'opened', '2026-11-21T11:05:00.000Z', 2);
      await record('nov21', 'clicked', '2026-11-21T11:06:00.000Z');
      await record('nov21', 'complained', '2026-11-21T11:30:00.000Z');
      await record('theirs', 'delivered', '2026-11-21T00:00:00.000Z', 4);
      await record('theirs', 'complained', '2026-11-21T00:01:00.000Z', 4);
      api.deps.clock.set(NOW);
    });
    after(() => api.close());

    test('the current month by default: accepted from the volume, quota, one row per day up to today', async () => {
      api.deps.clock.set(NOW);
      const { data, response } = await api.client(admin).GET('/v1/usage');
      assert.equal(response.status, 200);
      assert.equal(data!.month, '2026-11');
      assert.equal(data!.accepted, 6, 'the volume table: 2 + 1 + 3 recipients this month, not the other account’s 4');
      assert.equal(data!.quota, 1000);
      assert.equal(data!.days.length, 21, 'the 1st to the 21st');
      const expected = Array.from({ length: 21 }, (_, i) => day(`2026-11-${String(i + 1).padStart(2, '0')}`));
      expected[0] = day('2026-11-01', { accepted: 3, delivered: 2, failed: 1 });
      expected[20] = day('2026-11-21', { accepted: 3, delivered: 3, opened: 2, clicked: 1, complained: 1 });
      assert.deepEqual(data!.days, expected);
      // The account-wide rolling 30 days: October 31's delivery is inside the window too.
      assert.deepEqual(data!.complaint_rate, {
        complaints: 1,
        delivered: 6,
        rate: 1 / 6,
        threshold: 0.001,
        warning_at: 0.0008,
        window_days: 30,
        min_delivered: 1000,
      });
    });

    test('the accepted count is the one the quota is held against', async () => {
      const volume = await api.deps.db
        .selectFrom('volume')
        .select('count')
        .where('account_id', '=', acme.accountId)
        .where('month', '=', '2026-11')
        .executeTakeFirstOrThrow();
      const { data } = await api.client(admin).GET('/v1/usage', { params: { query: { month: '2026-11' } } });
      assert.equal(data!.accepted, Number(volume.count));
    });

    test('a past month has every day; its last millisecond belongs to it, the next to the month after', async () => {
      api.deps.clock.set(NOW);
      const { data } = await api.client(admin).GET('/v1/usage', { params: { query: { month: '2026-10' } } });
      assert.equal(data!.month, '2026-10');
      assert.equal(data!.accepted, 1);
      assert.equal(data!.days.length, 31);
      assert.equal(data!.days[0]!.date, '2026-10-01');
      assert.deepEqual(data!.days[30], day('2026-10-31', { accepted: 1, delivered: 1 }));
      assert.equal(
        data!.days.slice(0, 30).reduce((n, d) => n + d.accepted + d.delivered, 0),
        0,
      );
    });

    test('a month to come has no days and nothing accepted', async () => {
      api.deps.clock.set(NOW);
      const { data, response } = await api.client(admin).GET('/v1/usage', { params: { query: { month: '2027-01' } } });
      assert.equal(response.status, 200);
      assert.deepEqual(
        { ...data!, complaint_rate: null },
        {
          month: '2027-01',
          accepted: 0,
          quota: 1000,
          days: [],
          complaint_rate: null,
        },
      );
    });

    test('each account sees only its own usage; no quota is null', async () => {
      api.deps.clock.set(NOW);
      const theirs = await api.token('other');
      const { data } = await api.client(theirs).GET('/v1/usage');
      assert.equal(data!.accepted, 4);
      assert.equal(data!.quota, null);
      assert.deepEqual(data!.days[19], day('2026-11-20', { accepted: 4 }));
      assert.deepEqual(data!.days[20], day('2026-11-21', { delivered: 4, complained: 4 }));
      assert.equal(data!.complaint_rate.complaints, 4);
      assert.equal(data!.complaint_rate.rate, 1);
    });

    test('a malformed month is 400 naming month; an unknown parameter is 400 naming it', async () => {
      for (const month of ['2026-13', '2026-00', '2026-1', 'november', '2026-11-01', '26-11', '']) {
        const { error, response } = await api.client(admin).GET('/v1/usage', { params: { query: { month } } });
        assert.equal(response.status, 400, month);
        assert.equal(error!.error.type, 'invalid_request');
        assert.equal(error!.error.field, 'month', month);
        assert.equal(error!.error.docs, '/docs/errors#invalid_request');
      }
      const res = await api.fetch('/v1/usage?months=2026-11', { headers: { authorization: `Bearer ${admin}` } });
      assert.equal(res.status, 400);
      assert.equal(((await res.json()) as { error: { field: string } }).error.field, 'months');
    });

    test('a viewer may read it', async () => {
      api.deps.clock.set(NOW);
      const viewer = await api.token('acme', 'viewer');
      const { data, response } = await api.client(viewer).GET('/v1/usage', { params: { query: { month: '2026-11' } } });
      assert.equal(response.status, 200);
      assert.equal(data!.accepted, 6);
    });

    test('a sending key is 403 forbidden; no credential is 401', async () => {
      const { error, response } = await api.client(acme.key).GET('/v1/usage');
      assert.equal(response.status, 403);
      assert.equal(error!.error.type, 'forbidden');
      assert.match(error!.error.message, /account token/);
      const anonymous = await api.client().GET('/v1/usage');
      assert.equal(anonymous.response.status, 401);
      assert.equal(anonymous.error!.error.type, 'invalid_key');
    });

    test('at the turn of the month: the new month starts with one day, the old one keeps its last', async () => {
      await record('nov21', 'opened', '2026-11-30T23:59:59.999Z');
      await record('nov21', 'clicked', '2026-12-01T00:00:00.000Z');
      await send('dec', acme, '2026-12-01T00:00:00.000Z', 2);
      api.deps.clock.set(at('2026-12-01T00:00:00.000Z'));

      const now = await api.client(admin).GET('/v1/usage');
      assert.equal(now.data!.month, '2026-12');
      assert.equal(now.data!.accepted, 2);
      assert.deepEqual(now.data!.days, [day('2026-12-01', { accepted: 2, clicked: 1 })]);

      const past = await api.client(admin).GET('/v1/usage', { params: { query: { month: '2026-11' } } });
      assert.equal(past.data!.accepted, 6);
      assert.equal(past.data!.days.length, 30);
      assert.deepEqual(past.data!.days[29], day('2026-11-30', { opened: 1 }));
      assert.equal(
        past.data!.days.reduce((n, d) => n + d.clicked, 0),
        1,
        'December’s click is not November’s',
      );
    });
  });
}
