import { createRequire } from 'node:module';
import type * as PromClient from 'prom-client';
import type { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * prom-client, loaded when the first registry is made rather than with this module: a CLI call
 * that records no metric never loads it (metricsOnDemand; a tenth of a second of a call's start,
 * bench:cli). It is CommonJS, so require() loads it synchronously.
 */
const promClient = (): typeof PromClient => createRequire(import.meta.url)('prom-client') as typeof PromClient;

/** Read on every scrape, before the gauges are reported (database counts, pool and thread states). */
export type ScrapeHook = () => void | Promise<void>;

/**
 * Posthorn's Prometheus metrics, on a registry of their own so tests can build several apps. Every
 * metric is described in docs/observability.md; docs/grafana-dashboard.json queries them.
 */
export interface Metrics {
  registry: Registry;
  sends: Counter<'source' | 'outcome'>;
  httpDuration: Histogram<'route' | 'status'>;
  commitBatch: Histogram<string>;
  /** Time of one database transaction that records work done (send intake, delivery outcomes, webhook attempts). */
  commitSeconds: Histogram<'path'>;
  deliveries: Counter<'outcome' | 'provider'>;
  deferrals: Counter<'class' | 'provider'>;
  /** Recipients' delivery attempts by transport-security policy and what came of it (docs/delivery.md). */
  deliveryTls: Counter<'policy' | 'result'>;
  /** Delivery shaping (docs/delivery.md): the pace now, throttling replies, suspensions. */
  providerRate: Gauge<'provider'>;
  providerThrottles: Counter<'provider'>;
  providerSuspensions: Counter<'provider'>;
  providerSuspended: Gauge<'provider'>;
  queueDepth: Gauge<'state'>;
  queueOldestDue: Gauge<string>;
  dkimThreads: Gauge<string>;
  dkimBusyThreads: Gauge<string>;
  dkimQueued: Gauge<string>;
  webhookBacklog: Gauge<string>;
  webhookOldestDue: Gauge<string>;
  webhookAttempts: Counter<'outcome'>;
  smtpSessions: Counter<'server'>;
  smtpSessionsOpen: Gauge<'server'>;
  smtpAuthFailures: Counter<string>;
  inboundReports: Counter<'kind' | 'match'>;
  dbPool: Gauge<'state'>;
  /** Delivery holds in force (docs/delivery.md), by scope: domain or provider. */
  deliveryHolds: Gauge<'scope'>;
  /** Queue operations (retry, cancel, suspend, resume) by action, and jobs pushed back by a hold (`held`). */
  queueActions: Counter<'action'>;
  /** Runs `hook` before each scrape until the returned function is called (a role that stops). */
  onScrape(hook: ScrapeHook): () => void;
}

/** Creates the registry with process metrics and Posthorn's own. */
export function createMetrics(withDefaults = true): Metrics {
  const { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = promClient();
  const registry = new Registry();
  if (withDefaults) collectDefaultMetrics({ register: registry, prefix: 'posthorn_' });
  const hooks = new Set<ScrapeHook>();
  // Every scraped gauge asks for the hooks; they run once per scrape, not once per gauge.
  let running: Promise<void> | null = null;
  const refresh = (): Promise<void> =>
    (running ??= Promise.allSettled([...hooks].map(async (h) => h())).then(() => {
      running = null;
    }));
  const scraped = { collect: refresh };
  return {
    registry,
    sends: new Counter({
      name: 'posthorn_sends_total',
      help: 'Send requests by source and outcome (accepted or the error type).',
      labelNames: ['source', 'outcome'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'posthorn_http_request_seconds',
      help: 'HTTP request duration.',
      labelNames: ['route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers: [registry],
    }),
    commitBatch: new Histogram({
      name: 'posthorn_commit_batch_size',
      help: 'Messages committed per group-commit transaction.',
      buckets: [1, 2, 5, 10, 20, 50, 100, 200],
      registers: [registry],
    }),
    commitSeconds: new Histogram({
      name: 'posthorn_db_commit_seconds',
      help: 'Duration of the transactions that record work (path: send, delivery, webhooks), commit included.',
      labelNames: ['path'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    deliveries: new Counter({
      name: 'posthorn_deliveries_total',
      help: 'Delivery attempt outcomes per recipient (delivered, deferred, failed, rejected) by destination provider.',
      labelNames: ['outcome', 'provider'],
      registers: [registry],
    }),
    deferrals: new Counter({
      name: 'posthorn_deferrals_total',
      help: 'Deferred delivery attempts per recipient by reply class (4.2.x, 4.7.x, 4xx, connection, timeout, dns, …) and provider.',
      labelNames: ['class', 'provider'],
      registers: [registry],
    }),
    deliveryTls: new Counter({
      name: 'posthorn_delivery_tls_total',
      help: 'Delivery attempts per recipient that reached a TLS decision, by policy (none, mta-sts, dane) and result (validated, unvalidated, plaintext, refused).',
      labelNames: ['policy', 'result'],
      registers: [registry],
    }),
    providerRate: new Gauge({
      name: 'posthorn_provider_rate_per_minute',
      help: 'The pace a mailbox provider is sent to now, recipients per minute (its per_minute limit, lowered by throttling replies).',
      labelNames: ['provider'],
      registers: [registry],
      ...scraped,
    }),
    providerThrottles: new Counter({
      name: 'posthorn_provider_throttles_total',
      help: 'Throttling replies (421, 4.7.x, rate wording) from a mailbox provider, one per recipient they answered for.',
      labelNames: ['provider'],
      registers: [registry],
    }),
    providerSuspensions: new Counter({
      name: 'posthorn_provider_suspensions_total',
      help: 'Times this node suspended delivery to a mailbox provider after a reputation block (5.7.x).',
      labelNames: ['provider'],
      registers: [registry],
    }),
    providerSuspended: new Gauge({
      name: 'posthorn_provider_suspended',
      help: '1 while this node sends nothing to the mailbox provider after a reputation block, else 0.',
      labelNames: ['provider'],
      registers: [registry],
      ...scraped,
    }),
    queueDepth: new Gauge({
      name: 'posthorn_queue_depth',
      help: 'Delivery jobs in the queue: due now, or scheduled for later (retries, leased attempts).',
      labelNames: ['state'],
      registers: [registry],
      ...scraped,
    }),
    queueOldestDue: new Gauge({
      name: 'posthorn_queue_oldest_due_seconds',
      help: 'How long the oldest due delivery job has been waiting; 0 when none is due.',
      registers: [registry],
      ...scraped,
    }),
    dkimThreads: new Gauge({
      name: 'posthorn_dkim_signer_threads',
      help: 'DKIM signing threads of this process (delivery role).',
      registers: [registry],
      ...scraped,
    }),
    dkimBusyThreads: new Gauge({
      name: 'posthorn_dkim_signer_busy_threads',
      help: 'DKIM signing threads with work in hand at the scrape.',
      registers: [registry],
      ...scraped,
    }),
    dkimQueued: new Gauge({
      name: 'posthorn_dkim_signer_queued_messages',
      help: 'Messages waiting for a DKIM signing thread or being signed.',
      registers: [registry],
      ...scraped,
    }),
    webhookBacklog: new Gauge({
      name: 'posthorn_webhook_backlog',
      help: 'Webhook deliveries not yet delivered or given up (pending), over all endpoints.',
      registers: [registry],
      ...scraped,
    }),
    webhookOldestDue: new Gauge({
      name: 'posthorn_webhook_oldest_due_seconds',
      help: 'How long the oldest due webhook delivery has been waiting; 0 when none is due.',
      registers: [registry],
      ...scraped,
    }),
    webhookAttempts: new Counter({
      name: 'posthorn_webhook_attempts_total',
      help: 'Webhook POST attempts by outcome (2xx, 3xx, 4xx, 5xx, no_response).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    smtpSessions: new Counter({
      name: 'posthorn_smtp_sessions_total',
      help: 'SMTP sessions opened, by server (relay, inbound).',
      labelNames: ['server'],
      registers: [registry],
    }),
    smtpSessionsOpen: new Gauge({
      name: 'posthorn_smtp_sessions_open',
      help: 'SMTP sessions open now, by server (relay, inbound).',
      labelNames: ['server'],
      registers: [registry],
      ...scraped,
    }),
    smtpAuthFailures: new Counter({
      name: 'posthorn_smtp_auth_failures_total',
      help: 'Failed AUTH attempts on the SMTP relay (wrong credentials, or refused for too many failures).',
      registers: [registry],
    }),
    inboundReports: new Counter({
      name: 'posthorn_inbound_reports_total',
      help: 'Bounce and complaint reports processed, by kind (dsn, bounce, complaint, unknown) and match.',
      labelNames: ['kind', 'match'],
      registers: [registry],
    }),
    dbPool: new Gauge({
      name: 'posthorn_db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting: queries waiting for a connection, max).',
      labelNames: ['state'],
      registers: [registry],
      ...scraped,
    }),
    deliveryHolds: new Gauge({
      name: 'posthorn_delivery_holds',
      help: 'Delivery holds in force (suspended recipient domains and providers), by scope.',
      labelNames: ['scope'],
      registers: [registry],
      ...scraped,
    }),
    queueActions: new Counter({
      name: 'posthorn_queue_actions_total',
      help: 'Queue operations by action (retry, cancel, suspend, resume; jobs counted for retry and cancel), and jobs pushed back unattempted by a hold (held).',
      labelNames: ['action'],
      registers: [registry],
    }),
    onScrape(hook) {
      hooks.add(hook);
      return () => void hooks.delete(hook);
    },
  };
}

/** Runs `work` (a transaction that records work), observing its duration under `path`. */
/**
 * Metrics made on first use: for a CLI command, which has no metrics listener and mostly records
 * nothing, so its start does not pay for building the registry.
 */
export function metricsOnDemand(): Metrics {
  let real: Metrics | undefined;
  return new Proxy({} as Metrics, {
    get: (_target, key) => {
      real ??= createMetrics();
      return Reflect.get(real, key, real) as unknown;
    },
  });
}

export async function timedCommit<T>(metrics: Metrics, path: string, work: () => Promise<T>): Promise<T> {
  const end = metrics.commitSeconds.startTimer({ path });
  try {
    return await work();
  } finally {
    end();
  }
}

/**
 * This process's metrics with those of other processes of the same server (the children of
 * `serve --processes N`, as prom-client's `getMetricsAsJSON()`), in Prometheus text: counters and
 * histograms are summed, as are gauges (a child's DKIM threads add to the host's); metrics only one
 * process records pass through as they are. prom-client's AggregatorRegistry does the merging.
 */
export async function aggregateMetrics(
  metrics: Metrics,
  others: Awaited<ReturnType<Registry['getMetricsAsJSON']>>[],
): Promise<string> {
  const own = await metrics.registry.getMetricsAsJSON();
  return promClient()
    .AggregatorRegistry.aggregate([own, ...others])
    .metrics();
}
