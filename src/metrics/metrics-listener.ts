import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from '../config/schema.js';
import { ConfigError } from '../config/load.js';
import type { Database } from '../storage/database.js';
import { pendingMigrations } from '../storage/migrate.js';
import type { DialectName } from '../storage/open-database.js';
import type { Metrics } from './metrics.js';

/** A readiness check that has not answered by then counts as a failure (an unreachable database can hang a connect). */
const READY_TIMEOUT_MS = 3_000;

export interface MetricsListenerDeps {
  config: Pick<Config, 'metricsHost' | 'metricsPort' | 'metricsToken'>;
  db: Kysely<Database>;
  dialect: DialectName;
  log: Logger;
  metrics: Metrics;
  /**
   * The `/metrics` text, when it is more than this process's registry: a `serve --processes N`
   * supervisor adds its children's (src/processes/supervisor.ts).
   */
  gather?: () => Promise<string>;
}

export interface MetricsListener {
  /** `http://host:port` actually bound. */
  url: string;
  /** Readiness also needs the roles started: false until then, and again once stopping. */
  setServing(serving: boolean): void;
  close(): Promise<void>;
}

/** True for an address only this machine can reach: 127.0.0.0/8, ::1, `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (h === '::1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  return mapped !== null && mapped[1]!.startsWith('127.');
}

/**
 * Refuses a metrics listener reachable from other hosts without a token (docs/observability.md,
 * The listener): metrics name customers' volumes and providers, and /readyz probes the database.
 */
export function checkMetricsConfig(config: Pick<Config, 'metricsHost' | 'metricsPort' | 'metricsToken'>): void {
  if (config.metricsPort === null || config.metricsToken !== null || isLoopbackHost(config.metricsHost)) return;
  throw new ConfigError(
    `POSTHORN_METRICS_TOKEN: required when POSTHORN_METRICS_HOST (${config.metricsHost}) is not a loopback address; ` +
      'set a long random token (Prometheus sends it as a bearer token) or bind the metrics listener to 127.0.0.1',
  );
}

/** Why the process is not ready, or null when it is: the database answers and every migration of this release is applied. */
export async function notReadyReason(deps: Pick<MetricsListenerDeps, 'db' | 'dialect'>): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`database did not answer within ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
  });
  const check = (async (): Promise<string | null> => {
    try {
      await sql`SELECT 1`.execute(deps.db);
    } catch (err) {
      return `database unreachable: ${(err as Error).message}`;
    }
    try {
      const pending = await pendingMigrations(deps.db, deps.dialect);
      return pending.length === 0 ? null : `migrations pending: ${pending.join(', ')}`;
    } catch (err) {
      return `migrations could not be read: ${(err as Error).message}`;
    }
  })();
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The metrics listener (docs/observability.md): plain HTTP, apart from the API port, serving
 * `/metrics` (Prometheus text), `/healthz` (liveness: the event loop answers) and `/readyz`
 * (the database answers, migrations are current, the roles are serving). With
 * POSTHORN_METRICS_TOKEN set, every path needs `Authorization: Bearer <token>`.
 */
export async function startMetricsListener(deps: MetricsListenerDeps): Promise<MetricsListener> {
  const { config } = deps;
  checkMetricsConfig(config);
  if (config.metricsPort === null) throw new Error('the metrics listener is turned off (POSTHORN_METRICS_PORT=off)');
  const token = config.metricsToken === null ? null : digest(config.metricsToken);
  let serving = false;

  const send = (res: http.ServerResponse, status: number, type: string, body: string): void => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
    res.end(body);
  };
  const json = (res: http.ServerResponse, status: number, body: unknown): void =>
    send(res, status, 'application/json; charset=utf-8', `${JSON.stringify(body)}\n`);

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    if (token !== null && !authorized(req.headers.authorization, token)) {
      res.setHeader('www-authenticate', 'Bearer realm="posthorn-metrics"');
      return json(res, 401, {
        error: 'unauthorized',
        message: 'Authorization: Bearer <POSTHORN_METRICS_TOKEN> required',
      });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      return json(res, 405, { error: 'method_not_allowed' });
    }
    const path = new URL(req.url ?? '/', 'http://metrics').pathname;
    switch (path) {
      case '/metrics':
        return send(
          res,
          200,
          deps.metrics.registry.contentType,
          await (deps.gather ? deps.gather() : deps.metrics.registry.metrics()),
        );
      case '/healthz':
        return json(res, 200, { status: 'ok' });
      case '/readyz': {
        const reason = serving ? await notReadyReason(deps) : 'roles are not serving (starting or stopping)';
        if (reason === null) return json(res, 200, { status: 'ready', database: deps.dialect });
        return json(res, 503, { status: 'unavailable', database: deps.dialect, reason });
      }
      default:
        return json(res, 404, { error: 'not_found', message: 'this listener serves /metrics, /healthz and /readyz' });
    }
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      deps.log.error({ err }, 'metrics listener: request failed');
      if (!res.headersSent) json(res, 500, { error: 'internal_error' });
      else res.destroy();
    });
  });
  // A scraper is one well-behaved client: short deadlines, no idle connections kept for long.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: config.metricsHost, port: config.metricsPort }, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE')
      throw new ConfigError(
        `POSTHORN_METRICS_PORT: ${config.metricsHost}:${config.metricsPort} is already in use; give each Posthorn process its own port, or \`off\``,
      );
    throw err;
  });
  const { port } = server.address() as AddressInfo;
  const host = config.metricsHost.includes(':') ? `[${config.metricsHost}]` : config.metricsHost;
  const url = `http://${host}:${port}`;
  deps.log.info({ url, token: token !== null }, 'metrics listening');
  return {
    url,
    setServing(value) {
      serving = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Compares digests, so the time taken says nothing about the token. */
function authorized(header: string | undefined, token: Buffer): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m !== null && timingSafeEqual(digest(m[1]!), token);
}
