import { sql } from 'kysely';
import { ConfigError } from '../config/load.js';
import type { Deps } from '../deps.js';
import { isSealed, missingKeyError, secretBox, sealedKeyId } from './secret-box.js';
import { countSecrets, SECRET_FIELDS, secretContext, type SecretField, type SecretFieldName } from './secret-fields.js';

/**
 * Refuses to run when the database holds secrets sealed with a key the configuration lacks: a
 * ConfigError naming the variable to set, at start-up rather than at the first message signed.
 */
export async function assertSecretKeys(deps: Pick<Deps, 'db' | 'config'>): Promise<void> {
  const box = secretBox(deps.config);
  const missing = new Map<string, number>();
  for (const c of await countSecrets(deps.db)) {
    if (c.keyId !== null && box.keyFor(c.keyId) === undefined)
      missing.set(c.keyId, (missing.get(c.keyId) ?? 0) + c.count);
  }
  const first = missing.entries().next().value;
  if (first !== undefined)
    throw missingKeyError(
      box.keyring,
      first[0],
      `${first[1]} secret${first[1] === 1 ? '' : 's'} (DKIM keys, webhook secrets, HMAC keys)`,
    );
}

/** `posthorn secrets status`: the keys configured and how each field's values are stored. */
export interface SecretsStatus {
  key: { id: string; source: string } | null;
  old_keys: string[];
  fields: { field: SecretFieldName; plaintext: number; current_key: number; old_keys: number; unknown_key: number }[];
  /** True when every secret is sealed with the current key (nothing for `secrets rotate` to do). */
  all_current: boolean;
}

export async function secretsStatus(deps: Pick<Deps, 'db' | 'config'>): Promise<SecretsStatus> {
  const box = secretBox(deps.config);
  const { current, currentSource, old } = box.keyring;
  const fields = SECRET_FIELDS.map((f) => ({
    field: f.field,
    plaintext: 0,
    current_key: 0,
    old_keys: 0,
    unknown_key: 0,
  }));
  for (const c of await countSecrets(deps.db)) {
    const row = fields.find((f) => f.field === c.field)!;
    if (c.keyId === null) row.plaintext += c.count;
    else if (c.keyId === current?.id) row.current_key += c.count;
    else if (old.some((k) => k.id === c.keyId)) row.old_keys += c.count;
    else row.unknown_key += c.count;
  }
  return {
    key: current === null ? null : { id: current.id, source: currentSource! },
    old_keys: old.map((k) => k.id),
    fields,
    all_current: current !== null && fields.every((f) => f.plaintext + f.old_keys + f.unknown_key === 0),
  };
}

/** What `posthorn secrets rotate` changed. */
export interface RotateResult {
  key: string;
  /** Values that were plaintext and are now sealed. */
  encrypted: number;
  /** Values sealed with an old key, now sealed with the current one. */
  reencrypted: number;
  /** Already sealed with the current key. */
  unchanged: number;
  /**
   * False when old copies of what was replaced may still sit in the database files: SQLite's WAL
   * could not be emptied (a server was reading), or PostgreSQL's tables could not be rewritten.
   * Backups made before the rotation hold the old values either way.
   */
  old_copies_removed: boolean;
}

/**
 * Seals every secret with the current key: plaintext ones (a key newly set) and those sealed with
 * an old key. Row by row, each update conditional on the value read, so a secret changed meanwhile
 * (a webhook secret rotated by a running server) is read again rather than overwritten. Safe to
 * run while servers run, and to run again after an interruption.
 */
export async function rotateSecrets(deps: Pick<Deps, 'db' | 'config' | 'dialect'>): Promise<RotateResult> {
  const box = secretBox(deps.config);
  const current = box.keyring.current;
  if (current === null) {
    throw new ConfigError(
      'POSTHORN_SECRETS_KEY: not set; secrets rotate encrypts every secret with it (make one with: openssl rand -base64 32)',
    );
  }
  await assertSecretKeys(deps);
  // SQLite leaves an updated row's old bytes in the page, and the WAL keeps the old page: with
  // secure_delete the old value is zeroed as it is replaced, and the checkpoint below writes the
  // pages back and empties the WAL, so no plaintext copy stays in the files (a backup of them).
  if (deps.dialect === 'sqlite') await sql`PRAGMA secure_delete = ON`.execute(deps.db);
  const out: RotateResult = { key: current.id, encrypted: 0, reencrypted: 0, unchanged: 0, old_copies_removed: true };
  for (const f of SECRET_FIELDS) {
    for (const row of await readField(deps, f)) {
      let stored: string | null = row.value;
      for (let attempt = 0; stored !== null; attempt++) {
        if (sealedKeyId(stored) === current.id) {
          out.unchanged++;
          break;
        }
        const context = secretContext(f.field, row.id);
        const sealed = box.seal(box.open(stored, context), context);
        if (await replaceIf(deps, f, row.id, stored, sealed)) {
          if (isSealed(stored)) out.reencrypted++;
          else out.encrypted++;
          break;
        }
        if (attempt >= 5) throw new Error(`${context}: changed under every one of 6 attempts to re-encrypt it`);
        stored = (await readField(deps, f, row.id))[0]?.value ?? null; // changed (or removed) meanwhile
      }
    }
  }
  if (out.encrypted + out.reencrypted > 0) out.old_copies_removed = await removeOldCopies(deps);
  return out;
}

/**
 * Old row versions keep the replaced values: SQLite in its WAL until a checkpoint, PostgreSQL in
 * dead tuples until the table is rewritten. VACUUM FULL rewrites the three small tables (a brief
 * exclusive lock on each); a checkpoint that a reader keeps busy is reported, not waited for.
 */
async function removeOldCopies(deps: Pick<Deps, 'db' | 'dialect'>): Promise<boolean> {
  if (deps.dialect === 'sqlite') {
    const { rows } = await sql<{ busy: number }>`PRAGMA wal_checkpoint(TRUNCATE)`.execute(deps.db);
    return rows[0]?.busy === 0;
  }
  try {
    const tables = [...new Set(SECRET_FIELDS.map((f) => f.table))];
    await sql`VACUUM FULL ${sql.join(tables.map((t) => sql.table(t)))}`.execute(deps.db);
    return true;
  } catch {
    return false;
  }
}

async function readField(
  deps: Pick<Deps, 'db'>,
  f: SecretField,
  id?: string,
): Promise<{ id: string; value: string | null }[]> {
  const only = f.keys === null ? sql`` : sql` AND ${sql.ref(f.id)} IN (${sql.join(f.keys.map((k) => sql.lit(k)))})`;
  const one = id === undefined ? sql`` : sql` AND ${sql.ref(f.id)} = ${id}`;
  const { rows } = await sql<{ id: string; value: string | null }>`
    SELECT ${sql.ref(f.id)} AS id, ${sql.ref(f.column)} AS value FROM ${sql.table(f.table)}
    WHERE ${sql.ref(f.column)} IS NOT NULL${only}${one}`.execute(deps.db);
  return rows;
}

async function replaceIf(
  deps: Pick<Deps, 'db'>,
  f: SecretField,
  id: string,
  was: string,
  next: string,
): Promise<boolean> {
  const res = await sql`UPDATE ${sql.table(f.table)} SET ${sql.ref(f.column)} = ${next}
    WHERE ${sql.ref(f.id)} = ${id} AND ${sql.ref(f.column)} = ${was}`.execute(deps.db);
  return Number(res.numAffectedRows ?? 0) === 1;
}
