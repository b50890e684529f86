import { setMaxListeners } from 'node:events';
import { hostname } from 'node:os';
import type http from 'node:http';
import type { LookupFunction } from 'node:net';
import type { Deps } from '../deps.js';
import { startClaimLoop } from '../queue/claim-loop.js';
import { createBatcher } from '../storage/batcher.js';
import { claimDeliveries, releaseDeliveries, renewDeliveries, type ClaimedDelivery } from './claim-deliveries.js';
import { signingSecrets, type StoredSecret } from './endpoint-secrets.js';
import { readEndpointSecrets } from './sealed-secrets.js';
import { checkedLookup, postWebhook, webhookAgent } from './post-webhook.js';
import { recordAttempts, type AttemptResult } from './record-attempts.js';
import { signWebhook } from './sign-webhook.js';
import { timedCommit } from '../metrics/metrics.js';

export interface DispatcherOptions {
  /** Rows claimed per query. */
  claimBatch: number;
  /** Wait between polls when nothing is due. */
  idlePollMs: number;
  /** Name resolution for the endpoints (default: the system's); checked unless allow-private. */
  lookup?: LookupFunction;
}

export interface WebhookDispatcher {
  /** Stops claiming, waits up to `timeoutMs` for POSTs in flight (then aborts them), records what finished and releases the rest. */
  stop(timeoutMs: number): Promise<void>;
  /** Resolves when a claim made after this call found nothing due and nothing is in flight (tests, benchmarks). */
  idle(): Promise<void>;
  /** Wakes the loop now instead of at the next poll. */
  nudge(): void;
}

interface EndpointInfo {
  url: string;
  secrets: StoredSecret[];
}

/**
 * The `webhooks` role: claims due outbox rows in batches, keeps up to POSTHORN_WEBHOOK_CONCURRENCY
 * POSTs in flight over keep-alive connections (one agent per endpoint origin), signs each attempt
 * afresh (its own timestamp, the same webhook-id), and records attempts in group commits.
 */
