// The send pipeline's statements on PostgreSQL, run on the pg pool directly instead of through
// Kysely. Why: a send on PostgreSQL was three round trips of its own (the key, the rate limit, the
// suppression list) and nine per group commit (BEGIN, six statements, COMMIT), each an unnamed
// statement PostgreSQL parsed and planned afresh. Here a send's checks are one statement and a
// group commit of messages without a quota is one statement (its own transaction), both named
// prepared statements (`{ name, text, values }`, which Kysely does not send), so PostgreSQL plans
// each once per connection. docs/architecture.md ("The submit pipeline") and docs/scaling.md
// (PostgreSQL) describe what this costs and what it needs from a connection pooler. SQLite, and
// PostgreSQL under a rate limiter that is not the database's, run the Kysely statements of
// send/submit.ts and send/persist-messages.ts; both paths keep the same rules, and the tests of
// test/storage/ run both.
import type pg from 'pg';
import type { Kysely } from 'kysely';
import type { Database } from '../storage/database.js';
import { pgPool } from '../storage/open-database.js';
import { gcraRetryAfterMs, gcraUpsertSql } from '../rate-limit/db-rate-limiter.js';
import {
  activeKeySql,
  LAST_USED_GRANULARITY_MS,
  toAuthContext,
  type AuthContext,
  type AuthRow,
} from '../credentials/authenticate.js';
import { toEventRecord, toEventRow } from '../events/event-record.js';
import { webhookPayload } from '../events/webhook-payload.js';
import { deliveryId } from '../outbox/enqueue-webhooks.js';
import type { MessagePlan, PersistResult } from './persist-messages.js';

/**
 * The checks of one send in one statement: the credential again (`activeKeySql` of
 * credentials/authenticate.ts), the key's `last_used_at` at most once a minute, the domain's rate
 * limit (`gcraUpsertSql` of rate-limit/db-rate-limiter.ts, with the account's rate read in the same
 * statement, so a changed limit counts at once) and the recipients on the account's suppression list. No row: the
 * credential is no longer valid.
 *
 * $1 key id (null: a credential read fresh for this request, which is not checked again), $2 domain id, $3 now in
 * ms, $4 now in µs, $5 the recipients lower-cased, $6 sandbox keys allowed.
 */
const CHECKS = {
  name: 'posthorn_send_checks_v2',
  text: `
WITH ctx AS (
  SELECT d.id AS domain_id, d.name, d.status, d.sandbox, d.track_opens, d.track_clicks, d.unsubscribe,
         a.id AS account_id, a.rate_limit, a.monthly_quota,
         GREATEST(1, ROUND(1000000.0 / a.rate_limit))::bigint AS step
  FROM domains d JOIN accounts a ON a.id = d.account_id
  WHERE d.id = $2 AND ($1::text IS NULL
    OR EXISTS (SELECT 1 FROM api_keys k WHERE k.id = $1 AND k.domain_id = d.id AND ${activeKeySql('k', 'd', '$6::boolean')}))
), used AS (
  UPDATE api_keys SET last_used_at = $3::bigint
  WHERE id = $1 AND EXISTS (SELECT 1 FROM ctx)
    AND (last_used_at IS NULL OR last_used_at <= $3::bigint - ${LAST_USED_GRANULARITY_MS})
  RETURNING 1
), taken AS (
  ${gcraUpsertSql({
    row: `SELECT 'send:' || ctx.domain_id, $4::bigint + ctx.step FROM ctx`,
    now: '$4::bigint',
    step: '(SELECT step FROM ctx)',
    tolerance: '(SELECT step * (GREATEST(rate_limit, 1) - 1) FROM ctx)',
  })}
)
SELECT ctx.*,
  (SELECT count(*) FROM taken)::int AS taken,
  (SELECT count(*) FROM used)::int AS used,
  (SELECT r.tat FROM rate_limits r WHERE r.key = 'send:' || ctx.domain_id) AS tat,
  (SELECT json_agg(json_build_array(s.address, s.reason)) FROM suppressions s
     WHERE s.account_id = ctx.account_id AND s.address = ANY($5::text[])) AS suppressed
FROM ctx`,
};

/** The credential's row (as credentials/authenticate.ts reads it) and what the checks found. */
interface ChecksRow extends AuthRow {
  step: number;
  taken: number;
  tat: number | null;
  suppressed: [string, string][] | null;
}

