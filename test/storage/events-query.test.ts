import { describe, test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { errorBody, UNAUTHORIZED } from '../../src/core/api-errors.js';
import { EVENT_NAMES, type EventName } from '../../src/core/event-names.js';
import { formatApiKey } from '../../src/credentials/api-key-format.js';
import { issueApiKey } from '../../src/credentials/issue-api-key.js';
import type { EventRecord } from '../../src/events/event-record.js';
import { EVENT_RETENTION_MS } from '../../src/events/purge-retention.js';
import type { EventsPage } from '../../src/events/query-events.js';
import { writeEvents, type NewEvent } from '../../src/events/write-events.js';
import { buildApp } from '../../src/http/build-app.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';

const HOUR = 3_600_000;

/** An account with one domain and its API key, all written straight to the database. */
async function addDomain(t: TestDeps, account: string, name: string): Promise<{ domainId: string; key: string }> {
  const now = t.clock.now();
  const accountRow = await t.db.selectFrom('accounts').select('id').where('id', '=', account).executeTakeFirst();
  if (!accountRow) {
    await t.db
      .insertInto('accounts')
      .values({ id: account, name: account, rate_limit: 5, monthly_quota: null, created_at: now })
      .execute();
  }
  const domainId = t.ids.next('dom', now);
  await t.db
    .insertInto('domains')
    .values({
      id: domainId,
      account_id: account,
      name,
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
  const { key } = await issueApiKey(t, domainId);
  return { domainId, key };
}

/** Deterministic pseudo-random order, so the events are not inserted in the order they are returned. */
function shuffled<T>(items: T[], seed: number): T[] {
  const out = [...items];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/**
 * `count` events for a domain over 20 messages, four sharing each millisecond, whole seconds
 * apart, the newest `newestAgo` before now; inserted shuffled. Returns the records in API order.
 */
async function seed(
  t: TestDeps,
  accountId: string,
  domainId: string,
  count: number,
  newestAgo = HOUR,
): Promise<EventRecord[]> {
  const newest = t.clock.now() - newestAgo;
  const oldest = newest - Math.floor((count - 1) / 4) * 1000;
  const messages = Array.from({ length: 20 }, () => t.ids.next('msg', oldest));
  const specs = Array.from({ length: count }, (_, i) => ({
    occurredAt: oldest + Math.floor(i / 4) * 1000,
    event: EVENT_NAMES[i % 5] as EventName, // no suppressing names: the writer's side effects are not under test
    messageId: messages[i % 20] as string,
    recipient: `user${i}@example.net`,
  }));
  const events: NewEvent[] = shuffled(specs, count).map((s) => ({
    id: t.ids.next('evt', s.occurredAt),
    accountId,
    domainId,
    messageId: s.messageId,
    event: s.event,
    recipient: s.recipient,
    from: 'app@example.com',
    subject: `Subject ${s.recipient}`,
    tags: ['welcome', s.event],
    metadata: { n: String(s.occurredAt % 7) },
    details: { mx: 'mx.example.net', n: 1 },
    occurredAt: s.occurredAt,
  }));
  await t.db.transaction().execute((trx) => writeEvents(trx, events));
  return events
    .map((e): EventRecord => ({
      id: e.id,
      event: e.event,
      occurred_at: new Date(e.occurredAt).toISOString(),
      message_id: e.messageId,
      from: e.from,
      to: e.recipient,
      subject: e.subject,
      tags: [...e.tags],
      metadata: { ...e.metadata },
      details: e.details,
    }))
    .sort((a, b) =>
      a.occurred_at !== b.occurred_at ? (a.occurred_at < b.occurred_at ? 1 : -1) : a.id < b.id ? 1 : -1,
    );
}

for (const dialect of testDialects()) {
  describe(`GET /v1/events (${dialect})`, () => {
    let t: TestDeps;
    let app: FastifyInstance;
    let key: string;
    let domainId: string;

    /** What this test opened, closed by afterEach even when setup failed half-way. */
    let opened: (() => Promise<void>)[] = [];

    /** Fresh deps and app; `env` overrides configuration (the read limit, for one test). */
    async function start(env: Record<string, string>): Promise<void> {
      const deps = await createTestDeps(dialect, { env });
      opened.push(() => deps.close());
      t = deps;
      // The whole app: the route relies on its authorization hook (src/http/authorize.ts).
      const server = buildApp(t);
      opened.push(() => server.close());
      app = server;
      await app.ready();
      ({ domainId, key } = await addDomain(t, 'acc_1', 'example.com'));
    }

    /** GET with the key (or the given Authorization header, or none). */
    async function get(
      query: string,
      authorization: string | null = `Bearer ${key}`,
    ): Promise<{ status: number; body: unknown; headers: Record<string, unknown> }> {
      const res = await app.inject({
        method: 'GET',
        url: `/v1/events${query}`,
        headers: authorization === null ? {} : { authorization },
      });
      return { status: res.statusCode, body: res.json(), headers: res.headers };
    }

    /** GET expecting 200. */
    async function page(query: string, authorization?: string): Promise<EventsPage> {
      const res = await get(query, authorization);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body as EventsPage;
    }

    const ids = (p: EventsPage | EventRecord[]) => (Array.isArray(p) ? p : p.events).map((e) => e.id);

    afterEach(async () => {
      for (const close of opened.reverse()) await close();
      opened = [];
    });

    describe('queries', () => {
      // A high read limit: these tests make many requests without moving the clock.
      beforeEach(() => start({ POSTHORN_EVENTS_RATE_LIMIT: '10000' }));

      test('no parameters: the 25 most recent, newest first, with full records', async () => {
        const all = await seed(t, 'acc_1', domainId, 60);
        const p = await page('');
        assert.equal(p.total, 60);
        assert.equal(p.limit, 25);
        assert.equal(p.offset, 0);
        assert.deepEqual(p.events, all.slice(0, 25));
        assert.match(p.events[0]?.occurred_at ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        assert.deepEqual(Object.keys(p.events[0] ?? {}).sort(), [
          'details',
          'event',
          'from',
          'id',
          'message_id',
          'metadata',
          'occurred_at',
          'subject',
          'tags',
          'to',
        ]);
      });

      test('paging by 7 walks every event once, ties on occurred_at broken by id', async () => {
        const all = await seed(t, 'acc_1', domainId, 60);
        const seen: string[] = [];
        let pages = 0;
        for (let offset = 0; ; offset += 7) {
          const p = await page(`?limit=7&offset=${offset}`);
          assert.equal(p.total, 60);
          assert.equal(p.limit, 7);
          assert.equal(p.offset, offset);
          seen.push(...ids(p));
          pages++;
          if (offset + 7 >= p.total) {
            assert.equal(p.events.length, 60 - offset);
            break;
          }
          assert.equal(p.events.length, 7);
        }
        assert.equal(pages, 9);
        assert.equal(new Set(seen).size, 60, 'no duplicates');
        assert.deepEqual(seen, ids(all), 'no gaps, same order as one big page');
        assert.deepEqual(ids(await page('?limit=100')), ids(all));
        // The order really is by id within a millisecond, not insertion order: each group of four shares one.
        assert.equal(all[0]?.occurred_at, all[3]?.occurred_at);
        assert.ok((all[0]?.id ?? '') > (all[1]?.id ?? ''));
      });

      test('an offset past the end is an empty page with the real total', async () => {
        await seed(t, 'acc_1', domainId, 10);
        const p = await page('?offset=10');
        assert.deepEqual(p, { total: 10, limit: 25, offset: 10, events: [] });
      });

      test('event filter: only that type, and total counts the matches', async () => {
        const all = await seed(t, 'acc_1', domainId, 60);
        const delivered = all.filter((e) => e.event === 'delivered');
        assert.equal(delivered.length, 12);
        const p = await page('?event=delivered&limit=5');
        assert.equal(p.total, 12);
        assert.deepEqual(p.events, delivered.slice(0, 5));
        assert.deepEqual(await page('?event=complained'), { total: 0, limit: 25, offset: 0, events: [] });
      });

      test('message_id filter, with or without the msg_ prefix, in any case', async () => {
        const all = await seed(t, 'acc_1', domainId, 60);
        const messageId = all[10]?.message_id ?? '';
        const mine = all.filter((e) => e.message_id === messageId);
        assert.equal(mine.length, 3);
        for (const form of [messageId, messageId.slice(4), messageId.slice(4).toLowerCase()]) {
          const p = await page(`?message_id=${form}`);
          assert.equal(p.total, 3, form);
          assert.deepEqual(p.events, mine);
        }
        const both = await page(`?message_id=${messageId}&event=${mine[0]?.event}`);
        assert.deepEqual(
          both.events,
          mine.filter((e) => e.event === mine[0]?.event),
        );
      });

      test('start and end are inclusive, as Unix seconds or ISO-8601', async () => {
        const all = await seed(t, 'acc_1', domainId, 60);
        // Groups of four events share each whole second; take the 3rd through 6th newest seconds.
        const from = Date.parse(all[23]?.occurred_at ?? '');
        const to = Date.parse(all[8]?.occurred_at ?? '');
        const inside = all.filter((e) => Date.parse(e.occurred_at) >= from && Date.parse(e.occurred_at) <= to);
        assert.equal(inside.length, 16);
        const iso = (ms: number) => new Date(ms).toISOString();
        const offsetForm = (ms: number) => `${new Date(ms + HOUR).toISOString().slice(0, 19)}%2B01:00`;
        for (const [start, end] of [
          [String(from / 1000), String(to / 1000)],
          [iso(from), iso(to)],
          [iso(from).slice(0, 19), iso(to).slice(0, 19)], // no zone: UTC
          [offsetForm(from), offsetForm(to)],
          [String(from / 1000), iso(to)],
        ]) {
          const p = await page(`?start=${start}&end=${end}&limit=100`);
          assert.equal(p.total, 16, `${start}..${end}`);
          assert.deepEqual(p.events, inside);
        }
        // One millisecond inside each bound drops the edge seconds' events.
        const narrower = await page(`?start=${(from + 1) / 1000}&end=${iso(to - 1)}&limit=100`);
        assert.equal(narrower.total, 8);
        // A fraction below the millisecond also excludes the start's millisecond.
        assert.equal((await page(`?start=${from / 1000}.0001&end=${iso(to)}`)).total, 12);
        assert.equal((await page(`?start=${iso(from)}&end=${iso(from)}`)).total, 4, 'start = end: one millisecond');
        assert.equal((await page(`?end=${iso(from)}&limit=1`)).total, 60 - 20, 'the five newer seconds excluded');
      });

      test('date-only start and end mean midnight UTC', async () => {
        const midnight = Date.UTC(2026, 10, 21);
        const base = {
          accountId: 'acc_1',
          domainId,
          messageId: t.ids.next('msg', midnight),
          event: 'delivered' as const,
          recipient: 'a@example.net',
          from: 'app@example.com',
          subject: 's',
          tags: [],
          details: {},
        };
        const times = [midnight - 86_400_000 - 1, midnight - 86_400_000, midnight - 1, midnight, midnight + 1];
        await t.db.transaction().execute((trx) =>
          writeEvents(
            trx,
            times.map((ms) => ({ ...base, id: t.ids.next('evt', ms), occurredAt: ms })),
          ),
        );
        const got = async (q: string) =>
          (await page(q)).events.map((e) => Date.parse(e.occurred_at)).sort((a, b) => a - b);
        assert.deepEqual(await got('?start=2026-11-21'), [midnight, midnight + 1]);
        assert.deepEqual(await got('?end=2026-11-21'), times.slice(0, 4));
        assert.deepEqual(await got('?start=2026-11-20&end=2026-11-21'), [
          midnight - 86_400_000,
          midnight - 1,
          midnight,
        ]);
      });

      test('a start before the retention period returns what exists, not an error', async () => {
        const all = await seed(t, 'acc_1', domainId, 30);
        const longAgo = t.clock.now() - EVENT_RETENTION_MS - 365 * 86_400_000;
        for (const start of ['0', '1970-01-01', new Date(longAgo).toISOString(), String(Math.floor(longAgo / 1000))]) {
          const p = await page(`?start=${start}&limit=100`);
          assert.equal(p.total, 30, start);
          assert.deepEqual(ids(p), ids(all));
        }
      });

      test("only the key's domain: events of another domain, same account or not, never appear", async () => {
        const mine = await seed(t, 'acc_1', domainId, 12);
        const sibling = await addDomain(t, 'acc_1', 'other.example.com');
        const stranger = await addDomain(t, 'acc_2', 'example.org');
        const siblingEvents = await seed(t, 'acc_1', sibling.domainId, 9, HOUR / 2);
        await seed(t, 'acc_2', stranger.domainId, 7, HOUR / 3);
        const p = await page('?limit=100');
        assert.equal(p.total, 12);
        assert.deepEqual(ids(p), ids(mine));
        // A message id from another domain finds nothing rather than leaking its events.
        const theirs = siblingEvents[0]?.message_id ?? '';
        assert.equal((await page(`?message_id=${theirs}`)).total, 0);
        assert.equal(
          (await page(`?message_id=${theirs}`, `Bearer ${sibling.key}`)).total,
          siblingEvents.filter((e) => e.message_id === theirs).length,
        );
        assert.equal((await page('', `Bearer ${stranger.key}`)).total, 7);
      });

      test('a bad parameter is 400 naming it, after authentication', async () => {
        for (const [query, field] of [
          ['?limit=0', 'limit'],
          ['?limit=101', 'limit'],
          ['?offset=-1', 'offset'],
          ['?event=bounced', 'event'],
          ['?message_id=nope', 'message_id'],
          ['?start=yesterday', 'start'],
          ['?end=2026-02-30', 'end'],
          ['?start=2026-11-21&end=2026-11-20', 'end'],
          ['?page=2', 'page'],
          ['?limit=5&limit=6', 'limit'],
        ]) {
          const res = await get(query ?? '');
          assert.equal(res.status, 400, query);
          const error = (res.body as { error: { type: string; field: string; docs: string } }).error;
          assert.equal(error.type, 'invalid_request');
          assert.equal(error.field, field, query);
          assert.equal(error.docs, '/docs/errors#invalid_request');
        }
        // The key is checked first: a bad key with a bad query is still 401 (docs/api.md,
        // Authentication).
        assert.equal((await get('?limit=0', 'Bearer nope')).status, 401);
      });

      test('401 for a missing, malformed, unknown or revoked key, with one identical body', async () => {
        await seed(t, 'acc_1', domainId, 3);
        const unknown = formatApiKey(Buffer.alloc(4, 1), Buffer.alloc(32, 2)).key;
        const old = key;
        const { key: fresh } = await issueApiKey(t, domainId); // replacing revokes the old key at once
        const expected = errorBody(UNAUTHORIZED);
        for (const authorization of [
          null,
          '',
          'Bearer',
          'Bearer ',
          `Basic ${fresh}`,
          `Bearer ${fresh}x`,
          'Bearer ph_123',
          `Bearer ${unknown}`,
          `Bearer ${old}`,
          fresh,
        ]) {
          const res = await get('', authorization);
          assert.equal(res.status, 401, String(authorization));
          assert.deepEqual(res.body, expected);
        }
        assert.equal((await page('', `Bearer ${fresh}`)).total, 3);
      });
    });

    describe('read rate limit', () => {
      beforeEach(() => start({}));

      test('429 with Retry-After past the per-key limit, 200 again once the clock moves on', async () => {
        const limit = t.config.eventsRateLimit;
        assert.equal(limit, 10, 'the default read limit');
        for (let i = 0; i < limit; i++) assert.equal((await get('')).status, 200, `request ${i + 1}`);
        const refused = await get('');
        assert.equal(refused.status, 429);
        assert.equal((refused.body as { error: { type: string } }).error.type, 'rate_limited');
        const retryAfter = Number(refused.headers['retry-after']);
        assert.ok(
          Number.isInteger(retryAfter) && retryAfter >= 1,
          `Retry-After ${String(refused.headers['retry-after'])}`,
        );
        // Malformed queries count too, and get 429 rather than 400 while limited.
        assert.equal((await get('?limit=0')).status, 429);
        // The limit is per key: another domain's key is unaffected.
        const other = await addDomain(t, 'acc_1', 'other.example.com');
        assert.equal((await get('', `Bearer ${other.key}`)).status, 200);
        t.clock.advance(retryAfter * 1000);
        assert.equal((await get('')).status, 200);
      });
    });
  });
}
