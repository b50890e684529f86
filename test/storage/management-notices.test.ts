// GET /v1/notices over real HTTPS on each test database: the account's notices newest first with
// their domain and details, narrowed by `domain`; an unknown or another account's domain is 404
// naming `domain`; a viewer may read; a sending key gets 403; no credential 401.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { recordNotice } from '../../src/notices/record-notice.js';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { assertError } from '../helpers/management-calls.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { testDialects } from '../helpers/test-db.js';

for (const dialect of testDialects()) {
  describe(`GET /v1/notices (${dialect})`, () => {
    let api: ApiHarness;
    let admin: string;
    let viewer: string;
    let main: Seeded;
    let shop: Seeded;
    let theirs: Seeded;

    before(async () => {
      api = await startApiHarness(dialect);
      main = await seedDomain(api.deps, { account: 'acme', domain: `acme-${dialect}.test` });
      shop = await seedDomain(api.deps, { account: 'acme', domain: `shop-${dialect}.test` });
      theirs = await seedDomain(api.deps, { account: 'other', domain: `theirs-${dialect}.test` });
      admin = await api.token('acme', 'admin');
      viewer = await api.token('acme', 'viewer');
      const t0 = Date.UTC(2026, 10, 20, 8);
      const { db, ids } = api.deps;
      await recordNotice(db, ids, t0, {
        accountId: main.accountId,
        domainId: main.domainId,
        kind: 'domain.warning',
        message: `SPF of ${main.domain} stopped matching`,
        details: { spf: { ok: false } },
      });
      await recordNotice(db, ids, t0 + 60_000, {
        accountId: shop.accountId,
        domainId: shop.domainId,
        kind: 'webhook.disabled',
        message: `webhook of ${shop.domain} disabled: 410 Gone`,
        details: { status: 410 },
      });
      await recordNotice(db, ids, t0 + 120_000, {
        accountId: theirs.accountId,
        domainId: theirs.domainId,
        kind: 'domain.unverified',
        message: `${theirs.domain} is unverified`,
        details: {},
      });
    });
    after(() => api.close());

    test('newest first, with domain and details; only the caller’s account; a viewer may read', async () => {
      for (const token of [admin, viewer]) {
        const { data, response } = await api.client(token).GET('/v1/notices');
        assert.equal(response.status, 200);
        assert.deepEqual(
          data!.notices.map((n) => [n.kind, n.domain, n.details, n.created_at]),
          [
            ['webhook.disabled', shop.domain, { status: 410 }, '2026-11-20T08:01:00.000Z'],
            ['domain.warning', main.domain, { spf: { ok: false } }, '2026-11-20T08:00:00.000Z'],
          ],
        );
        assert.match(data!.notices[0]!.message, /410 Gone/);
        assert.match(data!.notices[0]!.id, /^\S+$/);
      }
    });

    test('domain narrows the list; an unknown or another account’s domain is 404 naming domain', async () => {
      const one = await api
        .client(admin)
        .GET('/v1/notices', { params: { query: { domain: main.domain.toUpperCase() } } });
      assert.equal(one.response.status, 200);
      assert.deepEqual(
        one.data!.notices.map((n) => n.kind),
        ['domain.warning'],
      );
      assertError(
        await api.client(admin).GET('/v1/notices', { params: { query: { domain: theirs.domain } } }),
        404,
        'not_found',
        'domain',
      );
      assertError(
        await api.client(admin).GET('/v1/notices', { params: { query: { domain: 'nowhere.test' } } }),
        404,
        'not_found',
        'domain',
      );
    });

    test('a bad query is 400 naming it; a sending key is 403; no credential is 401', async () => {
      const bad = await api.fetch('/v1/notices?colour=red', { headers: { authorization: `Bearer ${admin}` } });
      assert.equal(bad.status, 400);
      assert.equal(((await bad.json()) as { error: { field: string } }).error.field, 'colour');
      assertError(await api.client(main.key).GET('/v1/notices'), 403, 'forbidden');
      assertError(await api.client().GET('/v1/notices'), 401, 'invalid_key');
    });
  });
}
