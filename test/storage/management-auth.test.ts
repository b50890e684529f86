import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../helpers/test-db.js';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { revokeAccountToken } from '../../src/credentials/account-tokens.js';
import { CLI_ACTOR } from '../../src/core/actor.js';

for (const dialect of testDialects()) {
  describe(`management API credentials (${dialect})`, () => {
    let api: ApiHarness;
    let acme: Seeded;
    before(async () => {
      api = await startApiHarness(dialect);
      acme = await seedDomain(api.deps, { account: 'acme', domain: 'acme.test' });
      await seedDomain(api.deps, { account: 'other', domain: 'other.test' });
    });
    after(() => api.close());

    test('the OpenAPI document is served without a credential', async () => {
      const { data, response } = await api.client().GET('/v1/openapi.json');
      assert.equal(response.status, 200);
      assert.equal((data as { openapi: string }).openapi, '3.1.0');
    });

    test("an account token reads its own account's audit log, with the token's creation in it", async () => {
      const token = await api.token('acme', 'admin', 'deploy-bot');
      await api.token('other', 'admin', 'theirs');
      const { data, response } = await api.client(token).GET('/v1/audit');
      assert.equal(response.status, 200);
      const created = data!.entries.filter((e) => e.action === 'token.create').map((e) => e.target);
      assert.ok(created.includes('deploy-bot'), JSON.stringify(data));
      assert.ok(!created.includes('theirs'), 'another account’s entries leak into this one');
      assert.equal(data!.entries[0]!.actor, 'cli');
    });

    test('a sending key on a management route is 403 forbidden, naming what is needed', async () => {
      const { error, response } = await api.client(acme.key).GET('/v1/audit');
      assert.equal(response.status, 403);
      assert.equal(error!.error.type, 'forbidden');
      assert.match(error!.error.message, /account token/);
    });

    test('an account token on POST /v1/send is 403 forbidden: sending needs the domain key', async () => {
      const token = await api.token('acme');
      const res = await api.fetch('/v1/send', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(res.status, 403);
      assert.equal(((await res.json()) as { error: { type: string } }).error.type, 'forbidden');
    });

    test('a revoked token is 401 on its very next request, with the Bearer challenge', async () => {
      const token = await api.token('acme', 'admin', 'short-lived');
      assert.equal((await api.client(token).GET('/v1/audit')).response.status, 200);
      await revokeAccountToken(api.deps, 'acme', 'short-lived', CLI_ACTOR);
      const { error, response } = await api.client(token).GET('/v1/audit');
      assert.equal(response.status, 401);
      assert.equal(error!.error.type, 'invalid_key');
      assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer realm="posthorn", error="invalid_token"/);
    });

    test('a malformed or unknown token is the same 401 as a missing one', async () => {
      for (const token of [`pha_00000000_${'A'.repeat(43)}`, 'pha_nonsense', undefined]) {
        const { error, response } = await api.client(token).GET('/v1/audit');
        assert.equal(response.status, 401, String(token));
        assert.equal(error!.error.type, 'invalid_key');
      }
    });

    test('a bad query parameter is 400 naming it', async () => {
      const token = await api.token('acme');
      const { error, response } = await api.client(token).GET('/v1/audit', { params: { query: { limit: 0 } } });
      assert.equal(response.status, 400);
      assert.equal(error!.error.field, 'limit');
      const bad = await api.client(token).GET('/v1/audit', { params: { query: { cursor: 'not-a-cursor' } } });
      assert.equal(bad.response.status, 400);
      assert.equal(bad.error!.error.field, 'cursor');
    });

    test('audit paging: limit and next_cursor walk every entry once, newest first', async () => {
      const token = await api.token('acme');
      for (let i = 0; i < 4; i++) await api.token('acme', 'viewer', `pager-${i}`);
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 50; page++) {
        const { data } = await api.client(token).GET('/v1/audit', {
          params: { query: { limit: 2, ...(cursor ? { cursor } : {}) } },
        });
        seen.push(...data!.entries.map((e) => `${e.at} ${e.action} ${e.target}`));
        if (data!.next_cursor === null) break;
        cursor = data!.next_cursor;
      }
      const all = (await api.client(token).GET('/v1/audit', { params: { query: { limit: 1000 } } })).data!.entries;
      assert.deepEqual(
        seen,
        all.map((e) => `${e.at} ${e.action} ${e.target}`),
      );
      assert.equal(new Set(seen).size, seen.length);
    });
  });
}
