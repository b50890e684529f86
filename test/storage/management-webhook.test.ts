// The domain's webhook over HTTP (docs/webhooks.md, Management over HTTP), on both databases,
// through the typed client (every answer checked against docs/openapi.json): set, show, rotate,
// test, replay and remove; each 4xx with its field; another account's domain; a sending key; a
// viewer's writes; the audit entry of each change. The test POST and replayed events are received by
// a real loopback receiver and verified with the standardwebhooks package.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { writeEvents, type NewEvent } from '../../src/events/write-events.js';
import { toEventRow } from '../../src/events/event-record.js';
import { insertChunked } from '../../src/storage/insert-chunked.js';
import { PARKED_AT } from '../../src/webhooks/disable-endpoint.js';
import { MAX_REPLAY_EVENTS } from '../../src/webhooks/replay-webhook.js';
import { startWebhookDispatcher, type WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.js';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { testDialects } from '../helpers/test-db.js';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const HOUR = 3_600_000;
const HOOK = 'https://hooks.example.com/posthorn';

const at = (domain: string) => ({ params: { path: { domain } } });
const headersOf = (r: ReceivedWebhook) => ({
  'webhook-id': r.id,
  'webhook-timestamp': r.timestamp,
  'webhook-signature': r.signature,
});

/** Polls `check` until it holds, failing after `timeoutMs` with `what`. */
async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

for (const dialect of testDialects()) {
  describe(`management API: webhook (${dialect})`, () => {
    // `api` runs with production settings (https only, public addresses only); `dev` with
    // POSTHORN_WEBHOOK_ALLOW_PRIVATE=1, as the existing webhook tests do, so that a loopback
    // receiver can be reached.
    let api: ApiHarness;
    let dev: ApiHarness;
    let admin: string;
    let viewer: string;
    let acme: Seeded;
    let cleanup: (() => Promise<void>)[] = [];

    before(async () => {
      api = await startApiHarness(dialect);
      dev = await startApiHarness(dialect, { env: { POSTHORN_WEBHOOK_ALLOW_PRIVATE: '1' } });
      acme = await seedDomain(api.deps, { account: 'acme', domain: 'acme.test' });
      await seedDomain(api.deps, { account: 'other', domain: 'other.test' });
      admin = await api.token('acme', 'admin', 'deploy-bot');
      viewer = await api.token('acme', 'viewer', 'watcher');
    });
    after(async () => {
      await api.close();
      await dev.close();
    });
    afterEach(async () => {
      for (const c of cleanup.reverse()) await c();
      cleanup = [];
    });

    async function receiver(): Promise<WebhookReceiver> {
      const r = await startWebhookReceiver();
      cleanup.push(() => r.close());
      return r;
    }

    function dispatcher(h: ApiHarness): WebhookDispatcher {
      const d = startWebhookDispatcher(h.deps, { claimBatch: 100, idlePollMs: 10 });
      cleanup.push(() => d.stop(2_000));
      return d;
    }

    async function audit(h: ApiHarness, token: string, action: string) {
      const { data } = await h.client(token).GET('/v1/audit', { params: { query: { limit: 1000 } } });
      return data!.entries.filter((e) => e.action === action);
    }

    function event(d: Seeded, n: number, occurredAt: number, name: NewEvent['event'] = 'delivered'): NewEvent {
      return {
        id: dev.deps.ids.next('evt', occurredAt),
        accountId: d.accountId,
        domainId: d.domainId,
        messageId: dev.deps.ids.next('msg', occurredAt),
        event: name,
        recipient: `r${n}@example.org`,
        from: `Shop <orders@${d.domain}>`,
        subject: `Order ${n} — ü`,
        tags: ['receipt', `n${n}`],
        details: { response: '250 2.0.0 OK' },
        occurredAt,
      };
    }

    test('PUT creates the webhook (201, the secret once), a second PUT changes the URL (200, no secret); GET never shows a secret', async () => {
      const client = api.client(admin);
      const created = await client.PUT('/v1/domains/{domain}/webhook', { ...at('acme.test'), body: { url: HOOK } });
      assert.equal(created.response.status, 201);
      assert.equal(created.data!.url, HOOK);
      const secret = (created.data as { secret: string }).secret;
      assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);

      const changed = await client.PUT('/v1/domains/{domain}/webhook', {
        ...at('acme.test'),
        body: { url: 'https://hooks.example.com/v2' },
      });
      assert.equal(changed.response.status, 200);
      assert.deepEqual(changed.data, { url: 'https://hooks.example.com/v2', reenabled: false });

      for (const token of [admin, viewer]) {
        const shown = await api.client(token).GET('/v1/domains/{domain}/webhook', at('acme.test'));
        assert.equal(shown.response.status, 200);
        assert.equal(shown.data!.url, 'https://hooks.example.com/v2');
        assert.equal(shown.data!.status, 'active');
        assert.equal(shown.data!.secrets.length, 1);
        assert.equal(shown.data!.secrets[0]!.expires_at, null);
        assert.equal(shown.data!.secrets[0]!.created_at, new Date(api.deps.clock.now()).toISOString());
        assert.deepEqual(shown.data!.attempts, []);
        assert.equal(shown.data!.pending, 0);
        const text = JSON.stringify(shown.data);
        assert.ok(!text.includes(secret) && !text.includes('whsec_'), 'no secret in GET');
      }

      const sets = await audit(api, admin, 'webhook.set');
      assert.equal(sets.length, 2);
      for (const e of sets) {
        assert.equal(e.actor, 'token:deploy-bot');
        assert.equal(e.target, 'acme.test');
        assert.equal(e.ip, '127.0.0.1');
      }
      const all = await api.client(admin).GET('/v1/audit', { params: { query: { limit: 1000 } } });
      assert.ok(!JSON.stringify(all.data).includes(secret), 'no secret in the audit log');
    });

    test('a bad URL is 400 naming url, and nothing is stored', async () => {
      await seedDomain(api.deps, { account: 'acme', domain: 'bad-url.test' });
      const client = api.client(admin);
      const cases: [string, RegExp][] = [
        ['http://hooks.example.com/in', /must use https/],
        ['ftp://hooks.example.com/in', /must use https, not ftp/],
        ['not a url', /is not an absolute URL/],
        ['https://127.0.0.1/in', /127\.0\.0\.1 is not a public address/],
        ['https://10.0.0.1/in', /10\.0\.0\.1 is not a public address/],
        ['https://169.254.169.254/latest', /169\.254\.169\.254 is not a public address/],
        ['https://[::1]/in', /::1 is not a public address/],
        ['https://[::ffff:127.0.0.1]/in', /is not a public address/],
        ['https://2130706433/in', /127\.0\.0\.1 is not a public address/],
        ['https://localhost/in', /host localhost is loopback/],
        ['https://localhost./', /host localhost\. is loopback/],
        ['https://api.localhost/in', /is loopback/],
        ['https://hooks.example.com/in#frag', /#fragment/],
        [`https://hooks.example.com/${'a'.repeat(2100)}`, /2048/],
      ];
      for (const [url, why] of cases) {
        const { error, response } = await client.PUT('/v1/domains/{domain}/webhook', {
          ...at('bad-url.test'),
          body: { url },
        });
        assert.equal(response.status, 400, url);
        assert.equal(error!.error.type, 'invalid_request', url);
        assert.equal(error!.error.field, 'url', url);
        assert.match(error!.error.message, why, url);
      }
      for (const [body, field] of [
        ['{}', 'url'],
        ['{"url":42}', 'url'],
        [`{"url":"${HOOK}","secret":"x"}`, 'secret'],
        ['{"url":', 'body'],
      ] as const) {
        const res = await api.fetch('/v1/domains/bad-url.test/webhook', {
          method: 'PUT',
          headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
          body,
        });
        assert.equal(res.status, 400, body);
        assert.equal(((await res.json()) as { error: { field: string } }).error.field, field, body);
      }
      const none = await client.GET('/v1/domains/{domain}/webhook', at('bad-url.test'));
      assert.equal(none.response.status, 404);
    });

    test('every route: an unknown domain or another account’s is 404 naming domain; a domain without a webhook is 404', async () => {
      const client = api.client(admin);
      await seedDomain(api.deps, { account: 'acme', domain: 'bare.test' });
      const calls = (domain: string) => [
        () => client.GET('/v1/domains/{domain}/webhook', at(domain)),
        () => client.PUT('/v1/domains/{domain}/webhook', { ...at(domain), body: { url: HOOK } }),
        () => client.POST('/v1/domains/{domain}/webhook/rotate', at(domain)),
        () => client.POST('/v1/domains/{domain}/webhook/test', at(domain)),
        () =>
          client.POST('/v1/domains/{domain}/webhook/replay', {
            ...at(domain),
            body: { start: '2026-11-20T00:00:00Z', end: '2026-11-21T00:00:00Z' },
          }),
        () => client.DELETE('/v1/domains/{domain}/webhook', at(domain)),
      ];
      for (const domain of ['other.test', 'nope.test']) {
        for (const call of calls(domain)) {
          const { error, response } = await call();
          assert.equal(response.status, 404, `${domain} ${response.url}`);
          assert.equal(error!.error.type, 'not_found');
          assert.equal(error!.error.field, 'domain');
        }
      }
      // bare.test has no webhook: every route but PUT is 404 (PUT would create it).
      for (const call of calls('bare.test').filter((_, i) => i !== 1)) {
        const { error, response } = await call();
        assert.equal(response.status, 404, response.url);
        assert.equal(error!.error.type, 'not_found');
        assert.equal(error!.error.message, 'bare.test has no webhook');
      }
      // Nothing was made for the other account's domain.
      const theirs = await api.deps.db
        .selectFrom('webhook_endpoints')
        .innerJoin('domains', 'domains.id', 'webhook_endpoints.domain_id')
        .select('webhook_endpoints.id')
        .where('domains.name', '=', 'other.test')
        .executeTakeFirst();
      assert.equal(theirs, undefined);
    });

    test('a sending key is 403 on every route; a viewer reads but every write is 403', async () => {
      await seedDomain(api.deps, { account: 'acme', domain: 'roles.test' });
      await api.client(admin).PUT('/v1/domains/{domain}/webhook', { ...at('roles.test'), body: { url: HOOK } });
      const routes = (token: string) => {
        const client = api.client(token);
        return {
          get: () => client.GET('/v1/domains/{domain}/webhook', at('roles.test')),
          put: () => client.PUT('/v1/domains/{domain}/webhook', { ...at('roles.test'), body: { url: `${HOOK}/x` } }),
          rotate: () => client.POST('/v1/domains/{domain}/webhook/rotate', at('roles.test')),
          test: () => client.POST('/v1/domains/{domain}/webhook/test', at('roles.test')),
          replay: () =>
            client.POST('/v1/domains/{domain}/webhook/replay', {
              ...at('roles.test'),
              body: { start: '2026-11-20T00:00:00Z', end: '2026-11-21T00:00:00Z' },
            }),
          remove: () => client.DELETE('/v1/domains/{domain}/webhook', at('roles.test')),
        };
      };
      for (const [name, call] of Object.entries(routes(acme.key))) {
        const { error, response } = await call();
        assert.equal(response.status, 403, name);
        assert.equal(error!.error.type, 'forbidden');
        assert.match(error!.error.message, /account token/);
      }
      const asViewer = routes(viewer);
      assert.equal((await asViewer.get()).response.status, 200);
      for (const [name, call] of Object.entries(asViewer).filter(([n]) => n !== 'get')) {
        const { error, response } = await call();
        assert.equal(response.status, 403, name);
        assert.equal(error!.error.type, 'forbidden');
        assert.match(error!.error.message, /viewer/);
      }
      const shown = await asViewer.get();
      assert.equal(shown.data!.url, HOOK, 'the viewer changed nothing');
      assert.equal(shown.data!.secrets.length, 1, 'the viewer rotated nothing');
    });

    test('rotate: a new secret, the old one listed until its overlap ends; remove: 204, then 404; both audited', async () => {
      await seedDomain(api.deps, { account: 'acme', domain: 'rotate.test' });
      const client = api.client(admin);
      const created = await client.PUT('/v1/domains/{domain}/webhook', { ...at('rotate.test'), body: { url: HOOK } });
      const first = (created.data as { secret: string }).secret;
      const rotated = await client.POST('/v1/domains/{domain}/webhook/rotate', at('rotate.test'));
      assert.equal(rotated.response.status, 200);
      assert.match(rotated.data!.secret, /^whsec_/);
      assert.notEqual(rotated.data!.secret, first);
      const overlap = api.deps.config.webhookSecretOverlap;
      assert.equal(rotated.data!.previous_secret_expires_at, new Date(api.deps.clock.now() + overlap).toISOString());
      const shown = await client.GET('/v1/domains/{domain}/webhook', at('rotate.test'));
      assert.deepEqual(
        shown.data!.secrets.map((s) => s.expires_at),
        [null, rotated.data!.previous_secret_expires_at],
      );
      const text = JSON.stringify(shown.data);
      assert.ok(!text.includes(first) && !text.includes(rotated.data!.secret));

      const removed = await client.DELETE('/v1/domains/{domain}/webhook', at('rotate.test'));
      assert.equal(removed.response.status, 204);
      assert.equal((await client.GET('/v1/domains/{domain}/webhook', at('rotate.test'))).response.status, 404);
      assert.equal((await client.DELETE('/v1/domains/{domain}/webhook', at('rotate.test'))).response.status, 404);

      for (const action of ['webhook.rotate', 'webhook.remove']) {
        const entries = (await audit(api, admin, action)).filter((e) => e.target === 'rotate.test');
        assert.equal(entries.length, 1, action);
        assert.equal(entries[0]!.actor, 'token:deploy-bot');
      }
      const log = JSON.stringify((await client.GET('/v1/audit', { params: { query: { limit: 1000 } } })).data);
      assert.ok(!log.includes(first) && !log.includes(rotated.data!.secret), 'no secret in the audit log');
    });

    test('test: in production the SSRF guard refuses a loopback receiver even when the stored URL names one', async () => {
      await seedDomain(api.deps, { account: 'acme', domain: 'guard.test' });
      const client = api.client(admin);
      await client.PUT('/v1/domains/{domain}/webhook', { ...at('guard.test'), body: { url: HOOK } });
      const r = await receiver();
      // A URL the set-time check would refuse, written as if stored before: the POST itself must refuse it.
      await api.deps.db
        .updateTable('webhook_endpoints')
        .set({ url: `https://127.0.0.1:${r.port}/hooks` })
        .where('url', '=', HOOK)
        .where('domain_id', 'in', (q) => q.selectFrom('domains').select('id').where('name', '=', 'guard.test'))
        .execute();
      const { data, response } = await client.POST('/v1/domains/{domain}/webhook/test', at('guard.test'));
      assert.equal(response.status, 200);
      assert.equal(data!.status, null);
      assert.match(data!.response, /^refused: 127\.0\.0\.1 is not a public address/);
      assert.ok(data!.duration_ms >= 0);
      assert.equal(r.received.length, 0, 'nothing reached the loopback receiver');
      const tests = (await audit(api, admin, 'webhook.test')).filter((e) => e.target === 'guard.test');
      assert.equal(tests.length, 1);
    });

    test('test: one signed webhook.test POST now, verified with standardwebhooks; the receiver’s status and body come back', async () => {
      dev.deps.clock.set(Date.now()); // standardwebhooks checks the timestamp against its own clock
      const domain = await seedDomain(dev.deps, { account: 'acme', domain: 'probe.test' });
      const token = await dev.token('acme', 'admin', 'tester');
      const r = await receiver();
      r.answer(() => ({ status: 202, body: 'thanks, got it' }));
      const client = dev.client(token);
      const created = await client.PUT('/v1/domains/{domain}/webhook', { ...at('probe.test'), body: { url: r.url } });
      assert.equal(created.response.status, 201);
      const secret = (created.data as { secret: string }).secret;

      const { data, response } = await client.POST('/v1/domains/{domain}/webhook/test', at('probe.test'));
      assert.equal(response.status, 200);
      assert.equal(data!.status, 202);
      assert.equal(data!.response, 'thanks, got it');
      assert.ok(Number.isInteger(data!.duration_ms) && data!.duration_ms >= 0);
      assert.equal(r.received.length, 1, 'posted synchronously, before the answer');
      const got = r.received[0]!;
      const payload = new Webhook(secret).verify(got.body, headersOf(got)) as Record<string, unknown>;
      assert.equal(payload.event, 'webhook.test');
      assert.equal(payload.id, got.id);
      assert.match(got.id, /^wht_[0-9A-Z]{26}$/);
      assert.equal(payload.domain, 'probe.test');
      assert.equal(payload.occurred_at, new Date(dev.deps.clock.now()).toISOString());

      // During a rotation both secrets sign the test, as they sign deliveries.
      const rotated = await client.POST('/v1/domains/{domain}/webhook/rotate', at('probe.test'));
      r.answer(() => ({ status: 500, body: 'x'.repeat(900) }));
      const failing = await client.POST('/v1/domains/{domain}/webhook/test', at('probe.test'));
      assert.equal(failing.data!.status, 500);
      assert.equal(failing.data!.response, 'x'.repeat(500), 'the first 500 characters');
      const second = r.received[1]!;
      assert.notEqual(second.id, got.id);
      new Webhook(secret).verify(second.body, headersOf(second));
      new Webhook(rotated.data!.secret).verify(second.body, headersOf(second));

      // The test is not a delivery: the log and the endpoint's health are untouched.
      const shown = await client.GET('/v1/domains/{domain}/webhook', at('probe.test'));
      assert.deepEqual(shown.data!.attempts, []);
      assert.equal(shown.data!.failing_since, null);

      // No receiver at all: status null and the connection error.
      await r.close();
      const gone = await client.POST('/v1/domains/{domain}/webhook/test', at('probe.test'));
      assert.equal(gone.data!.status, null);
      assert.match(gone.data!.response, /ECONNREFUSED/);
      const entries = (await audit(dev, token, 'webhook.test')).filter((e) => e.target === domain.domain);
      assert.equal(entries.length, 3);
      assert.equal(entries[0]!.actor, 'token:tester');
    });

    test('replay: the window’s stored events are posted again with their original ids and bodies, signed; the event filter and window bounds hold', async () => {
      dev.deps.clock.set(Date.now());
      const now = dev.deps.clock.now();
      const domain = await seedDomain(dev.deps, { account: 'acme', domain: 'replay.test' });
      const sibling = await seedDomain(dev.deps, { account: 'acme', domain: 'sibling.test' });
      const token = await dev.token('acme', 'admin', 'replayer');
      const r = await receiver();
      const client = dev.client(token);
      const created = await client.PUT('/v1/domains/{domain}/webhook', { ...at('replay.test'), body: { url: r.url } });
      const secret = (created.data as { secret: string }).secret;

      const events = [
        event(domain, 1, now - 4 * HOUR),
        event(domain, 2, now - 3 * HOUR),
        event(domain, 3, now - 2 * HOUR, 'failed'),
        event(domain, 4, now - 1 * HOUR),
        event(sibling, 5, now - 2 * HOUR), // same account, same window, another domain
      ];
      await dev.deps.db.transaction().execute((trx) => writeEvents(trx, events));
      dispatcher(dev);
      await r.waitFor((got) => got.length === 4);
      const originals = new Map(r.received.map((g) => [g.id, g.body]));
      assert.deepEqual(
        [...originals.keys()].sort(),
        events
          .slice(0, 4)
          .map((e) => e.id)
          .sort(),
      );

      // Events 2 and 3 lie in the window; the bounds are inclusive, as in GET /v1/events.
      const window = { start: new Date(now - 3 * HOUR).toISOString(), end: new Date(now - 2 * HOUR).toISOString() };
      const replayed = await client.POST('/v1/domains/{domain}/webhook/replay', { ...at('replay.test'), body: window });
      assert.equal(replayed.response.status, 200);
      assert.deepEqual(replayed.data, { queued: 2 });
      await r.waitFor((got) => got.length === 6);
      const copies = r.received.slice(4);
      assert.deepEqual(copies.map((c) => c.id).sort(), [events[1]!.id, events[2]!.id].sort());
      for (const copy of copies) {
        assert.equal(copy.body, originals.get(copy.id), 'the same bytes as the first delivery');
        const payload = new Webhook(secret).verify(copy.body, headersOf(copy)) as { id: string };
        assert.equal(payload.id, copy.id);
      }

      // Only `failed` events of a wider window.
      const failedOnly = await client.POST('/v1/domains/{domain}/webhook/replay', {
        ...at('replay.test'),
        body: { start: new Date(now - 5 * HOUR).toISOString(), end: new Date(now).toISOString(), event: 'failed' },
      });
      assert.deepEqual(failedOnly.data, { queued: 1 });
      await r.waitFor((got) => got.length === 7);
      assert.equal(r.received[6]!.id, events[2]!.id);

      // The delivery log shows the replayed POSTs under the original event ids.
      await until('the replayed attempts are logged', async () => {
        const shown = await client.GET('/v1/domains/{domain}/webhook', at('replay.test'));
        return shown.data!.attempts.length === 7;
      });
      const shown = await client.GET('/v1/domains/{domain}/webhook', at('replay.test'));
      const logged = shown.data!.attempts;
      assert.equal(logged.filter((a) => a.event_id === events[2]!.id).length, 3);
      for (const a of logged) {
        assert.equal(a.status, 200);
        assert.equal(a.attempt, 1);
        assert.equal(a.response, 'ok');
        assert.equal(a.error, null);
        assert.ok(a.duration_ms !== null && a.duration_ms >= 0);
      }
      assert.equal(logged.find((a) => a.event_id === events[2]!.id)!.event, 'failed');

      const entries = (await audit(dev, token, 'webhook.replay')).filter((e) => e.target.startsWith('replay.test'));
      assert.deepEqual(
        entries.map((e) => e.target),
        [
          `replay.test: events from ${new Date(now - 5 * HOUR).toISOString()} to ${new Date(now).toISOString()} named failed, 1 queued`,
          `replay.test: events from ${window.start} to ${window.end}, 2 queued`,
        ],
      );
      assert.equal(entries[0]!.actor, 'token:replayer');
    });

    test('replay of a disabled webhook waits, parked, until a PUT re-enables it', async () => {
      const now = dev.deps.clock.now();
      const domain = await seedDomain(dev.deps, { account: 'acme', domain: 'parked.test' });
      const token = await dev.token('acme');
      const client = dev.client(token);
      await client.PUT('/v1/domains/{domain}/webhook', { ...at('parked.test'), body: { url: HOOK } });
      await dev.deps.db
        .updateTable('webhook_endpoints')
        .set({ status: 'disabled', disabled_at: now, disabled_reason: 'it answered 410 Gone' })
        .where('domain_id', '=', domain.domainId)
        .execute();
      const e = event(domain, 1, now - HOUR);
      await dev.deps.db.transaction().execute((trx) => writeEvents(trx, [e])); // not queued: disabled
      const replayed = await client.POST('/v1/domains/{domain}/webhook/replay', {
        ...at('parked.test'),
        body: { start: new Date(now - 2 * HOUR).toISOString(), end: new Date(now).toISOString() },
      });
      assert.deepEqual(replayed.data, { queued: 1 });
      const row = await dev.deps.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('event_id', '=', e.id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(row.next_attempt_at), PARKED_AT);
      assert.equal(row.state, 'pending');
      const reenabled = await client.PUT('/v1/domains/{domain}/webhook', { ...at('parked.test'), body: { url: HOOK } });
      assert.deepEqual(reenabled.data, { url: HOOK, reenabled: true });
      const due = await dev.deps.db
        .selectFrom('webhook_deliveries')
        .select('next_attempt_at')
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(due.next_attempt_at), dev.deps.clock.now());
    });

    test('replay: bad, reversed or too wide windows and unknown event names are 400 naming the field', async () => {
      await seedDomain(api.deps, { account: 'acme', domain: 'window.test' });
      const client = api.client(admin);
      await client.PUT('/v1/domains/{domain}/webhook', { ...at('window.test'), body: { url: HOOK } });
      const replay = (body: { start: string; end: string; event?: string }) =>
        // An unknown event name is the point of one case: the typed client would not let it through.
        client.POST('/v1/domains/{domain}/webhook/replay', {
          ...at('window.test'),
          body: body as { start: string; end: string },
        });
      const cases: [{ start: string; end: string; event?: string }, string, RegExp][] = [
        [
          { start: 'yesterday', end: '2026-11-21T00:00:00Z' },
          'start',
          /start must be a Unix timestamp .* or an ISO-8601/,
        ],
        [{ start: '2026-11-20T00:00:00Z', end: '2026-02-30T00:00:00Z' }, 'end', /end is not a calendar date/],
        [{ start: '2026-11-21T00:00:00Z', end: '2026-11-20T00:00:00Z' }, 'end', /end must not be before start/],
        [
          { start: '2026-01-01T00:00:00Z', end: '2026-02-01T00:00:00.001Z' },
          'end',
          /at most 31 days; end must be at most 2026-02-01T00:00:00\.000Z/,
        ],
        [{ start: '2026-11-20T00:00:00Z', end: '2026-11-21T00:00:00Z', event: 'bounced' }, 'event', /event must be/],
      ];
      for (const [body, field, why] of cases) {
        const { error, response } = await replay(body);
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.equal(error!.error.type, 'invalid_request');
        assert.equal(error!.error.field, field, JSON.stringify(body));
        assert.match(error!.error.message, why, JSON.stringify(body));
      }
      for (const [raw, field] of [
        ['{"end":"2026-11-21T00:00:00Z"}', 'start'],
        ['{"start":"2026-11-21T00:00:00Z"}', 'end'],
        ['{"start":1763683200,"end":"2026-11-21T00:00:00Z"}', 'start'],
        ['{"start":"2026-11-20T00:00:00Z","end":"2026-11-21T00:00:00Z","limit":5}', 'limit'],
      ] as const) {
        const res = await api.fetch('/v1/domains/window.test/webhook/replay', {
          method: 'POST',
          headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
          body: raw,
        });
        assert.equal(res.status, 400, raw);
        assert.equal(((await res.json()) as { error: { field: string } }).error.field, field, raw);
      }
      // Exactly 31 days, a date and Unix seconds (the forms GET /v1/events takes) are accepted.
      assert.deepEqual((await replay({ start: '2026-01-01', end: '2026-02-01T00:00:00Z' })).data, { queued: 0 });
      assert.deepEqual((await replay({ start: '1763683200', end: '1763769600' })).data, { queued: 0 });
      assert.equal(
        (await audit(api, admin, 'webhook.replay')).filter((e) => e.target.startsWith('window.test')).length,
        2,
      );
    });

    test(`replay: a window of more than ${MAX_REPLAY_EVENTS} events is refused naming the end that fits, which then queues exactly that many`, async () => {
      const domain = await seedDomain(api.deps, { account: 'acme', domain: 'bulk.test' });
      const client = api.client(admin);
      const base = Date.UTC(2026, 10, 1);
      // Stored before the webhook exists, so none is queued now.
      const rows = Array.from({ length: MAX_REPLAY_EVENTS + 1 }, (_, i) =>
        toEventRow({ ...event(domain, i, base + i * 1000), accountId: domain.accountId }),
      );
      await insertChunked(api.deps.db, 'events', rows);
      await client.PUT('/v1/domains/{domain}/webhook', { ...at('bulk.test'), body: { url: HOOK } });
      const whole = await client.POST('/v1/domains/{domain}/webhook/replay', {
        ...at('bulk.test'),
        body: { start: new Date(base).toISOString(), end: new Date(base + 20_000_000).toISOString() },
      });
      assert.equal(whole.response.status, 400);
      assert.equal(whole.error!.error.field, 'end');
      const fits = new Date(base + MAX_REPLAY_EVENTS * 1000 - 1).toISOString();
      assert.match(
        whole.error!.error.message,
        new RegExp(`more than ${MAX_REPLAY_EVENTS} events.*end at or before ${fits}`),
      );
      const part = await client.POST('/v1/domains/{domain}/webhook/replay', {
        ...at('bulk.test'),
        body: { start: new Date(base).toISOString(), end: fits },
      });
      assert.deepEqual(part.data, { queued: MAX_REPLAY_EVENTS });
      const queued = await api.deps.db
        .selectFrom('webhook_deliveries')
        .innerJoin('webhook_endpoints', 'webhook_endpoints.id', 'webhook_deliveries.endpoint_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('webhook_endpoints.domain_id', '=', domain.domainId)
        .executeTakeFirstOrThrow();
      assert.equal(Number(queued.n), MAX_REPLAY_EVENTS);
      const shown = await client.GET('/v1/domains/{domain}/webhook', at('bulk.test'));
      assert.equal(shown.data!.pending, MAX_REPLAY_EVENTS);
    });
  });
}
