// The per-account rate limit and monthly quota hold across nodes (docs/scaling.md): three API
// nodes — each its own app, submit pipeline and connection pool on one PostgreSQL database — taking
// sends for one account at once accept exactly what one node would. SQLite is one node by design
// (its rate limiter lives in the process), so this runs on PostgreSQL only.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/build-app.js';
import { createDbRateLimiter } from '../../src/rate-limit/db-rate-limiter.js';
import { openDatabase, type OpenDatabase } from '../../src/storage/open-database.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';
import { seedDomain } from '../helpers/seed.js';
import { message, postSend } from '../helpers/send-client.js';

for (const dialect of testDialects().filter((d) => d === 'postgres')) {
  describe(`limits across three nodes (${dialect})`, () => {
    let deps: TestDeps | undefined;
    const apps: FastifyInstance[] = [];
    const pools: OpenDatabase[] = [];
    afterEach(async () => {
      for (const a of apps.splice(0)) await a.close();
      for (const p of pools.splice(0)) await p.close();
      await deps?.close();
      deps = undefined;
    });

    /** Three nodes: the test deps' own, and two more with their own pool and database rate limiter. */
    const nodes = async (): Promise<FastifyInstance[]> => {
      deps = await createTestDeps(dialect);
      const d = deps;
      apps.push(buildApp(d));
      for (let i = 0; i < 2; i++) {
        const open = openDatabase({ databaseUrl: d.config.databaseUrl, dataDir: d.testDb.dataDir });
        pools.push(open);
        apps.push(buildApp({ ...d, db: open.db, limiter: createDbRateLimiter(open.db) }));
      }
      return apps;
    };

    test('a 5/s limit: of 45 sends at one instant over three nodes, 5 pass; then 5 per second', async () => {
      const [a, b, c] = await nodes();
      const s = await seedDomain(deps!, { domain: 'acme.test', rateLimit: 5 });
      const burst = async () =>
        Promise.all(
          Array.from({ length: 45 }, (_, i) =>
            postSend([a, b, c][i % 3]!, s.key, message('acme.test', { to: `r${i}@example.org` })),
          ),
        );
      const first = await burst();
      assert.equal(first.filter((r) => r.status === 202).length, 5);
      assert.ok(
        first.filter((r) => r.status !== 202).every((r) => r.status === 429 && r.body.error.type === 'rate_limited'),
      );
      deps!.clock.advance(1000);
      assert.equal((await burst()).filter((r) => r.status === 202).length, 5, 'a second later: 5 more, not 15');
    });

    test('a quota of 50: of 90 one-recipient sends at once over three nodes, exactly 50 are accepted', async () => {
      const [a, b, c] = await nodes();
      const s = await seedDomain(deps!, { domain: 'acme.test', rateLimit: 100_000, quota: 50 });
      const res = await Promise.all(
        Array.from({ length: 90 }, (_, i) =>
          postSend([a, b, c][i % 3]!, s.key, message('acme.test', { to: `r${i}@example.org` })),
        ),
      );
      assert.equal(res.filter((r) => r.status === 202).length, 50);
      assert.ok(
        res.filter((r) => r.status !== 202).every((r) => r.status === 429 && r.body.error.type === 'quota_exceeded'),
      );
      const volume = await deps!.db.selectFrom('volume').select('count').executeTakeFirstOrThrow();
      assert.equal(Number(volume.count), 50);
      assert.equal((await deps!.db.selectFrom('recipients').select('id').execute()).length, 50);
    });
  });
}