/** What the checks statement found: null when the credential is no longer valid. */
export type SendChecks = {
  /** The credential's context as it is now (the domain's status and defaults, the account's limits). */
  auth: AuthContext;
  rate: { ok: true } | { ok: false; retryAfterMs: number };
  /** Lower-cased suppressed recipients → their suppression reason. */
  suppressed: Map<string, string>;
} | null;

/** The send path on a PostgreSQL pool. */
export interface PgSendPath {
  checks(input: {
    auth: AuthContext;
    /** Check the API key `auth.keyId` again (one answered from the cache); false for a credential read fresh for this request. */
    verifyKey: boolean;
    sandbox: boolean;
    nowMs: number;
    addresses: readonly string[];
  }): Promise<SendChecks>;
  persist(plans: MessagePlan[]): Promise<PersistResult[]>;
}

/** The send path of `db`, or null on SQLite. */
export function pgSendPath(db: Kysely<Database>): PgSendPath | null {
  const pool = pgPool(db);
  return pool === undefined ? null : createPgSendPath(pool);
}

function createPgSendPath(pool: pg.Pool): PgSendPath {
  return {
    async checks({ auth, verifyKey, sandbox, nowMs, addresses }) {
      const nowUs = Math.round(nowMs * 1000);
      const res = await pool.query<ChecksRow>({
        ...CHECKS,
        values: [
          verifyKey ? auth.keyId : null,
          auth.domain.id,
          nowMs,
          nowUs,
          addresses.map((a) => a.toLowerCase()),
          sandbox,
        ],
      });
      const row = res.rows[0];
      if (row === undefined) return null;
      const tolerance = row.step * (Math.max(row.rate_limit, 1) - 1);
      const retryAfterMs = gcraRetryAfterMs(row.tat === null ? null : Number(row.tat), tolerance, nowUs, row.step);
      return {
        auth: toAuthContext(auth.keyId, row),
        rate: row.taken > 0 ? { ok: true } : { ok: false, retryAfterMs },
        suppressed: new Map(row.suppressed ?? []),
      };
    },
    persist: (plans) => persistPlans(pool, plans),
  };
}

/**
 * Every row of a batch of accepted messages in one statement, from a JSON array per table (one
 * parameter each, so PostgreSQL parses each once: `->` on one json document parses all of it again
 * for each key, which made large messages cost twice as much): the messages, recipients, `accepted-by-system` events, their webhook outbox rows (for the domains
 * with an active endpoint, found in the same statement: nothing is cached, so an endpoint set a
 * moment ago gets the next event), the delivery jobs, the completed Idempotency-Keys and the
 * monthly volume of unlimited accounts. One statement is one transaction; foreign keys are checked
 * at its end, after every insert of the WITH.
 */
const WRITE = {
  name: 'posthorn_send_write_v2',
  text: `
WITH m AS (
  INSERT INTO messages (id, account_id, domain_id, from_address, subject, tags, metadata, template, content,
                        mime, size, created_at, track_opens, track_clicks, unsubscribe, send_at)
  SELECT id, account_id, domain_id, from_address, subject, tags, metadata, template, content,
         mime, size, created_at, track_opens, track_clicks, unsubscribe, send_at
  FROM json_populate_recordset(null::messages, $1::json)
), r AS (
  INSERT INTO recipients (id, message_id, address, domain, status, updated_at)
  SELECT id, message_id, address, domain, status, updated_at
  FROM json_populate_recordset(null::recipients, $2::json)
), e AS (
  INSERT INTO events (id, account_id, domain_id, message_id, event, recipient, from_address, subject, tags,
                      metadata, details, occurred_at)
  SELECT id, account_id, domain_id, message_id, event, recipient, from_address, subject, tags,
         metadata, details, occurred_at
  FROM json_populate_recordset(null::events, $3::json)
), w AS (
  INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event, payload, state, attempts, next_attempt_at,
                                  created_at)
  SELECT x.id, ep.id, x.event_id, x.event, x.payload, 'pending', 0, x.at, x.at
  FROM json_to_recordset($4::json) AS x(id text, domain_id text, event_id text, event text, payload text, at bigint)
  JOIN webhook_endpoints ep ON ep.domain_id = x.domain_id AND ep.status = 'active'
), jb AS (
  INSERT INTO jobs (id, kind, message_id, recipient_id, run_at, attempts, locked_by, locked_until, last_error,
                    created_at)
  SELECT id, kind, message_id, recipient_id, run_at, attempts, locked_by, locked_until, last_error, created_at
  FROM json_populate_recordset(null::jobs, $5::json)
), i AS (
  UPDATE idempotency_keys k SET state = 'done', response_status = x.status, response_body = x.body
  FROM json_to_recordset($6::json) AS x(domain_id text, key text, status int, body text)
  WHERE k.domain_id = x.domain_id AND k.key = x.key
)
INSERT INTO volume (account_id, month, count)
SELECT x.account_id, x.month, x.count
FROM json_to_recordset($7::json) AS x(account_id text, month text, count bigint)
ON CONFLICT (account_id, month) DO UPDATE SET count = volume.count + excluded.count`,
};

