// Migration 0010 (domain deletion) on each test database: existing domains and everything that
// refers to them survive it, foreign keys still hold, and a name is unique among live domains only.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../../src/storage/migrate.js';
import { createTestDb, testDialects } from '../helpers/test-db.js';

const domainRow = (id: string, name: string) => ({
  id,
  account_id: 'acc_1',
  name,
  status: 'verified' as const,
  sandbox: 0,
  dkim_selector: 'ph202611',
  dkim_private_key: 'private',
  dkim_public_key: 'public',
  verified_at: 1,
  checked_at: null,
  failing_since: null,
  last_checks: null,
  created_at: 1,
  track_opens: 1,
  track_clicks: 0,
  unsubscribe: 1,
  complaint_warned_at: null,
});

for (const dialect of testDialects()) {
  describe(`migration 0010, domain deletion (${dialect})`, () => {
    test('domains and their keys, logins and webhooks survive; names are unique among live domains', async () => {
      const t = await createTestDb(dialect, { migrateUpTo: '0009-management' });
      try {
        await t.db
          .insertInto('accounts')
          .values({ id: 'acc_1', name: 'acme', rate_limit: 5, monthly_quota: null, created_at: 1 })
          .execute();
        await t.db
          .insertInto('domains')
          .values({ ...domainRow('dom_1', 'example.com'), ed25519_selector: 'ph202611e' })
          .execute();
        await t.db
          .insertInto('api_keys')
          .values({ id: 'key_1', domain_id: 'dom_1', prefix: 'ph_1', key_hash: 'h1', created_at: 1, revoked_at: null })
          .execute();
        await t.db
          .insertInto('smtp_credentials')
          .values({
            id: 'cred_1',
            domain_id: 'dom_1',
            username: 'u1',
            password_hash: 'x',
            created_at: 1,
            revoked_at: null,
          })
          .execute();

        await migrate(t.db, dialect);
        await migrate(t.db, dialect); // another process starting: nothing more happens

        const kept = await t.db.selectFrom('domains').selectAll().executeTakeFirstOrThrow();
        assert.deepEqual(
          {
            ...kept,
            verified_at: Number(kept.verified_at),
            created_at: Number(kept.created_at),
            dkim_key_created_at: Number(kept.dkim_key_created_at),
          },
          {
            ...domainRow('dom_1', 'example.com'),
            ed25519_selector: 'ph202611e',
            ed25519_private_key: null,
            ed25519_public_key: null,
            deleted_at: null,
            // Added by 0021 (DKIM rotation): the key's age counts from the domain's creation.
            dkim_key_created_at: 1,
            dkim_rotate_days: null,
            dkim_pending_selector: null,
            dkim_pending_private_key: null,
            dkim_pending_public_key: null,
            dkim_pending_since: null,
            dkim_pending_check: null,
            dkim_pending_warned_at: null,
            dkim_retired_selector: null,
            dkim_retired_public_key: null,
            dkim_retired_until: null,
          },
        );
        const key = await t.db
          .selectFrom('api_keys')
          .innerJoin('domains', 'domains.id', 'api_keys.domain_id')
          .select(['api_keys.id', 'domains.name'])
          .executeTakeFirstOrThrow();
        assert.deepEqual(key, { id: 'key_1', name: 'example.com' });

        // Foreign keys still hold (SQLite's rebuild turned them off only for its own transaction).
        await assert.rejects(
          t.db
            .insertInto('api_keys')
            .values({ id: 'key_2', domain_id: 'dom_x', prefix: 'p', key_hash: 'h2', created_at: 1, revoked_at: null })
            .execute(),
        );
        // One live domain per name; a deleted one frees it.
        await assert.rejects(t.db.insertInto('domains').values(domainRow('dom_2', 'example.com')).execute());
        await t.db.updateTable('domains').set({ deleted_at: 2 }).where('id', '=', 'dom_1').execute();
        await t.db.insertInto('domains').values(domainRow('dom_2', 'example.com')).execute();
        await assert.rejects(t.db.insertInto('domains').values(domainRow('dom_3', 'example.com')).execute());
        const names = await t.db.selectFrom('domains').select(['id', 'deleted_at']).orderBy('id').execute();
        assert.deepEqual(
          names.map((n) => [n.id, n.deleted_at === null ? null : Number(n.deleted_at)]),
          [
            ['dom_1', 2],
            ['dom_2', null],
          ],
        );
      } finally {
        await t.close();
      }
    });
  });
}
