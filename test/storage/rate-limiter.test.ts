import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createDbRateLimiter } from '../../src/rate-limit/db-rate-limiter.js';
import { createMemoryRateLimiter, type RateLimiter } from '../../src/rate-limit/rate-limiter.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { createTestDb, testDialects, type TestDb } from '../helpers/test-db.js';

const NOW = Date.UTC(2026, 10, 21, 12);

async function burst(limiter: RateLimiter, perSecond: number, count: number, now: number): Promise<number> {
  let ok = 0;
  for (let i = 0; i < count; i++) if ((await limiter.take('k', perSecond, now)).ok) ok++;
  return ok;
}

// Both limiters, the database one on every dialect: they must agree, since a deployment uses one or
// the other for the same limit.
for (const dialect of testDialects()) {
  describe(`rate limiters (${dialect})`, () => {
    let db: TestDb;
    beforeEach(async () => {
      db = await createTestDb(dialect);
    });
    afterEach(() => db.close());

    for (const [name, make] of [
      ['memory', () => createMemoryRateLimiter()],
      ['database', () => createDbRateLimiter(db.db)],
    ] as const) {
      test(`${name}: a burst of exactly the rate, then refusal with the wait, then one more after it`, async () => {
        const limiter = make();
        assert.equal(await burst(limiter, 5, 8, NOW), 5);
        const refused = await limiter.take('k', 5, NOW);
        assert.ok(!refused.ok && refused.retryAfterMs > 0 && refused.retryAfterMs <= 200, JSON.stringify(refused));
        assert.equal((await limiter.take('k', 5, NOW + 200)).ok, true);
        assert.equal((await limiter.take('other', 5, NOW)).ok, true, 'keys are independent');
      });

      test(`${name}: rates above 1,000/s are not capped at 1,000 (sub-millisecond intervals)`, async () => {
        const limiter = make();
        assert.equal(await burst(limiter, 5000, 3000, NOW), 3000);
      });
    }
    if (dialect === 'postgres')
      test('database: three nodes (three connection pools) taking at once share one limit exactly', async () => {
        const pools = [0, 1].map(() =>
          openDatabase({ databaseUrl: db.env.POSTHORN_DATABASE_URL as string, dataDir: db.dataDir }),
        );
        try {
          const limiters = [createDbRateLimiter(db.db), ...pools.map((p) => createDbRateLimiter(p.db))];
          // 60 concurrent asks at one instant: the burst (the rate) passes, wherever they land.
          const first = await Promise.all(Array.from({ length: 60 }, (_, i) => limiters[i % 3]!.take('k', 5, NOW)));
          assert.equal(first.filter((r) => r.ok).length, 5);
          // Then one per interval (200 ms at 5/s), over every node together: 5 a second.
          let ok = 0;
          for (let ms = 200; ms <= 2000; ms += 200) {
            const round = await Promise.all(
              Array.from({ length: 30 }, (_, i) => limiters[i % 3]!.take('k', 5, NOW + ms)),
            );
            ok += round.filter((r) => r.ok).length;
          }
          assert.equal(ok, 10, 'two seconds after the burst: ten more, not thirty');
        } finally {
          for (const p of pools) await p.close();
        }
      });
  });
}
