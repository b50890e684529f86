import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Posthorn's Prometheus metrics, on a registry of their own so tests can build several apps. */
export interface Metrics {
  registry: Registry;
  sends: Counter<'source' | 'outcome'>;
  httpDuration: Histogram<'route' | 'status'>;
  commitBatch: Histogram<string>;
}

/** Creates the registry with process metrics and Posthorn's own. */
export function createMetrics(withDefaults = true): Metrics {
  const registry = new Registry();
  if (withDefaults) collectDefaultMetrics({ register: registry, prefix: 'posthorn_' });
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
  };
}
