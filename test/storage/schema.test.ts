import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { migrate } from '../../src/storage/migrate.js';
import { createTestDb, testDialects } from '../helpers/test-db.js';

for (const dialect of testDialects()) {
  describe(`schema (${dialect})`, () => {
    test('migrations are idempotent and allow one active key per domain only', async () => {
      const t = await createTestDb(dialect);
      try {
        await migrate(t.db, dialect); // a second run (another process starting) changes nothing
        await t.db
          .insertInto('accounts')
          .values({ id: 'acc_1', name: 'a', rate_limit: 5, monthly_quota: null, created_at: 1 })
          .execute();
        await t.db
          .insertInto('domains')
          .values({
            id: 'dom_1',
            account_id: 'acc_1',
            name: 'example.com',
            status: 'pending',
            sandbox: 0,
            dkim_selector: 's',
            dkim_private_key: 'k',
            dkim_public_key: 'p',
            verified_at: null,
            checked_at: null,
            failing_since: null,
            last_checks: null,
            created_at: 1,
            track_opens: 0,
            track_clicks: 0,
            unsubscribe: 0,
            complaint_warned_at: null,
          })
          .execute();
        const key = (id: string, revoked: number | null) => ({
          id,
          domain_id: 'dom_1',
          prefix: 'ph_x',
          key_hash: id,
          created_at: 1,
          revoked_at: revoked,
        });
        await t.db.insertInto('api_keys').values(key('key_1', 5)).execute();
        await t.db.insertInto('api_keys').values(key('key_2', null)).execute();
        await assert.rejects(t.db.insertInto('api_keys').values(key('key_3', null)).execute());
        const big = await t.db.selectFrom('accounts').select('created_at').executeTakeFirstOrThrow();
        assert.equal(typeof big.created_at, 'number');
      } finally {
        await t.close();
      }
    });

    test('migration 0007 keeps every byte of the sandbox mailbox, now stored as bytes', async () => {
      const t = await createTestDb(dialect, { migrateUpTo: '0006-partition-events' });
      try {
        // Every byte value but NUL (PostgreSQL text cannot hold it), as the latin1 text rows held them.
        const bytes = Buffer.from(Array.from({ length: 255 }, (_, i) => i + 1));
        const rows = Array.from({ length: 120 }, (_, n) => ({
          id: `sbx_${String(n).padStart(3, '0')}`,
          message_id: `msg_${n}`,
          mail_from: 'b@bounce.example.com',
          recipients: '["r@example.org"]',
          raw: Buffer.concat([Buffer.from(`Subject: ${n}\r\n\r\n`), bytes]).toString('latin1'),
          created_at: n,
          triggers_pending: 0,
        }));
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table as it was before 0007
        await (t.db as any).insertInto('sandbox_messages').values(rows).execute();
        await migrate(t.db, dialect);
        const after = await t.db.selectFrom('sandbox_messages').select(['id', 'raw']).orderBy('id').execute();
        assert.equal(after.length, rows.length);
        for (const [i, r] of after.entries()) {
          assert.ok(Buffer.isBuffer(r.raw), `${r.id} is bytes`);
          assert.deepEqual(r.raw, Buffer.from(rows[i]!.raw, 'latin1'), r.id);
        }
      } finally {
        await t.close();
      }
    });
  });
}

test('migrate reads again only when another schema vanished during its catalog read (3F000)', async () => {
  const { isOtherSchemaGone } = await import('../../src/storage/migrate.js');
  assert.equal(isOtherSchemaGone({ code: '3F000', message: 'schema "t_other" does not exist' }, 't_ours'), true);
  assert.equal(isOtherSchemaGone({ code: '3F000', message: 'schema "t_ours" does not exist' }, 't_ours'), false);
  assert.equal(isOtherSchemaGone({ code: '42P01', message: 'relation "x" does not exist' }, 't_ours'), false);
  assert.equal(isOtherSchemaGone({ code: '3F000', message: 'schema "t_other" does not exist' }, undefined), false);
});

test("a catalog read that races another schema's migration (42703 or 42P01) is read again, on PostgreSQL only", async () => {
  const { isCatalogReadRace } = await import('../../src/storage/migrate.js');
  const column = { code: '42703', message: 'column "message_id" of relation "jobs" does not exist' };
  assert.equal(isCatalogReadRace(column, 't_ours'), true);
  assert.equal(isCatalogReadRace({ code: '42P01', message: 'relation "jobs" does not exist' }, 't_ours'), true);
  assert.equal(isCatalogReadRace({ code: '3F000', message: 'schema "t_other" does not exist' }, 't_ours'), true);
  assert.equal(isCatalogReadRace({ code: '3F000', message: 'schema "t_ours" does not exist' }, 't_ours'), false);
  assert.equal(isCatalogReadRace({ code: '23505', message: 'duplicate key' }, 't_ours'), false);
  assert.equal(isCatalogReadRace(column, undefined), false, 'SQLite has no other schemas to race');
});
