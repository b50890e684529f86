import { hostname } from 'node:os';
import type { Deps } from '../deps.js';
import { sqliteDeferred } from '../storage/open-database.js';
import { claimJobs } from '../queue/claim-jobs.js';
import { completeJobs, heldJobs, releaseJobs, renewJobs } from '../queue/finish-jobs.js';
import { startClaimLoop } from '../queue/claim-loop.js';
import { createBatcher } from '../storage/batcher.js';
import { deliverGroup, largeDeliveriesBacklogged, type DeliveryContext, type GroupResult } from './deliver-group.js';
import { loadClaimed, type DeliveryGroup } from './load-claimed.js';
import { planOutcomes, writeOutcomes } from './record-outcomes.js';
import { timedCommit } from '../metrics/metrics.js';
import { deferralClass } from '../metrics/delivery-labels.js';
import { activeHolds, holdJobs, HoldSet } from '../queue/holds.js';
import type { DeliveryHoldTable } from '../storage/database.js';
import { outcomeHost } from './destination-provider.js';
import { createProviderShaping } from './provider-gate.js';

/**
 * The default of POSTHORN_QUEUE_LEASE: how long a claimed job stays ours unless renewed. A worker
 * renews the jobs of its running attempts every third of it, so a long attempt keeps its jobs and
 * the jobs of a worker that died come back to the others after at most this long.
 */
export const LEASE_MS = 30_000;
/** How long a large message released for a backlog of large ones waits before it is due again. */
const LARGE_BACKLOG_RETRY_MS = 5_000;

export interface DeliveryWorkerOptions {
  /** Groups (SMTP transactions) in flight at once. */
  concurrency: number;
  /** Jobs claimed per query. */
  claimBatch: number;
  /** Wait between polls when the queue is empty. */
  idlePollMs: number;
}

export interface DeliveryWorker {
  /** Stops claiming, waits up to `timeoutMs` for attempts in flight, and releases what never started. */
  stop(timeoutMs: number): Promise<void>;
  /** Resolves when the queue was found empty and nothing is in flight (tests and benchmarks). */
  idle(): Promise<void>;
  /** Wakes the loop now (after a local submit) instead of at the next poll. */
  nudge(): void;
}

/**
 * The `delivery` role: claims due jobs, delivers them in groups of one message and one recipient
 * domain, and records each outcome; the outcome writes of concurrent groups share transactions.
 */
