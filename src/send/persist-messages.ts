import type { Kysely, Transaction } from 'kysely';
import type { Database, JobTable, MessageTable, RecipientTable } from '../storage/database.js';
import { insertChunked } from '../storage/insert-chunked.js';
import { compileOnce } from '../storage/compile-once.js';
import { sqliteDeferred } from '../storage/open-database.js';
import { writeEvents, type NewEvent } from '../events/write-events.js';
import { completeIdempotencyKey, type StoredResponse } from './idempotency.js';

/** Everything one accepted message writes, committed together (docs/architecture.md, "The database is the queue"). */
export interface MessagePlan {
  message: MessageTable;
  recipients: RecipientTable[];
  events: NewEvent[];
  jobs: JobTable[];
  volume: { accountId: string; month: string; count: number; quota: number | null };
  idempotency: { domainId: string; key: string; response: StoredResponse } | null;
}

export type PersistResult = { kind: 'accepted' } | { kind: 'quota_exceeded' } | { kind: 'error'; error: unknown };

type Db = Kysely<Database> | Transaction<Database>;

/**
 * The monthly quota (each accepted recipient counts once per calendar month, UTC), enforced
 * atomically: the month's count only grows while it stays within the quota, so concurrent requests
 * (on any node) cannot overshoot it. Returns false when refused.
 */
async function countVolume(db: Db, v: MessagePlan['volume']): Promise<boolean> {
  if (v.quota !== null && v.count > v.quota) return false;
  const result = await volumeUpsert(db, [v.accountId, v.month, v.count, v.quota ?? 0], v.quota === null ? '' : 'quota');
  return Number(result.numAffectedRows ?? 0n) > 0;
}

/** The month's count grows by `count`, within `quota` unless the variant is unlimited; compiled once (compile-once.ts). */
const volumeUpsert = compileOnce((db, [accountId, month, count, quota]: [string, string, number, number], variant) =>
  db
    .insertInto('volume')
    .values({ account_id: accountId, month, count })
    .onConflict((oc) => {
      const update = oc
        .columns(['account_id', 'month'])
        .doUpdateSet((eb) => ({ count: eb('volume.count', '+', eb.ref('excluded.count')) }));
      return variant === ''
        ? update
        : update.where((eb) => eb(eb('volume.count', '+', eb.ref('excluded.count')), '<=', quota));
    }),
);

/** Unlimited accounts' counts are summed per account and month: one statement per batch, not per message. */
function sumUnlimited(plans: MessagePlan[]): MessagePlan['volume'][] {
  const sums = new Map<string, MessagePlan['volume']>();
  for (const p of plans) {
    const k = `${p.volume.accountId}|${p.volume.month}`;
    const s = sums.get(k);
    if (s) s.count += p.volume.count;
    else sums.set(k, { ...p.volume });
  }
  return [...sums.values()];
}

async function writeBatch(trx: Transaction<Database>, plans: MessagePlan[]): Promise<PersistResult[]> {
  const results: PersistResult[] = [];
  const accepted: MessagePlan[] = [];
  for (const p of plans) {
    if (p.volume.quota === null) {
      accepted.push(p);
      results.push({ kind: 'accepted' });
      continue;
    }
    const ok = await countVolume(trx, p.volume);
    results.push(ok ? { kind: 'accepted' } : { kind: 'quota_exceeded' });
    if (ok) accepted.push(p);
  }
  await insertChunked(
    trx,
    'messages',
    accepted.map((p) => p.message),
  );
  await insertChunked(
    trx,
    'recipients',
    accepted.flatMap((p) => p.recipients),
  );
  await writeEvents(
    trx,
    accepted.flatMap((p) => p.events),
  );
  await insertChunked(
    trx,
    'jobs',
    accepted.flatMap((p) => p.jobs),
  );
  for (const p of accepted) {
    if (p.idempotency)
      await completeIdempotencyKey(trx, p.idempotency.domainId, p.idempotency.key, p.idempotency.response);
  }
  // Last, so the account's counter row is locked only from here to the commit: concurrent batches
  // (PostgreSQL runs several) otherwise queue behind each other's inserts for that one row.
  for (const v of sumUnlimited(accepted.filter((p) => p.volume.quota === null))) await countVolume(trx, v);
  return results;
}

/**
 * The group-commit flush for accepted messages: one transaction for the whole batch. If it fails,
 * each plan is retried alone, so one bad message cannot take its neighbours down with it.
 */
export async function persistMessages(db: Kysely<Database>, plans: MessagePlan[]): Promise<PersistResult[]> {
  // With SQLite's writer thread, the batch goes to it in one message when nothing in it needs a
  // count back (the quota's conditional update does): writeBatch reads only webhook endpoints,
  // which it does not write (storage/sqlite-routed-dialect.ts, DeferredSqliteDialect).
  const deferred = plans.every((p) => p.volume.quota === null) ? sqliteDeferred(db) : undefined;
  try {
    return await (deferred ?? db).transaction().execute((trx) => writeBatch(trx, plans));
  } catch (error) {
    if (plans.length === 1) return [{ kind: 'error', error }];
    const results: PersistResult[] = [];
    for (const p of plans) results.push(...(await persistMessages(db, [p])));
    return results;
  }
}
