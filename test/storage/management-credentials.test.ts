// A domain's API key and SMTP logins through the management API (docs/api.md, Management API),
// over real HTTPS on each test database, with a real relay listener on loopback for AUTH: a key
// replaced over HTTP is 401 on its very next request; a login revoked over HTTP is refused at AUTH
// while the key keeps working; last_used_at moves at most once a minute; every refusal, another
// account's domain, a sending key, a viewer's write, and the audit entries (never a secret).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { SMTPServer } from 'smtp-server';
import { createAuthThrottle } from '../../src/credentials/auth-throttle.js';
import { createRelayServer } from '../../src/smtp/relay-server.js';
import { createSubmitPipeline, type SubmitPipeline } from '../../src/send/submit.js';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { assertError, auditEntries, rawCall } from '../helpers/management-calls.js';
import { relayCertificate, SmtpWire } from '../helpers/relay-harness.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { testDialects } from '../helpers/test-db.js';

/** A relay listener (implicit TLS) on the harness's database, as `posthorn serve` runs one. */
async function startRelay(
  api: ApiHarness,
): Promise<{ auth(user: string, pass: string): Promise<number>; close(): Promise<void> }> {
  const pipeline: SubmitPipeline = createSubmitPipeline(api.deps);
  // No brake on failed logins here: these tests fail logins on purpose.
  const throttle = createAuthThrottle({
    slowAfter: 1000,
    blockAfter: 1000,
    windowMs: 60_000,
    blockMs: 1,
    maxDelayMs: 0,
  });
  const server: SMTPServer = createRelayServer(api.deps, pipeline, throttle, {
    implicitTls: true,
    tls: await relayCertificate(),
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    /** EHLO and AUTH PLAIN on a new connection; the AUTH reply code. */
    async auth(user, pass) {
      const wire = await SmtpWire.implicit(port);
      try {
        assert.equal((await wire.next()).code, 220);
        assert.equal((await wire.cmd('EHLO client.posthorn.test')).code, 250);
        return (await wire.auth(user, pass)).code;
      } finally {
        wire.destroy();
      }
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pipeline.drain();
    },
  };
}

for (const dialect of testDialects()) {
  describe(`management API: API key and SMTP logins (${dialect})`, () => {
    let api: ApiHarness;
    let relay: Awaited<ReturnType<typeof startRelay>>;
    let acme: Seeded;
    let other: Seeded;
    let admin: string;
    let viewer: string;
    const path = (domain: string) => ({ params: { path: { domain } } });

    before(async () => {
      api = await startApiHarness(dialect);
      relay = await startRelay(api);
      acme = await seedDomain(api.deps, { account: 'acme', domain: `acme-${dialect}.test` });
      other = await seedDomain(api.deps, { account: 'other', domain: `other-${dialect}.test` });
      admin = await api.token('acme', 'admin', 'deploy-bot');
      viewer = await api.token('acme', 'viewer', 'dashboard');
    });
    after(async () => {
      await relay.close();
      await api.close();
    });

    test('POST …/api-key issues a key; replacing it makes the old key 401 on its very next request', async () => {
      const first = await api.client(admin).POST('/v1/domains/{domain}/api-key', path(acme.domain));
      assert.equal(first.response.status, 201);
      assert.match(first.data!.key, /^ph_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/);
      assert.equal(first.data!.prefix, first.data!.key.slice(0, 11));
      assert.equal(first.data!.created_at, new Date(api.deps.clock.now()).toISOString());
      // The seeded key was replaced by the first, the first by the second.
      assertError(await api.client(acme.key).GET('/v1/domain'), 401, 'invalid_key');
      assert.equal((await api.client(first.data!.key).GET('/v1/domain')).response.status, 200);

      const second = await api.client(admin).POST('/v1/domains/{domain}/api-key', path(acme.domain));
      assert.equal(second.response.status, 201);
      assertError(await api.client(first.data!.key).GET('/v1/domain'), 401, 'invalid_key');
      const sent = await api.fetch('/v1/send', {
        method: 'POST',
        headers: { authorization: `Bearer ${first.data!.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ from: `a@${acme.domain}`, to: 'bob@example.org', subject: 'x', text: 'x' }),
      });
      assert.equal(sent.status, 401, 'the old key cannot send either');
      assert.equal((await api.client(second.data!.key).GET('/v1/domain')).response.status, 200);

      const entries = [
        ...(await auditEntries(api, admin, 'api_key.replace')),
        ...(await auditEntries(api, admin, 'api_key.create')),
      ];
      assert.deepEqual(
        entries.map((e) => e.target),
        [`${acme.domain} (${second.data!.prefix})`, `${acme.domain} (${first.data!.prefix})`],
      );
      const log = JSON.stringify((await api.client(admin).GET('/v1/audit')).data);
      assert.ok(!log.includes(first.data!.key) && !log.includes(second.data!.key), 'no key in the audit log');
    });

    test('a key is issued for a verified domain only: pending and unverified are 403 domain_unverified', async () => {
      for (const status of ['pending', 'unverified'] as const) {
        const d = await seedDomain(api.deps, { account: 'acme', domain: `${status}-${dialect}.test`, status });
        const before = (await api.client(admin).GET('/v1/domains/{domain}/api-key', path(d.domain))).data!.prefix;
        assertError(
          await api.client(admin).POST('/v1/domains/{domain}/api-key', path(d.domain)),
          403,
          'domain_unverified',
        );
        const after = (await api.client(admin).GET('/v1/domains/{domain}/api-key', path(d.domain))).data!.prefix;
        assert.equal(after, before, 'the refusal changed nothing');
      }
      const warning = await seedDomain(api.deps, {
        account: 'acme',
        domain: `warning-${dialect}.test`,
        status: 'warning',
      });
      assert.equal(
        (await api.client(admin).POST('/v1/domains/{domain}/api-key', path(warning.domain))).response.status,
        201,
      );
    });

    test('GET …/api-key shows the prefix and dates, never the key; last_used_at moves at most once a minute', async () => {
      const d = await seedDomain(api.deps, { account: 'acme', domain: `used-${dialect}.test` });
      const t0 = api.deps.clock.now();
      const show = async () => {
        const { data, response } = await api.client(viewer).GET('/v1/domains/{domain}/api-key', path(d.domain));
        assert.equal(response.status, 200);
        assert.deepEqual(Object.keys(data!).sort(), ['created_at', 'last_used_at', 'prefix']);
        return data!;
      };
      const fresh = await show();
      assert.deepEqual(fresh, {
        prefix: d.key.slice(0, 11),
        created_at: new Date(t0).toISOString(),
        last_used_at: null,
      });
      assert.equal((await api.client(d.key).GET('/v1/domain')).response.status, 200);
      assert.equal((await show()).last_used_at, new Date(t0).toISOString());
      api.deps.clock.advance(30_000);
      await api.client(d.key).GET('/v1/domain');
      assert.equal((await show()).last_used_at, new Date(t0).toISOString(), 'not written again within the minute');
      api.deps.clock.advance(30_000);
      await api.client(d.key).GET('/v1/domain');
      assert.equal((await show()).last_used_at, new Date(t0 + 60_000).toISOString());
    });

    test('DELETE …/api-key: the key is 401 at once, the domain has none (404) until a new one', async () => {
      const d = await seedDomain(api.deps, { account: 'acme', domain: `revoke-${dialect}.test` });
      assertError(await api.client(viewer).DELETE('/v1/domains/{domain}/api-key', path(d.domain)), 403, 'forbidden');
      assert.equal((await api.client(d.key).GET('/v1/domain')).response.status, 200);
      const gone = await api.client(admin).DELETE('/v1/domains/{domain}/api-key', path(d.domain));
      assert.equal(gone.response.status, 204);
      assertError(await api.client(d.key).GET('/v1/domain'), 401, 'invalid_key');
      assertError(await api.client(admin).GET('/v1/domains/{domain}/api-key', path(d.domain)), 404, 'not_found');
      assertError(await api.client(admin).DELETE('/v1/domains/{domain}/api-key', path(d.domain)), 404, 'not_found');
      const [entry] = await auditEntries(api, admin, 'api_key.revoke');
      assert.equal(entry!.target, `${d.domain} (${d.key.slice(0, 11)})`);
      const made = await api.client(admin).POST('/v1/domains/{domain}/api-key', path(d.domain));
      assert.equal(made.response.status, 201);
      assert.equal((await auditEntries(api, admin, 'api_key.create'))[0]!.target, `${d.domain} (${made.data!.prefix})`);
    });

    test('SMTP login made over HTTP works at the relay; revoked over HTTP it is refused, the API key unaffected', async () => {
      const d = await seedDomain(api.deps, { account: 'acme', domain: `relay-${dialect}.test` });
      const made = await api.client(admin).POST('/v1/domains/{domain}/smtp-credentials', path(d.domain));
      assert.equal(made.response.status, 201);
      const login = made.data!;
      assert.match(login.username, /^ph_smtp_[0-9a-f]{12}$/);
      assert.match(login.password, /^phs_[A-Za-z0-9_-]{43}$/);
      assert.deepEqual([login.host, login.port], ['mail.posthorn.test', api.deps.config.smtpPort]);

      const list = async () => {
        const { data, response } = await api
          .client(viewer)
          .GET('/v1/domains/{domain}/smtp-credentials', path(d.domain));
        assert.equal(response.status, 200);
        assert.ok(!JSON.stringify(data).includes(login.password), 'no password in the listing');
        return data!.credentials;
      };
      const t0 = api.deps.clock.now();
      assert.deepEqual(await list(), [
        { username: login.username, created_at: new Date(t0).toISOString(), last_used_at: null },
      ]);

      assert.equal(await relay.auth(login.username, login.password), 235);
      assert.equal((await list())[0]!.last_used_at, new Date(t0).toISOString());
      api.deps.clock.advance(59_000);
      assert.equal(await relay.auth(login.username, login.password), 235);
      assert.equal((await list())[0]!.last_used_at, new Date(t0).toISOString(), 'not written again within the minute');
      api.deps.clock.advance(1_000);
      assert.equal(await relay.auth(login.username, login.password), 235);
      assert.equal((await list())[0]!.last_used_at, new Date(t0 + 60_000).toISOString());
      assert.equal(await relay.auth(login.username, `${login.password}x`), 535, 'a wrong password is refused');

      const revoke = (username: string, token = admin, domain = d.domain) =>
        api.client(token).DELETE('/v1/domains/{domain}/smtp-credentials/{username}', {
          params: { path: { domain, username } },
        });
      assertError(await revoke(login.username, viewer), 403, 'forbidden');
      assertError(await revoke(login.username, d.key), 403, 'forbidden');
      assert.equal(await relay.auth(login.username, login.password), 235, 'refused revocations changed nothing');
      assert.equal((await revoke(login.username)).response.status, 204);
      assert.equal(await relay.auth(login.username, login.password), 535, 'refused at AUTH from that moment');
      assert.equal((await api.client(d.key).GET('/v1/domain')).response.status, 200, 'the API key still works');
      assert.deepEqual(await list(), []);
      assertError(await revoke(login.username), 409, 'conflict');
      assertError(await revoke('ph_smtp_000000000000'), 404, 'not_found', 'username');

      const entries = [
        ...(await auditEntries(api, admin, 'smtp_credential.revoke')),
        ...(await auditEntries(api, admin, 'smtp_credential.create')),
      ];
      assert.deepEqual(
        entries.map((e) => e.target),
        [`${d.domain} (${login.username})`, `${d.domain} (${login.username})`],
      );
      const log = JSON.stringify((await api.client(admin).GET('/v1/audit')).data);
      assert.ok(!log.includes(login.password), 'no password in the audit log');
    });

    test('a login is revoked only through its own domain: another domain’s is 404 and keeps working', async () => {
      const theirs = await api
        .client(await api.token('other', 'admin'))
        .POST('/v1/domains/{domain}/smtp-credentials', path(other.domain));
      assert.equal(theirs.response.status, 201);
      const got = await api.client(admin).DELETE('/v1/domains/{domain}/smtp-credentials/{username}', {
        params: { path: { domain: acme.domain, username: theirs.data!.username } },
      });
      assertError(got, 404, 'not_found', 'username');
      const direct = await api.client(admin).DELETE('/v1/domains/{domain}/smtp-credentials/{username}', {
        params: { path: { domain: other.domain, username: theirs.data!.username } },
      });
      assertError(direct, 404, 'not_found', 'domain');
      assert.equal(await relay.auth(theirs.data!.username, theirs.data!.password), 235);
    });

    test('deleting the domain refuses its SMTP logins at AUTH and its key at once', async () => {
      const d = await seedDomain(api.deps, { account: 'acme', domain: `bye-${dialect}.test` });
      const login = (await api.client(admin).POST('/v1/domains/{domain}/smtp-credentials', path(d.domain))).data!;
      assert.equal(await relay.auth(login.username, login.password), 235);
      assert.equal((await api.client(admin).DELETE('/v1/domains/{domain}', path(d.domain))).response.status, 204);
      assert.equal(await relay.auth(login.username, login.password), 535);
      assertError(await api.client(d.key).GET('/v1/domain'), 401, 'invalid_key');
    });

    test('every route: another account’s domain 404 (domain), a sending key 403, no token 401, a viewer’s write 403', async () => {
      const routes: [string, string, string][] = [
        ['POST', '/v1/domains/{domain}/api-key', '/api-key'],
        ['GET', '/v1/domains/{domain}/api-key', '/api-key'],
        ['DELETE', '/v1/domains/{domain}/api-key', '/api-key'],
        ['GET', '/v1/domains/{domain}/smtp-credentials', '/smtp-credentials'],
        ['POST', '/v1/domains/{domain}/smtp-credentials', '/smtp-credentials'],
        ['DELETE', '/v1/domains/{domain}/smtp-credentials/{username}', '/smtp-credentials/ph_smtp_000000000000'],
      ];
      const keyed = await seedDomain(api.deps, { account: 'acme', domain: `keyed-${dialect}.test` });
      for (const [method, template, tail] of routes) {
        const theirs = `/v1/domains/${other.domain}${tail}`;
        const ours = `/v1/domains/${keyed.domain}${tail}`;
        assertError(await rawCall(api, method, template, theirs, admin), 404, 'not_found', 'domain');
        assertError(await rawCall(api, method, template, ours, keyed.key), 403, 'forbidden');
        assertError(await rawCall(api, method, template, ours, undefined), 401, 'invalid_key');
        if (method !== 'GET') assertError(await rawCall(api, method, template, ours, viewer), 403, 'forbidden');
      }
      assert.equal((await api.client(keyed.key).GET('/v1/domain')).response.status, 200, 'the key is a live one');
      const long = `/v1/domains/${keyed.domain}/smtp-credentials/${'x'.repeat(65)}`;
      assertError(
        await rawCall(api, 'DELETE', '/v1/domains/{domain}/smtp-credentials/{username}', long, admin),
        400,
        'invalid_request',
        'username',
      );
      const theirKey = await api.deps.db
        .selectFrom('api_keys')
        .select('revoked_at')
        .where('domain_id', '=', other.domainId)
        .execute();
      assert.deepEqual(
        theirKey.map((k) => k.revoked_at),
        [null],
        'nothing of the other account changed',
      );
    });
  });
}