export function startDeliveryWorker(
  deps: Deps,
  ctx: Omit<DeliveryContext, 'deps'>,
  opts: DeliveryWorkerOptions,
): DeliveryWorker {
  const workerId = `${hostname()}:${process.pid}:${deps.ids.random(4).toString('hex')}`;
  /** The holds in force, read again with every claim (docs/delivery.md, Holds). */
  let holds = new HoldSet([]);
  const context: DeliveryContext = {
    ...ctx,
    deps,
    shaping: ctx.shaping ?? createProviderShaping(deps),
    heldProvider: (provider, accountId) => holds.find('provider', provider, accountId),
  };
  const shaping = context.shaping!;
  // The shaping state as metrics (docs/observability.md): each provider's pace now, and this node's suspensions.
  const unwatch = deps.metrics.onScrape(async () => {
    const now = deps.clock.now();
    for (const spec of shaping.table.list) {
      if (!spec.adaptive) continue;
      const { throttle, suspension } = await shaping.store.read(spec.name);
      if (spec.perMinute !== null)
        deps.metrics.providerRate.set({ provider: spec.name }, Math.min(spec.perMinute, throttle?.rate ?? Infinity));
      deps.metrics.providerSuspended.set(
        { provider: spec.name },
        suspension !== null && suspension.until > now ? 1 : 0,
      );
    }
  });

  const leaseMs = deps.config.queueLease;
  const recorder = createBatcher<GroupResult, void>(
    async (results) => {
      await timedCommit(deps.metrics, 'delivery', () =>
        // With SQLite's writer thread the outcomes go to it whole at the commit (storage/sqlite-routed-dialect.ts,
        // DeferredSqliteDialect): nothing here needs a count back. heldJobs then reads the last
        // commit rather than inside the transaction; on SQLite one delivery worker runs per file
        // (docs/scaling.md), and every job write below is still conditional on this worker's lock.
        (sqliteDeferred(deps.db) ?? deps.db).transaction().execute(async (trx) => {
          const now = deps.clock.now();
          // Only outcomes of jobs this worker still holds are written: a job whose lease ended and
          // that another worker took is theirs to record (their attempt may already have).
          const held = await heldJobs(
            trx,
            results.flatMap((r) => r.group.items.map((i) => i.job.id)),
            workerId,
            deps.dialect,
          );
          let lost = 0;
          const kept = results.flatMap((r): GroupResult[] => {
            const keep = r.group.items.map((i) => held.has(i.job.id));
            lost += keep.filter((k) => !k).length;
            if (keep.every((k) => !k)) return [];
            if (keep.every((k) => k)) return [r];
            return [
              {
                ...r,
                group: { ...r.group, items: r.group.items.filter((_i, n) => keep[n]) },
                outcomes: r.outcomes.filter((_o, n) => keep[n]),
              },
            ];
          });
          if (lost > 0)
            deps.log.warn(
              { jobs: lost },
              'delivery outcomes not recorded: their leases ended and another worker holds them',
            );
          await writeOutcomes(
            trx,
            planOutcomes(kept, deps.config, deps.ids, now, (host) => shaping.table.of(host)),
            workerId,
            now,
          );
        }),
      );
      return results.map(() => undefined);
    },
    { maxBatch: 200, concurrency: deps.dialect === 'postgres' ? 4 : 1 },
  );

  /** Jobs of the attempts running now (claimed, not yet recorded): the ones whose leases are renewed. */
  const running = new Set<string>();
  let renewing: Promise<void> | null = null;
  const renew = (): void => {
    if (renewing || running.size === 0) return;
    renewing = renewJobs(deps.db, [...running], workerId, deps.clock.now() + leaseMs)
      .catch((err: unknown) => deps.log.error({ err }, 'renewing delivery leases failed; retried at the next renewal'))
      .finally(() => {
        renewing = null;
      });
  };
  const renewal = setInterval(renew, Math.max(10, Math.floor(leaseMs / 3)));
  renewal.unref();

  async function runGroup(group: DeliveryGroup): Promise<void> {
    const ids = group.items.map((i) => i.job.id);
    for (const id of ids) running.add(id);
    try {
      await attempt(group);
    } finally {
      for (const id of ids) running.delete(id);
    }
  }

  /** Puts a group back unattempted while `hold` is in force (docs/delivery.md, Holds). */
  async function holdBack(group: DeliveryGroup, hold: DeliveryHoldTable): Promise<void> {
    try {
      await holdJobs(
        deps.db,
        group.items.map((i) => i.job.id),
        group.items.map((i) => i.recipientId),
        workerId,
        hold,
        deps.clock.now(),
      );
      deps.metrics.queueActions.inc({ action: 'held' }, group.items.length);
      deps.log.info({ ...logFields(group), hold: hold.id }, 'delivery held');
    } catch (err) {
      // Not put back: the jobs keep their lease and come back when it ends, still unattempted.
      deps.log.error({ err, ...logFields(group) }, 'putting back a held delivery failed');
    }
  }

  async function attempt(group: DeliveryGroup): Promise<void> {
    // A held recipient domain is known before anything is rendered; a held provider only once the
    // route names its MX host (deliver-group.ts).
    const domainHold = holds.find('domain', group.recipientDomain, group.message.accountId);
    if (domainHold !== undefined) return holdBack(group, domainHold);
    if (group.message.deferredSize > 0 && largeDeliveriesBacklogged()) {
      // Enough large messages already wait for their turn (deliver-group.ts): this one goes back to
      // the queue, attempt not counted, instead of waiting on a lease that may run out meanwhile.
      await releaseJobs(
        deps.db,
        group.items.map((i) => i.job.id),
        workerId,
        deps.clock.now() + LARGE_BACKLOG_RETRY_MS,
      ).catch((err: unknown) =>
        deps.log.error({ err, ...logFields(group) }, 'releasing a large message for later failed'),
      );
      return;
    }
    let result: GroupResult;
    try {
      result = await deliverGroup(context, group);
      if (result.holdBy !== undefined) return await holdBack(group, result.holdBy);
    } catch (err) {
      // A fault in the attempt counts as a deferral, so the retry schedule and the queue lifetime
      // apply to it too: a message that always fails this way ends as `failed`, not retried forever.
      deps.log.error({ err, ...logFields(group) }, 'delivery attempt failed unexpectedly');
      const error = `internal error: ${(err as Error).message}`;
      result = {
        group,
        signedAt: null,
        outcomes: group.items.map(() => ({ kind: 'deferred', error, details: { reason: error } })),
      };
    }
    if (result.held !== undefined) {
      // Paced or suspended provider (provider-gate.ts): back to the queue for later, no attempt counted.
      deps.log.debug({ ...logFields(group), until: result.held.until, reason: result.held.reason }, 'delivery held');
      await releaseJobs(
        deps.db,
        group.items.map((i) => i.job.id),
        workerId,
        result.held.until,
      ).catch((err: unknown) => deps.log.error({ err, ...logFields(group) }, 'releasing a held delivery failed'));
      return;
    }
    try {
      await recorder.submit(result);
    } catch (err) {
      // Not recorded: the jobs keep their lease and are tried again when it ends; nothing is lost.
      deps.log.error({ err, ...logFields(group) }, 'recording a delivery outcome failed');
      return;
    }
    observe(result);
  }

  /**
   * One log line and the counters per recipient of a recorded attempt: `message_id` and
   * `recipient` on every line, so one message's story is one grep (docs/observability.md, Logs).
   */
  function observe({ group, outcomes }: GroupResult): void {
    group.items.forEach((item, i) => {
      const o = outcomes[i];
      if (o === undefined) return;
      const d = o.details;
      const host = outcomeHost(d);
      // The sandbox mailbox is no provider: its mail is labelled by the recipient's domain.
      const provider = shaping.table.of(host === undefined || host === 'sandbox' ? group.recipientDomain : host);
      deps.metrics.deliveries.inc({ outcome: o.kind, provider });
      const tls = tlsLabels(o.kind, d.tls);
      if (tls) deps.metrics.deliveryTls.inc(tls);
      const fields: Record<string, unknown> = {
        message_id: group.message.id,
        recipient: item.address,
        outcome: o.kind,
        attempt: item.job.attempts + 1,
        provider,
        ...(host !== undefined ? { mx_host: host } : {}),
        ...(typeof d.response === 'string' ? { reply: d.response } : {}),
      };
      if (o.kind === 'deferred') {
        const cls = deferralClass(d, o.error);
        deps.metrics.deferrals.inc({ class: cls, provider });
        deps.log.info({ ...fields, deferral_class: cls, error: o.error }, 'delivery deferred');
      } else if (o.kind === 'delivered') deps.log.info(fields, 'delivered');
      else deps.log.info({ ...fields, reason: d.reason ?? d.response }, `delivery ${o.kind}`);
    });
  }

  /** Claims due jobs and groups them; a load that fails leaves the jobs leased, to come back when the lease ends. */
  async function claim(limit: number): Promise<DeliveryGroup[]> {
    // Claims again when every job claimed was an orphan: an empty answer must mean an empty queue.
    for (;;) {
      const claimed = await claimJobs(deps, 'deliver', workerId, limit, leaseMs);
      if (claimed.length === 0) return [];
      holds = await activeHolds(deps.db, deps.clock.now());
      const { groups, orphans } = await loadClaimed(deps, claimed);
      if (orphans.length > 0) {
        deps.log.warn({ jobs: orphans.length }, 'dropping delivery jobs whose message or body is gone');
        await completeJobs(
          deps.db,
          orphans.map((j) => j.id),
          workerId,
        );
      }
      if (groups.length > 0) return groups;
    }
  }

  const loop = startClaimLoop({ ...opts, log: deps.log, name: 'delivery', claim, run: runGroup });

  return {
    async stop(timeoutMs) {
      unwatch();
      const finished = await loop.stop(timeoutMs);
      // Attempts still running past the stop bound lose their leases to the other workers.
      clearInterval(renewal);
      await renewing;
      if (finished === 'timeout')
        deps.log.warn(
          { inFlight: loop.inFlight() },
          'stopping with deliveries in flight: their leases expire and they are retried',
        );
      await recorder.drain();
      // Whatever this worker still holds and did not finish goes back to the queue now, not after the lease.
      const held = await deps.db.selectFrom('jobs').select('id').where('locked_by', '=', workerId).execute();
      if (finished === 'done')
        await releaseJobs(
          deps.db,
          held.map((j) => j.id),
          workerId,
          deps.clock.now(),
        );
    },
    idle: () => loop.idle(),
    nudge: () => loop.nudge(),
  };
}

/** `message_id` and `recipient` of a log line about a whole group: its recipients, comma-separated. */
function logFields(group: DeliveryGroup): { message_id: string; message: string; recipient: string } {
  return {
    message_id: group.message.id,
    message: group.message.id,
    recipient: group.items.map((i) => i.address).join(', '),
  };
}

/** The labels of posthorn_delivery_tls_total for an outcome whose details carry a TLS outcome (security/tls-outcome.ts). */
function tlsLabels(kind: string, tls: unknown): { policy: string; result: string } | null {
  if (typeof tls !== 'object' || tls === null) return null;
  const t = tls as { policy?: unknown; mode?: unknown; validated?: unknown; version?: unknown };
  const policy = typeof t.policy === 'string' ? t.policy : 'none';
  // A deferral whose TLS was not validated under an enforced policy is the policy refusing the host.
  if (kind === 'deferred' && t.validated !== true && t.mode === 'enforce') return { policy, result: 'refused' };
  if (kind === 'deferred') return null;
  return { policy, result: t.validated === true ? 'validated' : t.version == null ? 'plaintext' : 'unvalidated' };
}