/**
 * The quota's upsert for one message of an account with a monthly quota (send/persist-messages.ts,
 * `countVolume`): the month's count grows only while it stays within the quota.
 */
const COUNT_WITHIN_QUOTA = {
  name: 'posthorn_send_quota_v1',
  text: `
INSERT INTO volume (account_id, month, count) VALUES ($1, $2, $3)
ON CONFLICT (account_id, month) DO UPDATE SET count = volume.count + excluded.count
  WHERE volume.count + excluded.count <= $4::bigint`,
};

/** The parameters WRITE reads, in order: the accepted plans' rows as one JSON array per table. */
function writeParams(accepted: MessagePlan[]): string[] {
  const events = accepted.flatMap((p) => p.events.map(toEventRow));
  const volume = new Map<string, { account_id: string; month: string; count: number }>();
  for (const p of accepted) {
    if (p.volume.quota !== null) continue;
    const k = `${p.volume.accountId}|${p.volume.month}`;
    const v = volume.get(k);
    if (v) v.count += p.volume.count;
    else volume.set(k, { account_id: p.volume.accountId, month: p.volume.month, count: p.volume.count });
  }
  const tables: unknown[][] = [
    accepted.map((p) => p.message),
    accepted.flatMap((p) => p.recipients),
    events,
    // The body is the record GET /v1/events returns for the same row (docs/webhooks.md), as
    // events/write-events.ts writes it; kept only for domains with an active endpoint.
    events.map((row) => ({
      id: deliveryId(row.id),
      domain_id: row.domain_id,
      event_id: row.id,
      event: row.event,
      payload: webhookPayload(toEventRecord(row)),
      at: row.occurred_at,
    })),
    accepted.flatMap((p) => p.jobs),
    accepted.flatMap((p) =>
      p.idempotency === null
        ? []
        : [
            {
              domain_id: p.idempotency.domainId,
              key: p.idempotency.key,
              status: p.idempotency.response.status,
              body: JSON.stringify(p.idempotency.response.body),
            },
          ],
    ),
    [...volume.values()],
  ];
  // JSON.stringify writes a lone surrogate as an escape PostgreSQL's json refuses; there are none:
  // the validate step refuses them in every field (send/validate-send-json.ts), and a relayed
  // message is stored as latin1.
  return tables.map((rows) => JSON.stringify(rows));
}

async function writeBatch(pool: pg.Pool, plans: MessagePlan[]): Promise<PersistResult[]> {
  if (plans.every((p) => p.volume.quota === null)) {
    await pool.query({ ...WRITE, values: writeParams(plans) });
    return plans.map(() => ({ kind: 'accepted' }));
  }
  // Accounts with a quota: each message's count is taken in turn, in the transaction that writes
  // the accepted ones, so concurrent sends on any node cannot overshoot it.
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const results: PersistResult[] = [];
    const accepted: MessagePlan[] = [];
    for (const p of plans) {
      const v = p.volume;
      let ok = true;
      if (v.quota !== null) {
        ok =
          v.count <= v.quota &&
          ((await client.query({ ...COUNT_WITHIN_QUOTA, values: [v.accountId, v.month, v.count, v.quota] })).rowCount ??
            0) > 0;
      }
      results.push(ok ? { kind: 'accepted' } : { kind: 'quota_exceeded' });
      if (ok) accepted.push(p);
    }
    if (accepted.length > 0) await client.query({ ...WRITE, values: writeParams(accepted) });
    await client.query('COMMIT');
    return results;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** The group-commit flush on PostgreSQL; a failed batch is retried message by message, as persistMessages does. */
async function persistPlans(pool: pg.Pool, plans: MessagePlan[]): Promise<PersistResult[]> {
  try {
    return await writeBatch(pool, plans);
  } catch (error) {
    if (plans.length === 1) return [{ kind: 'error', error }];
    const results: PersistResult[] = [];
    for (const p of plans) results.push(...(await persistPlans(pool, [p])));
    return results;
  }
}
