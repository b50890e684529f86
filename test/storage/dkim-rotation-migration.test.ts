// Migration 0021 (DKIM rotation) on each test database: a domain from before it keeps its key and
// gets no rotation state, and its key's age counts from when the domain was added.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../../src/storage/migrate.js';
import { createTestDb, testDialects } from '../helpers/test-db.js';

for (const dialect of testDialects()) {
  describe(`migration 0021, DKIM rotation (${dialect})`, () => {
    test('an existing domain keeps its key; its key age is its creation; nothing is pending or retired', async () => {
      const t = await createTestDb(dialect, { migrateUpTo: '0017-bounce-reason' });
      try {
        await t.db
          .insertInto('accounts')
          .values({ id: 'acc_1', name: 'acme', rate_limit: 5, monthly_quota: null, created_at: 1 })
          .execute();
        await t.db
          .insertInto('domains')
          .values({
            id: 'dom_1',
            account_id: 'acc_1',
            name: 'example.com',
            status: 'verified',
            sandbox: 0,
            dkim_selector: 'ph202611',
            dkim_private_key: 'private',
            dkim_public_key: 'public',
            verified_at: 1,
            checked_at: null,
            failing_since: null,
            last_checks: null,
            created_at: 1_764_000_000_000,
            ed25519_selector: null,
            ed25519_private_key: null,
            ed25519_public_key: null,
            track_opens: 0,
            track_clicks: 0,
            unsubscribe: 0,
            complaint_warned_at: null,
            deleted_at: null,
          })
          .execute();

        await migrate(t.db, dialect);
        await migrate(t.db, dialect); // another process starting: nothing more happens

        const d = await t.db.selectFrom('domains').selectAll().executeTakeFirstOrThrow();
        assert.deepEqual(
          [d.dkim_selector, d.dkim_private_key, d.dkim_public_key, Number(d.dkim_key_created_at)],
          ['ph202611', 'private', 'public', 1_764_000_000_000],
        );
        assert.deepEqual(
          [
            d.dkim_rotate_days,
            d.dkim_pending_selector,
            d.dkim_pending_private_key,
            d.dkim_pending_public_key,
            d.dkim_pending_since,
            d.dkim_pending_check,
            d.dkim_pending_warned_at,
            d.dkim_retired_selector,
            d.dkim_retired_public_key,
            d.dkim_retired_until,
          ],
          [null, null, null, null, null, null, null, null, null, null],
        );
      } finally {
        await t.close();
      }
    });
  });
}
