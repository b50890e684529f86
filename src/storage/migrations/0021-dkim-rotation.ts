import { sql, type Kysely } from 'kysely';

/**
 * DKIM key rotation without a gap (docs/delivery.md). A rotation makes a second RSA
 * key under a new selector that waits, `pending`, until its record is found in DNS; only then does
 * signing move to it, and the old selector's record stays listed, `retired`, until a grace period
 * ends, so mail signed with the old key just before the switch still verifies (RFC 6376 §3.6.2:
 * verifiers fetch the key when the message arrives, not when it was signed).
 *
 * - `dkim_key_created_at`: when the signing key began to sign (the schedule's age), set to the
 *   domain's `created_at` for the keys made before this migration.
 * - `dkim_rotate_days`: the domain's own schedule; null follows POSTHORN_DKIM_ROTATE_DAYS, 0 never.
 * - `dkim_pending_*`: the new key (the private key sealed like `dkim_private_key`), since when it
 *   waits, the last check of its record (JSON), and when the "not published yet" notice went out.
 * - `dkim_retired_*`: the old selector and public key (its record, to keep listed) and until when.
 *   The old private key is dropped at the switch: nothing signs with it any more.
 * Plain ALTER TABLE ADD COLUMN on both databases: nullable columns need no table rebuild.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const columns: [string, 'text' | 'bigint' | 'integer'][] = [
    ['dkim_key_created_at', 'bigint'],
    ['dkim_rotate_days', 'integer'],
    ['dkim_pending_selector', 'text'],
    ['dkim_pending_private_key', 'text'],
    ['dkim_pending_public_key', 'text'],
    ['dkim_pending_since', 'bigint'],
    ['dkim_pending_check', 'text'],
    ['dkim_pending_warned_at', 'bigint'],
    ['dkim_retired_selector', 'text'],
    ['dkim_retired_public_key', 'text'],
    ['dkim_retired_until', 'bigint'],
  ];
  for (const [name, type] of columns) await db.schema.alterTable('domains').addColumn(name, type).execute();
  await sql`UPDATE domains SET dkim_key_created_at = created_at`.execute(db);
}
