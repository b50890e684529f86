// The sandbox mailbox over the management API on each test database (docs/dashboard.md, Sandbox
// mailbox): POST /v1/domains/{domain}/test-send goes through the real submit pipeline and the
// delivery worker into the sandbox mailbox; GET /v1/sandbox/messages pages it newest first, only
// the caller's account; one message comes with its decoded bodies, and /raw with its signed bytes.
// A viewer reads but cannot send; a sending key is refused; outside sandbox mode there is no mailbox.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { assertError, auditEntries } from '../helpers/management-calls.js';
import { createDeliveryHarness, SENDER_DOMAIN, type DeliveryHarness } from '../helpers/delivery-harness.js';
import { seedDomain } from '../helpers/seed.js';
import { testDialects } from '../helpers/test-db.js';

for (const dialect of testDialects()) {
  describe(`sandbox mailbox API (${dialect})`, () => {
    let h: DeliveryHarness;
    let api: ApiHarness;
    let admin: string;
    let viewer: string;
    let stranger: string;

    before(async () => {
      h = await createDeliveryHarness(dialect, { sandbox: true, env: { POSTHORN_SANDBOX: '1' } });
      api = await startApiHarness(dialect, { deps: h.deps });
      admin = await api.token('acme', 'admin');
      viewer = await api.token('acme', 'viewer');
      await seedDomain(api.deps, { account: 'other', domain: `other-${dialect}.test` });
      stranger = await api.token('other', 'admin');
    });
    after(async () => {
      await api.close();
      await h.close();
    });

    test('test-send, then the mailbox pages, reads and serves the raw source; audited', async () => {
      const ids: string[] = [];
      for (const to of ['you@example.org', 'bounce@example.org', 'open@example.org']) {
        const sent = await api.client(admin).POST('/v1/domains/{domain}/test-send', {
          params: { path: { domain: SENDER_DOMAIN } },
          body: { to, subject: `Test to ${to}` },
        });
        assert.equal(sent.response.status, 202, JSON.stringify(sent.error));
        ids.push(sent.data!.id);
        await h.advance(1000);
      }
      await h.run();
      // The bounce was refused by the sandbox: only the two delivered messages are kept.
      const first = await api.client(viewer).GET('/v1/sandbox/messages', { params: { query: { limit: 1 } } });
      assert.equal(first.response.status, 200);
      assert.deepEqual(
        first.data!.messages.map((m) => [m.message_id, m.to, m.subject, m.from]),
        [[ids[2], ['open@example.org'], 'Test to open@example.org', `test@${SENDER_DOMAIN}`]],
      );
      assert.ok(first.data!.next_cursor);
      const second = await api.client(viewer).GET('/v1/sandbox/messages', {
        params: { query: { limit: 1, cursor: first.data!.next_cursor! } },
      });
      assert.deepEqual(
        second.data!.messages.map((m) => m.message_id),
        [ids[0]],
      );
      assert.equal(second.data!.next_cursor, null);

      const id = second.data!.messages[0]!.id;
      const one = await api.client(viewer).GET('/v1/sandbox/messages/{id}', { params: { path: { id } } });
      assert.equal(one.response.status, 200);
      assert.match(one.data!.html!, /<h1[^>]*>Test to you@example.org<\/h1>/);
      assert.match(one.data!.text!, /This is a test message from acme\.test/);
      const raw = await api.fetch(`/v1/sandbox/messages/${id}/raw`, { headers: { authorization: `Bearer ${viewer}` } });
      assert.equal(raw.status, 200);
      assert.equal(raw.headers.get('content-type'), 'message/rfc822');
      const bytes = Buffer.from(await raw.arrayBuffer());
      assert.equal(bytes.length, one.data!.size);
      assert.match(bytes.toString('latin1'), /^DKIM-Signature: v=1;/m);
      const verdicts = await h.verifyDkim(bytes);
      assert.ok(
        verdicts.some((v) => v.result === 'pass'),
        JSON.stringify(verdicts),
      );

      // The domain's own month counts the three test messages' recipients.
      const domain = await api
        .client(viewer)
        .GET('/v1/domains/{domain}', { params: { path: { domain: SENDER_DOMAIN } } });
      assert.equal(domain.data!.month.domain_accepted, 3);

      const audit = await auditEntries(api, admin, 'domain.test_send');
      assert.deepEqual(
        audit.map((e) => e.target),
        [
          `${SENDER_DOMAIN} to open@example.org`,
          `${SENDER_DOMAIN} to bounce@example.org`,
          `${SENDER_DOMAIN} to you@example.org`,
        ],
      );
    });

    test('another account sees none of it; viewers and sending keys cannot send; bad input named', async () => {
      const theirs = await api.client(stranger).GET('/v1/sandbox/messages');
      assert.deepEqual(theirs.data!.messages, []);
      const mine = await api.client(admin).GET('/v1/sandbox/messages');
      const id = mine.data!.messages[0]!.id;
      assertError(
        await api.client(stranger).GET('/v1/sandbox/messages/{id}', { params: { path: { id } } }),
        404,
        'not_found',
        'id',
      );
      assertError(
        await api.client(stranger).POST('/v1/domains/{domain}/test-send', {
          params: { path: { domain: SENDER_DOMAIN } },
          body: { to: 'you@example.org' },
        }),
        404,
        'not_found',
        'domain',
      );
      assertError(
        await api.client(viewer).POST('/v1/domains/{domain}/test-send', {
          params: { path: { domain: SENDER_DOMAIN } },
          body: { to: 'you@example.org' },
        }),
        403,
        'forbidden',
      );
      assertError(await api.client(h.sender.key).GET('/v1/sandbox/messages'), 403, 'forbidden');
      assertError(
        await api.client(admin).POST('/v1/domains/{domain}/test-send', {
          params: { path: { domain: SENDER_DOMAIN } },
          body: { to: 'not an address' },
        }),
        400,
        'invalid_request',
        'to',
      );
      assertError(
        await api.client(admin).GET('/v1/sandbox/messages', { params: { query: { cursor: 'bogus' } } }),
        400,
        'invalid_request',
        'cursor',
      );
    });
  });

  describe(`sandbox mailbox outside sandbox mode (${dialect})`, () => {
    let api: ApiHarness;
    before(async () => {
      api = await startApiHarness(dialect);
    });
    after(() => api.close());

    test('there is no mailbox: 404', async () => {
      const admin = await api.token('acme', 'admin');
      assertError(await api.client(admin).GET('/v1/sandbox/messages'), 404, 'not_found');
      const me = await api.client(admin).GET('/v1/session');
      assert.equal(me.data!.sandbox, false);
    });
  });
}
