// GET /v1/messages, /v1/messages/{id}, /v1/messages/{id}/content and GET /v1/events with an
// account token (docs/api.md, Messages), over real HTTPS, every response checked against the
// OpenAPI document by the typed client; delivery through the real engine to a scripted sink MX.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { testDialects } from '../helpers/test-db.js';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { createDeliveryHarness, MX_DOMAIN, type DeliveryHarness } from '../helpers/delivery-harness.js';
import { addSuppression } from '../../src/suppression/manage-suppressions.js';
import { CLI_ACTOR } from '../../src/core/actor.js';
import { purgeRetention } from '../../src/events/purge-retention.js';

const DAY = 86_400_000;

type Client = ReturnType<ApiHarness['client']>;

/** POST /v1/send with `key` (raw: the send route has no response schema in this document yet). */
async function send(
  api: ApiHarness,
  key: string,
  body: Record<string, unknown>,
): Promise<{ status: number; id: string }> {
  const res = await api.fetch('/v1/send', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { id?: string };
  return { status: res.status, id: json.id ?? '' };
}

function mail(domain: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { from: `Acme <hello@${domain}>`, to: 'ana@example.org', subject: 'Hello', html: '<p>Hi</p>', ...over };
}

/** GET /v1/messages/{id}, expecting `status`. */
async function show(client: Client, id: string, status = 200) {
  const res = await client.GET('/v1/messages/{id}', { params: { path: { id } } });
  assert.equal(res.response.status, status, JSON.stringify(res.error ?? res.data));
  return res;
}

async function list(client: Client, query: Record<string, string | number> = {}) {
  return client.GET('/v1/messages', { params: { query } });
}

for (const dialect of testDialects()) {
  describe(`messages API (${dialect})`, () => {
    let api: ApiHarness;
    let acme: Seeded;
    let second: Seeded;
    let other: Seeded;
    let solo: Seeded;
    let token: string;
    let viewer: string;
    let otherToken: string;

    before(async () => {
      api = await startApiHarness(dialect, { env: { POSTHORN_EVENTS_RATE_LIMIT: '100000' } });
      acme = await seedDomain(api.deps, { account: 'acme', domain: 'acme.test', rateLimit: 100_000 });
      second = await seedDomain(api.deps, { account: 'acme', domain: 'second.test' });
      other = await seedDomain(api.deps, { account: 'other', domain: 'other.test', rateLimit: 100_000 });
      solo = await seedDomain(api.deps, { account: 'solo', domain: 'solo.test', rateLimit: 100_000 });
      token = await api.token('acme');
      viewer = await api.token('acme', 'viewer');
      otherToken = await api.token('other');
    });
    after(() => api.close());

    test('one message: recipients, their status and newest event, the events; with or without msg_, any case', async () => {
      const sent = await send(
        api,
        acme.key,
        mail('acme.test', { to: ['ana@example.org', 'Bob@example.org'], tags: ['welcome'] }),
      );
      assert.equal(sent.status, 202);
      const { data } = await show(api.client(acme.key), sent.id);
      const m = data!;
      assert.equal(m.id, sent.id);
      assert.equal(m.domain, 'acme.test');
      assert.equal(m.from, 'hello@acme.test');
      assert.equal(m.subject, 'Hello');
      assert.deepEqual(m.tags, ['welcome']);
      assert.deepEqual(m.metadata, {});
      assert.equal(m.template, null);
      assert.equal(m.created_at, new Date(api.deps.clock.now()).toISOString());
      assert.deepEqual(
        m.recipients.map((r) => [r.address, r.status, r.last_event?.event, r.last_reply, r.next_attempt_at]),
        [
          ['ana@example.org', 'queued', 'accepted-by-system', null, m.created_at],
          ['Bob@example.org', 'queued', 'accepted-by-system', null, m.created_at],
        ],
      );
      assert.equal(m.recipients[1]!.last_event!.to, 'Bob@example.org');
      assert.deepEqual(
        m.events.map((e) => [e.event, e.to]),
        [
          ['accepted-by-system', 'ana@example.org'],
          ['accepted-by-system', 'Bob@example.org'],
        ],
      );
      assert.equal(m.events_truncated, false);
      for (const form of [sent.id.slice(4), sent.id.toLowerCase(), sent.id.slice(4).toLowerCase()]) {
        assert.deepEqual((await show(api.client(acme.key), form)).data, m, form);
      }
      // An account token (admin or viewer: reading is allowed to both) sees it as the key does.
      assert.deepEqual((await show(api.client(token), sent.id)).data, m);
      assert.deepEqual((await show(api.client(viewer), sent.id)).data, m);
    });

    test('another domain or account: 404 naming id; a malformed id: 400 naming id', async () => {
      const mine = await send(api, acme.key, mail('acme.test'));
      const theirs = await send(api, other.key, mail('other.test'));
      for (const [client, id] of [
        [api.client(second.key), mine.id], // same account, another domain's key
        [api.client(otherToken), mine.id], // another account's token
        [api.client(acme.key), theirs.id],
        [api.client(token), theirs.id],
        [api.client(token), 'msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H'], // no such message
      ] as const) {
        const { error } = await show(client, id, 404);
        assert.equal(error!.error.type, 'not_found');
        assert.equal(error!.error.field, 'id');
      }
      const bad = await show(api.client(token), 'not-an-id', 400);
      assert.equal(bad.error!.error.field, 'id');
      assert.match(bad.error!.error.message, /msg_ and 26 characters/);
      // A token sees every domain of its account.
      const fromSecond = await send(api, second.key, mail('second.test'));
      assert.equal((await show(api.client(token), fromSecond.id)).data!.domain, 'second.test');
    });

    test('no credential, or a bad one, is 401 on every message route', async () => {
      const sent = await send(api, acme.key, mail('acme.test'));
      for (const client of [api.client(), api.client('ph_nope')]) {
        assert.equal((await show(client, sent.id, 401)).error!.error.type, 'invalid_key');
        assert.equal((await list(client)).response.status, 401);
        const content = await client.GET('/v1/messages/{id}/content', {
          params: { path: { id: sent.id } },
          parseAs: 'text',
        });
        assert.equal(content.response.status, 401);
      }
    });

    test('a suppressed recipient: the refused send is shown from its events, status suppressed, and listed', async () => {
      await addSuppression(api.deps, acme.accountId, { address: 'gone@example.org', reason: 'hard_bounce' }, CLI_ACTOR);
      const refused = await send(
        api,
        acme.key,
        mail('acme.test', { to: ['gone@example.org'], tags: ['t-suppressed'] }),
      );
      assert.equal(refused.status, 422);
      const events = await api.client(acme.key).GET('/v1/events', {
        params: { query: { event: 'rejected-by-system', limit: 1 } },
      });
      const id = events.data!.events[0]!.message_id;
      const { data } = await show(api.client(token), id);
      assert.deepEqual(
        data!.recipients.map((r) => [r.address, r.status, r.last_event?.event, r.last_event?.details.reason]),
        [['gone@example.org', 'suppressed', 'rejected-by-system', 'suppressed']],
      );
      assert.deepEqual(data!.tags, ['t-suppressed']);
      const listed = await list(api.client(acme.key), { status: 'suppressed' });
      assert.deepEqual(
        listed.data!.messages.map((m) => m.id),
        [id],
      );
      assert.deepEqual(
        (await list(api.client(acme.key), { tag: 't-suppressed' })).data!.messages.map((m) => m.id),
        [id],
      );
      assert.equal(
        (await list(api.client(acme.key), { status: 'rejected', tag: 't-suppressed' })).data!.messages.length,
        0,
      );
      // It has no source.
      const content = await api.client(acme.key).GET('/v1/messages/{id}/content', {
        params: { path: { id } },
        parseAs: 'text',
      });
      assert.equal(content.response.status, 404);
      assert.match(content.error!.error.message, /refused before queueing/);
    });

    test('the list: newest first, filters, and a cursor that neither repeats nor skips while messages arrive', async () => {
      const client = api.client(solo.key);
      const ids: string[] = [];
      const t0 = api.deps.clock.now();
      for (let i = 0; i < 7; i++) {
        api.deps.clock.advance(1000);
        const to = i % 2 === 0 ? ['even@example.org', `n${i}@example.net`] : [`n${i}@example.net`];
        const sent = await send(api, solo.key, mail('solo.test', { to, tags: i < 3 ? ['early', 'x'] : ['late'] }));
        assert.equal(sent.status, 202);
        ids.push(sent.id);
      }
      const newestFirst = [...ids].reverse();
      const all = await list(client, { limit: 100 });
      assert.deepEqual(
        all.data!.messages.map((m) => m.id),
        newestFirst,
      );
      assert.equal(all.data!.next_cursor, null);
      assert.deepEqual(Object.keys(all.data!.messages[0]!).sort(), [
        'created_at',
        'domain',
        'from',
        'id',
        'metadata',
        'recipients',
        'subject',
        'tags',
        'template',
      ]);

      // Walk by 2, sending a new message between pages: the walk is exactly the set at its start.
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 10; page++) {
        const res = await list(client, { limit: 2, ...(cursor ? { cursor } : {}) });
        assert.equal(res.response.status, 200);
        if (page === 0) seen.push(...res.data!.messages.map((m) => m.id));
        else seen.push(...res.data!.messages.map((m) => m.id));
        api.deps.clock.advance(10);
        assert.equal((await send(api, solo.key, mail('solo.test', { to: 'late@example.org' }))).status, 202);
        if (res.data!.next_cursor === null) break;
        cursor = res.data!.next_cursor;
      }
      assert.deepEqual(seen, newestFirst);

      // to: case-insensitive; tag: exact; status; start/end inclusive, as Unix seconds or ISO 8601.
      const ofEven = ids.filter((_id, i) => i % 2 === 0).reverse();
      assert.deepEqual(
        (await list(client, { to: 'EVEN@example.org' })).data!.messages.map((m) => m.id),
        ofEven,
      );
      assert.deepEqual(
        (await list(client, { tag: 'early' })).data!.messages.map((m) => m.id),
        ids.slice(0, 3).reverse(),
      );
      assert.deepEqual((await list(client, { tag: 'earl' })).data!.messages, []);
      const from = new Date(t0 + 2000).toISOString();
      const to = String((t0 + 4000) / 1000);
      assert.deepEqual(
        (await list(client, { start: from, end: to })).data!.messages.map((m) => m.id),
        ids.slice(1, 4).reverse(),
      );
      // Status: a message matches when one of its recipients has it (a complaint still reads as delivered).
      const rcpt = async (id: string, status: string) =>
        api.deps.db.updateTable('recipients').set({ status }).where('message_id', '=', id).execute();
      await rcpt(ids[1]!, 'complained');
      await rcpt(ids[2]!, 'deferred');
      await rcpt(ids[3]!, 'failed');
      const byStatus = async (status: string) =>
        (await list(client, { status, limit: 100 })).data!.messages.map((m) => m.id);
      assert.deepEqual(await byStatus('delivered'), [ids[1]]);
      assert.deepEqual(await byStatus('deferred'), [ids[2]]);
      assert.deepEqual(await byStatus('failed'), [ids[3]]);
      assert.ok((await byStatus('queued')).includes(ids[0]!));
      assert.ok(!(await byStatus('queued')).includes(ids[1]!));
      assert.deepEqual(
        (await show(client, ids[1]!)).data!.recipients.map((r) => r.status),
        ['delivered'],
      );
    });

    test('list: every bad parameter is 400 naming it', async () => {
      const client = api.client(acme.key);
      for (const [query, field] of [
        [{ limit: 0 }, 'limit'],
        [{ limit: 101 }, 'limit'],
        [{ status: 'bounced' }, 'status'],
        [{ cursor: 'not-a-cursor' }, 'cursor'],
        [{ start: 'yesterday' }, 'start'],
        [{ end: '2026-02-30' }, 'end'],
        [{ start: '2026-11-21', end: '2026-11-20' }, 'end'],
        [{ page: '2' }, 'page'],
        [{ tag: '' }, 'tag'],
      ] as const) {
        const res = await list(client, query as Record<string, string | number>);
        assert.equal(res.response.status, 400, JSON.stringify(query));
        assert.equal(res.error!.error.type, 'invalid_request');
        assert.equal(res.error!.error.field, field, JSON.stringify(query));
      }
    });

    test('domain=: required of a token whose account has several domains, 404 for another account’s; a key reads its own', async () => {
      const sent = await send(api, second.key, mail('second.test', { tags: ['domain-test'] }));
      const tokenClient = api.client(token);
      for (const path of ['/v1/messages', '/v1/events'] as const) {
        const missing = await tokenClient.GET(path, { params: { query: {} } });
        assert.equal(missing.response.status, 400, path);
        assert.equal(missing.error!.error.field, 'domain');
        assert.match(missing.error!.error.message, /acme\.test, second\.test/);
        for (const name of ['other.test', 'nowhere.test']) {
          const res = await tokenClient.GET(path, { params: { query: { domain: name } } });
          assert.equal(res.response.status, 404, `${path} ${name}`);
          assert.equal(res.error!.error.field, 'domain');
        }
        // A key may name its own domain, and no other.
        assert.equal(
          (await api.client(acme.key).GET(path, { params: { query: { domain: 'acme.test' } } })).response.status,
          200,
        );
        const foreign = await api.client(acme.key).GET(path, { params: { query: { domain: 'second.test' } } });
        assert.equal(foreign.response.status, 404);
        assert.equal(foreign.error!.error.field, 'domain');
      }
      const listed = await tokenClient.GET('/v1/messages', {
        params: { query: { domain: 'second.test', tag: 'domain-test' } },
      });
      assert.deepEqual(
        listed.data!.messages.map((m) => m.id),
        [sent.id],
      );
      const events = await tokenClient.GET('/v1/events', {
        params: { query: { domain: 'Second.Test', message_id: sent.id } },
      });
      assert.deepEqual(
        events.data!.events.map((e) => e.event),
        ['accepted-by-system'],
      );
      assert.equal(events.data!.total, 1);
      // An account with one domain needs no domain=.
      const soloToken = await api.token('solo');
      assert.equal((await api.client(soloToken).GET('/v1/messages', { params: { query: {} } })).response.status, 200);
      assert.equal((await api.client(soloToken).GET('/v1/events', { params: { query: {} } })).response.status, 200);
      // A viewer reads too.
      assert.equal(
        (await api.client(viewer).GET('/v1/events', { params: { query: { domain: 'acme.test' } } })).response.status,
        200,
      );
    });

    test('GET /v1/events with a key keeps its contract: hand-checked parameters named in each 400', async () => {
      const client = api.client(acme.key);
      for (const [query, field] of [
        [{ limit: 0 }, 'limit'],
        [{ event: 'bounced' }, 'event'],
        [{ message_id: 'nope' }, 'message_id'],
        [{ start: 'yesterday' }, 'start'],
      ] as const) {
        const res = await client.GET('/v1/events', { params: { query: query as never } });
        assert.equal(res.response.status, 400);
        assert.equal(res.error!.error.field, field);
      }
      const unknown = await api.fetch('/v1/events?page=2', { headers: { authorization: `Bearer ${acme.key}` } });
      assert.equal(unknown.status, 400);
      assert.match(
        ((await unknown.json()) as { error: { message: string } }).error.message,
        /unknown query parameter "page"/,
      );
    });

    test('content: 404 until the message is signed, naming why', async () => {
      const sent = await send(api, acme.key, mail('acme.test'));
      const res = await api.client(acme.key).GET('/v1/messages/{id}/content', {
        params: { path: { id: sent.id } },
        parseAs: 'text',
      });
      assert.equal(res.response.status, 404);
      assert.equal(res.error!.error.field, 'id');
      assert.match(res.error!.error.message, /has not been signed yet/);
      const nobody = await api.client(acme.key).GET('/v1/messages/{id}/content', {
        params: { path: { id: sent.id }, query: { recipient: 'stranger@example.org' } },
        parseAs: 'text',
      });
      assert.equal(nobody.response.status, 404);
      assert.equal(nobody.error!.error.field, 'recipient');
    });
  });

  describe(`messages API read limit (${dialect})`, () => {
    let api: ApiHarness;
    before(async () => {
      api = await startApiHarness(dialect);
    });
    after(() => api.close());

    test('429 with Retry-After past POSTHORN_EVENTS_RATE_LIMIT reads per second, per credential', async () => {
      const seeded = await seedDomain(api.deps, { account: 'acme', domain: 'acme.test' });
      const limit = api.deps.config.eventsRateLimit;
      const client = api.client(seeded.key);
      for (let i = 0; i < limit; i++) assert.equal((await list(client)).response.status, 200, `read ${i + 1}`);
      const refused = await list(client);
      assert.equal(refused.response.status, 429);
      assert.equal(refused.error!.error.type, 'rate_limited');
      assert.ok(Number(refused.response.headers.get('retry-after')) >= 1);
      // Another credential has its own allowance, and events are counted apart.
      assert.equal((await list(api.client(await api.token('acme')))).response.status, 200);
      assert.equal((await client.GET('/v1/events', { params: { query: {} } })).response.status, 200);
    });
  });

  describe(`message status through real delivery (${dialect})`, () => {
    let h: DeliveryHarness;
    let api: ApiHarness;
    before(async () => {
      h = await createDeliveryHarness(dialect, {
        env: { POSTHORN_RETRY_SCHEDULE: '1s', POSTHORN_MAX_QUEUE_LIFETIME: '1h', POSTHORN_EVENTS_RATE_LIMIT: '100000' },
      });
      api = await startApiHarness(dialect, { deps: h.deps });
    });
    after(async () => {
      await api.close();
      await h.close();
    });

    const content = async (id: string, recipient?: string) => {
      const res = await api.client(h.sender.key).GET('/v1/messages/{id}/content', {
        params: { path: { id }, ...(recipient ? { query: { recipient } } : {}) },
        parseAs: 'arrayBuffer',
      });
      return {
        status: res.response.status,
        type: res.response.headers.get('content-type'),
        body: res.data,
        error: res.error,
      };
    };

    test('a defer-once sink: deferred with the 451 reply, then delivered; the source is what the sink received', async () => {
      const deferOnce = `defer-1-a@${MX_DOMAIN}`;
      const fine = `ok-a@${MX_DOMAIN}`;
      const sent = await h.send({
        from: `Acme <hello@${h.sender.domain}>`,
        to: [deferOnce, fine],
        subject: 'Status',
        html: '<p>Status</p>',
      });
      assert.equal(sent.status, 202);
      const id = sent.body.id;
      await h.run();
      const client = api.client(h.sender.key);

      const first = (await show(client, id)).data!;
      const [d, f] = first.recipients;
      assert.equal(d!.address, deferOnce);
      assert.equal(d!.status, 'deferred');
      assert.equal(d!.last_reply, '451 4.3.0 Temporary failure, try again later');
      assert.equal(d!.last_event!.event, 'accepted-by-mta');
      assert.equal(d!.next_attempt_at, new Date(h.deps.clock.now() + 1000).toISOString());
      assert.equal(f!.status, 'delivered');
      assert.equal(f!.last_event!.event, 'delivered');
      assert.match(String(f!.last_event!.details.response), /^250 /);
      assert.equal(f!.last_reply, null);
      assert.equal(f!.next_attempt_at, null);

      await h.advance(1000);
      const second = (await show(client, id)).data!;
      assert.deepEqual(
        second.recipients.map((r) => [r.address, r.status, r.last_event?.event, r.last_reply, r.next_attempt_at]),
        [
          [deferOnce, 'delivered', 'delivered', null, null],
          [fine, 'delivered', 'delivered', null, null],
        ],
      );
      // Oldest first; whether the two recipients shared a transaction is the worker's choice.
      const timeline = (address: string) => second.events.filter((e) => e.to === address).map((e) => e.event);
      assert.deepEqual(timeline(deferOnce), ['accepted-by-system', 'accepted-by-mta', 'delivered']);
      assert.deepEqual(timeline(fine), ['accepted-by-system', 'accepted-by-mta', 'delivered']);
      const times = second.events.map((e) => e.occurred_at);
      assert.deepEqual(times, [...times].sort());
      // The same answer from the list and from posthorn's own lookup by an account token.
      const listed = await client.GET('/v1/messages', { params: { query: { to: deferOnce } } });
      const { events: _events, events_truncated: _truncated, ...summary } = second;
      assert.deepEqual(listed.data!.messages, [summary]);

      // Each recipient's copy is the sink's, byte for byte, with a DKIM signature that verifies.
      const [atFine] = h.received(fine);
      const [atDeferred] = h.received(deferOnce);
      assert.ok(atFine && atDeferred);
      for (const [recipient, received] of [
        [fine, atFine],
        [deferOnce, atDeferred],
      ] as const) {
        const got = await content(id, recipient);
        assert.equal(got.status, 200);
        assert.equal(got.type, 'message/rfc822');
        assert.ok(Buffer.from(got.body!).equals(received.raw), recipient);
        const verdicts = await h.verifyDkim(Buffer.from(got.body!));
        assert.deepEqual(
          verdicts.map((v) => v.result),
          ['pass'],
        );
      }
      // Signed twice (one attempt each): the default is the copy signed last.
      assert.ok(Buffer.from((await content(id)).body!).equals(atDeferred.raw));
      assert.ok(!atFine.raw.equals(atDeferred.raw), 'the two signings differ (t= and b=)');
    });

    test('two recipients deferred in one attempt each keep their own reply', async () => {
      const once = `defer-1-b@${MX_DOMAIN}`;
      const always = `defer-always@${MX_DOMAIN}`;
      const sent = await h.send({
        from: `Acme <hello@${h.sender.domain}>`,
        to: [once, always],
        subject: 'Two',
        text: 'x',
      });
      await h.run();
      const replies = async () =>
        (await show(api.client(h.sender.key), sent.body.id)).data!.recipients.map((r) => [
          r.address,
          r.status,
          r.last_reply,
        ]);
      assert.deepEqual(await replies(), [
        [once, 'deferred', '451 4.3.0 Temporary failure, try again later'],
        [always, 'deferred', '451 4.2.0 Mailbox temporarily unavailable'],
      ]);
      await h.advance(1000);
      assert.deepEqual(await replies(), [
        [once, 'delivered', null],
        [always, 'deferred', '451 4.2.0 Mailbox temporarily unavailable'],
      ]);
      // Not retried for the rest of this file's tests.
      await h.deps.db.deleteFrom('jobs').where('message_id', '=', sent.body.id).execute();
    });

    test('per-recipient tracking: each recipient’s copy; a large message through the offload path', async () => {
      const to = [`ok-t1@${MX_DOMAIN}`, `ok-t2@${MX_DOMAIN}`];
      const sent = await h.send({
        from: `Acme <hello@${h.sender.domain}>`,
        to,
        subject: 'Tracked',
        html: `<p><a href="https://example.com/a">a</a></p>`,
        track_opens: true,
        track_clicks: true,
      });
      const large = await h.send({
        from: `Acme <hello@${h.sender.domain}>`,
        to: `ok-large@${MX_DOMAIN}`,
        subject: 'Large',
        html: `<p>${'large message body '.repeat(6000)}</p>`,
      });
      assert.equal(sent.status, 202);
      assert.equal(large.status, 202);
      await h.run();
      const copies = await Promise.all(to.map((r) => content(sent.body.id, r)));
      for (const [i, r] of to.entries()) {
        const received = h.received(r)[0]!;
        assert.ok(Buffer.from(copies[i]!.body!).equals(received.raw), r);
        assert.match(received.raw.toString('latin1'), /\/t\/o\//, 'tracked');
      }
      assert.ok(!Buffer.from(copies[0]!.body!).equals(Buffer.from(copies[1]!.body!)));
      const big = await content(large.body.id);
      assert.ok(big.body!.byteLength > 100_000);
      assert.ok(Buffer.from(big.body!).equals(h.received(`ok-large@${MX_DOMAIN}`)[0]!.raw));
    });

    test('a body that no longer renders to the signed bytes is refused, not passed off as the source', async () => {
      const sent = await h.send({
        from: `Acme <hello@${h.sender.domain}>`,
        to: `ok-changed@${MX_DOMAIN}`,
        subject: 'Changed',
        text: 'original',
      });
      await h.run();
      assert.equal((await content(sent.body.id)).status, 200);
      const row = await h.deps.db
        .selectFrom('messages')
        .select('content')
        .where('id', '=', sent.body.id)
        .executeTakeFirstOrThrow();
      await h.deps.db
        .updateTable('messages')
        .set({ content: row.content!.replace('original', 'altered!') })
        .where('id', '=', sent.body.id)
        .execute();
      const got = await content(sent.body.id);
      assert.equal(got.status, 404);
      assert.match(got.error!.error.message, /cannot be rebuilt/);
    });

    test('after body retention the source is 404, saying how long bodies are kept; the status stays', async () => {
      const sent = await h.send({
        from: `Acme <hello@${h.sender.domain}>`,
        to: `ok-old@${MX_DOMAIN}`,
        subject: 'Old',
        text: 'old',
      });
      await h.run();
      const before = await content(sent.body.id);
      assert.equal(before.status, 200);
      assert.equal(
        createHash('sha256').update(Buffer.from(before.body!)).digest('hex'),
        createHash('sha256')
          .update(h.received(`ok-old@${MX_DOMAIN}`)[0]!.raw)
          .digest('hex'),
      );
      h.deps.clock.advance(31 * DAY);
      const purged = await purgeRetention(h.deps);
      assert.ok(purged.bodies >= 1 && purged.signatures >= 1, JSON.stringify(purged));
      const after = await content(sent.body.id);
      assert.equal(after.status, 404);
      assert.equal(after.error!.error.field, 'id');
      assert.match(after.error!.error.message, /bodies are kept for 30 days \(POSTHORN_BODY_RETENTION\)/);
      const shown = (await show(api.client(h.sender.key), sent.body.id)).data!;
      assert.equal(shown.recipients[0]!.status, 'delivered');
    });
  });
}
