import { sql, type Kysely } from 'kysely';
import type { Database } from '../storage/database.js';
import { SEALED_HEAD_LENGTH, SEALED_PREFIX } from './secret-box.js';

/**
 * Every secret Posthorn keeps in its database, sealed when a key is set. API keys, SMTP
 * passwords and dashboard passwords are not here: they are stored only as hashes.
 */
export const SECRET_FIELDS = [
  { field: 'domains.dkim_private_key', table: 'domains', column: 'dkim_private_key', id: 'id', keys: null },
  // A DKIM rotation's new key while its record is pending (domains/dkim-rotation.ts).
  {
    field: 'domains.dkim_pending_private_key',
    table: 'domains',
    column: 'dkim_pending_private_key',
    id: 'id',
    keys: null,
  },
  { field: 'domains.ed25519_private_key', table: 'domains', column: 'ed25519_private_key', id: 'id', keys: null },
  { field: 'webhook_endpoints.secrets', table: 'webhook_endpoints', column: 'secrets', id: 'id', keys: null },
  // Dashboard users' TOTP secrets, confirmed and pending (users/totp.ts).
  { field: 'users.totp_secret', table: 'users', column: 'totp_secret', id: 'id', keys: null },
  { field: 'users.totp_pending', table: 'users', column: 'totp_pending', id: 'id', keys: null },
  // The HMAC keys behind return-path and tracking tokens (secrets/stored-secret.ts).
  {
    field: 'settings.value',
    table: 'settings',
    column: 'value',
    id: 'key',
    keys: ['return_path_secret', 'tracking_secret'],
  },
] as const satisfies readonly {
  field: string;
  table: keyof Database;
  column: string;
  id: string;
  keys: readonly string[] | null;
}[];

export type SecretField = (typeof SECRET_FIELDS)[number];
export type SecretFieldName = SecretField['field'];

/** The GCM additional data of one stored secret: its field and row, so it opens only where it was stored. */
export function secretContext(field: SecretFieldName, rowId: string): string {
  return `${field}:${rowId}`;
}

/** How many values of a field are sealed with each key (`keyId` null: plaintext). */
export interface SealedCount {
  field: SecretFieldName;
  keyId: string | null;
  count: number;
}

/** Counts each field's values by the key that sealed them, in one grouped query per field (no values leave the database). */
export async function countSecrets(db: Kysely<Database>): Promise<SealedCount[]> {
  const out: SealedCount[] = [];
  for (const f of SECRET_FIELDS) {
    const col = sql.ref(f.column);
    const only = f.keys === null ? sql`` : sql` AND ${sql.ref(f.id)} IN (${sql.join(f.keys.map((k) => sql.lit(k)))})`;
    const { rows } = await sql<{ head: string; n: number | string }>`
      SELECT CASE WHEN ${col} LIKE ${`${SEALED_PREFIX}%`} THEN substr(${col}, 1, ${sql.lit(SEALED_HEAD_LENGTH)}) ELSE '' END AS head, count(*) AS n
      FROM ${sql.table(f.table)} WHERE ${col} IS NOT NULL${only} GROUP BY 1`.execute(db);
    for (const r of rows) {
      out.push({
        field: f.field,
        keyId: r.head === '' ? null : r.head.slice(SEALED_PREFIX.length),
        count: Number(r.n),
      });
    }
  }
  return out;
}