export function startWebhookDispatcher(deps: Deps, opts: DispatcherOptions): WebhookDispatcher {
  const workerId = `${hostname()}:${process.pid}:${deps.ids.random(4).toString('hex')}`;
  const concurrency = deps.config.webhookConcurrency;
  // The same lease as delivery jobs (POSTHORN_QUEUE_LEASE), renewed every third of it while a row
  // waits for its endpoint's slot, is POSTed and recorded: a slow endpoint keeps its rows, and the
  // rows of a dispatcher killed mid-POST come back to the others within one lease (at-least-once:
  // receivers dedupe on webhook-id; docs/scaling.md).
  const leaseMs = deps.config.queueLease;
  /** Rows claimed and not yet recorded or given up: the ones whose leases are renewed. */
  const holding = new Set<string>();
  let renewing: Promise<void> | null = null;
  const renewal = setInterval(
    () => {
      if (renewing || holding.size === 0) return;
      renewing = renewDeliveries(deps, [...holding], workerId, deps.clock.now() + leaseMs)
        .catch((err: unknown) =>
          deps.log.error({ err }, 'renewing webhook delivery leases failed; retried at the next renewal'),
        )
        .finally(() => {
          renewing = null;
        });
    },
    Math.max(10, Math.floor(leaseMs / 3)),
  );
  renewal.unref();
  const allowPrivate = deps.config.webhookAllowPrivate;
  const lookup = checkedLookup(allowPrivate, opts.lookup);
  const agents = new Map<string, http.Agent>();
  const abort = new AbortController();
  setMaxListeners(0, abort.signal); // one listener per POST in flight

  const recorder = createBatcher<AttemptResult, void>(
    async (results) => {
      const now = deps.clock.now();
      await timedCommit(deps.metrics, 'webhooks', () =>
        deps.db.transaction().execute((trx) => recordAttempts(trx, results, deps, workerId, now)),
      );
      return results.map(() => undefined);
    },
    { maxBatch: 500, concurrency: deps.dialect === 'postgres' ? 4 : 1 },
  );

  function agentFor(url: string): http.Agent | undefined {
    let origin: URL;
    try {
      origin = new URL(url);
    } catch {
      return undefined; // postWebhook reports the bad URL
    }
    let agent = agents.get(origin.origin);
    if (!agent) {
      agent = webhookAgent(origin.protocol, lookup, concurrency);
      agents.set(origin.origin, agent);
    }
    return agent;
  }

  async function deliver(delivery: ClaimedDelivery, endpoint: EndpointInfo): Promise<void> {
    const attemptedAt = deps.clock.now();
    const secrets = signingSecrets(endpoint.secrets, attemptedAt);
    const agent = agentFor(endpoint.url);
    const result =
      secrets.length === 0
        ? { error: 'endpoint has no signing secret; rotate one with posthorn webhook rotate' }
        : await postWebhook(endpoint.url, {
            body: delivery.payload,
            allowPrivate,
            timeoutMs: deps.config.webhookTimeout,
            signal: abort.signal,
            ...(lookup ? { lookup } : {}),
            ...(agent ? { agent } : {}),
            headers: {
              ...signWebhook({
                id: delivery.event_id,
                timestampSeconds: Math.floor(attemptedAt / 1000),
                body: delivery.payload,
                secrets,
              }),
            },
          });
    // Cut short by our own stop: not the endpoint's failure, so not logged; released below.
    if (abort.signal.aborted && 'error' in result) return;
    deps.metrics.webhookAttempts.inc({
      outcome: 'status' in result ? `${Math.floor(result.status / 100)}xx` : 'no_response',
    });
    try {
      await recorder.submit({ delivery, attemptedAt, result });
    } catch (err) {
      // Not recorded: the row keeps its lease and is posted again when it ends (at-least-once).
      deps.log.error({ err, delivery: delivery.id }, 'recording a webhook attempt failed');
    }
  }

  async function loadEndpoints(rows: ClaimedDelivery[]): Promise<Map<string, EndpointInfo>> {
    const ids = [...new Set(rows.map((r) => r.endpoint_id))];
    const found = await deps.db
      .selectFrom('webhook_endpoints')
      .select(['id', 'url', 'secrets'])
      .where('id', 'in', ids)
      .execute();
    return new Map(
      found.map((e) => [e.id, { url: e.url, secrets: readEndpointSecrets(deps.config, e.id, e.secrets) }]),
    );
  }

  /**
   * Per endpoint: POSTs running (at most POSTHORN_WEBHOOK_ENDPOINT_CONCURRENCY) and claimed rows
   * waiting for one of its slots. One endpoint that hangs for the whole timeout must not take
   * every slot from the others.
   */
  const lanes = new Map<string, { running: number; waiting: (() => void)[] }>();
  const perEndpoint = deps.config.webhookEndpointConcurrency;
  /** Rows a claim may bring beyond the known free shares: room for endpoints with nothing in flight. */
  const allowance = Math.max(1, Math.ceil(perEndpoint / 4));

  /**
   * Claims due rows with their endpoints. Endpoints whose share is taken (running and waiting)
   * are left out of the claim, and the claim is no larger than the free shares of busy endpoints
   * plus an allowance for idle ones, so what waits locally for a slot stays small (it holds a
   * lease) and nothing claimed has to be given back. A row whose endpoint was removed a moment
   * ago (webhook remove) is skipped.
   */
  async function claim(limit: number): Promise<{ delivery: ClaimedDelivery; endpoint: EndpointInfo }[]> {
    const full: string[] = [];
    let free = allowance;
    for (const [id, lane] of lanes) {
      const taken = lane.running + lane.waiting.length;
      if (taken >= perEndpoint) full.push(id);
      else free += perEndpoint - taken;
    }
    const claimed = await claimDeliveries(deps, workerId, Math.min(limit, free), leaseMs, full);
    if (claimed.length === 0) return [];
    const endpoints = await loadEndpoints(claimed);
    return claimed.flatMap((delivery) => {
      const endpoint = endpoints.get(delivery.endpoint_id);
      if (!endpoint) return [];
      holding.add(delivery.id);
      return [{ delivery, endpoint }];
    });
  }

  /** Runs one POST in its endpoint's lane, waiting for a slot when the lane is full. */
  async function run({ delivery, endpoint }: { delivery: ClaimedDelivery; endpoint: EndpointInfo }): Promise<void> {
    const id = delivery.endpoint_id;
    let lane = lanes.get(id);
    if (!lane) lanes.set(id, (lane = { running: 0, waiting: [] }));
    // A finishing POST hands its slot straight to the next waiter, so the count never overshoots.
    if (lane.running >= perEndpoint) await new Promise<void>((resolve) => lane.waiting.push(resolve));
    else lane.running++;
    try {
      await deliver(delivery, endpoint);
    } finally {
      holding.delete(delivery.id);
      const next = lane.waiting.shift();
      if (next) next();
      else if (--lane.running === 0) lanes.delete(id);
    }
  }

  const loop = startClaimLoop({
    concurrency,
    claimBatch: opts.claimBatch,
    idlePollMs: opts.idlePollMs,
    log: deps.log,
    name: 'webhooks',
    claim,
    run,
  });

  return {
    async stop(timeoutMs) {
      if ((await loop.stop(timeoutMs)) === 'timeout') {
        deps.log.warn(
          { inFlight: loop.inFlight() },
          'stopping with webhook POSTs in flight: they are aborted and posted again later',
        );
        abort.abort();
        await loop.settled();
      }
      await recorder.drain();
      clearInterval(renewal);
      await renewing;
      for (const agent of agents.values()) agent.destroy();
      // What this dispatcher still holds goes back to the outbox now, not when the lease ends.
      const released = await releaseDeliveries(deps, workerId, deps.clock.now());
      if (released > 0) deps.log.info({ released }, 'released webhook deliveries');
    },
    idle: () => loop.idle(),
    nudge: () => loop.nudge(),
  };
}
