import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../storage/database.js';

/** A key is remembered 24 hours (docs/api.md, Idempotency). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** An in-flight claim not completed in this time was abandoned (a crash): a retry may take it over. */
const CLAIM_LEASE_MS = 60_000;

/** What a stored response looks like: the HTTP status, body and Retry-After it was sent with. */
export interface StoredResponse {
  status: number;
  body: unknown;
}

export type Claim =
  { kind: 'claimed' } | { kind: 'replay'; response: StoredResponse } | { kind: 'in_flight' } | { kind: 'reused' };

// 1 to 255 printable ASCII characters (docs/api.md, Idempotency).
const KEY_SHAPE = /^[\x20-\x7e]{1,255}$/;

/** True when an Idempotency-Key header value is acceptable. */
export function isValidIdempotencyKey(key: string): boolean {
  return KEY_SHAPE.test(key);
}

/**
 * Claims `key` for this request in one atomic upsert, so of 50 concurrent requests exactly one
 * proceeds. An existing record decides the rest (the IETF Idempotency-Key draft's codes): same
 * fingerprint and done → replay; same and in flight → 409; different fingerprint → 422.
 */
export async function claimIdempotencyKey(
  db: Kysely<Database>,
  domainId: string,
  key: string,
  fingerprint: string,
  now: number,
): Promise<Claim> {
  const fresh = {
    fingerprint,
    state: 'in_flight' as const,
    response_status: null,
    response_body: null,
    locked_until: now + CLAIM_LEASE_MS,
    expires_at: now + IDEMPOTENCY_TTL_MS,
    created_at: now,
  };
  const taken = await db
    .insertInto('idempotency_keys')
    .values({ domain_id: domainId, key, ...fresh })
    .onConflict((oc) =>
      oc
        .columns(['domain_id', 'key'])
        .doUpdateSet(fresh)
        .where((eb) =>
          eb.or([
            eb('idempotency_keys.expires_at', '<=', now),
            eb.and([eb('idempotency_keys.state', '=', 'in_flight'), eb('idempotency_keys.locked_until', '<=', now)]),
          ]),
        ),
    )
    .returning('key')
    .executeTakeFirst();
  if (taken) return { kind: 'claimed' };
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'state', 'response_status', 'response_body'])
    .where('domain_id', '=', domainId)
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row) return claimIdempotencyKey(db, domainId, key, fingerprint, now); // purged in between: try again
  if (row.fingerprint !== fingerprint) return { kind: 'reused' };
  if (row.state === 'in_flight' || row.response_status === null) return { kind: 'in_flight' };
  return { kind: 'replay', response: { status: row.response_status, body: JSON.parse(row.response_body ?? 'null') } };
}

/** Records the response of a claimed key (inside the transaction that made the outcome durable). */
export async function completeIdempotencyKey(
  db: Kysely<Database> | Transaction<Database>,
  domainId: string,
  key: string,
  response: StoredResponse,
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'done', response_status: response.status, response_body: JSON.stringify(response.body) })
    .where('domain_id', '=', domainId)
    .where('key', '=', key)
    .execute();
}

/** Gives a claim back (rate limited, transient refusal, or a fault) so a retry with the key can proceed. */
export async function releaseIdempotencyKey(db: Kysely<Database>, domainId: string, key: string): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('domain_id', '=', domainId)
    .where('key', '=', key)
    .where('state', '=', 'in_flight')
    .execute();
}
