import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { Config } from './config/schema.js';
import { ConfigError } from './config/load.js';
import type { Deps } from './deps.js';
import { systemClock } from './core/clock.js';
import { RefusedError } from './core/refused-error.js';
import { createIds } from './core/ids.js';
import { ROLES, type Role } from './core/roles.js';
import { createResolver } from './domains/create-resolver.js';
import { aggregateMetrics, createMetrics, metricsOnDemand } from './metrics/metrics.js';
import { watchDatabaseGauges } from './metrics/database-gauges.js';
import { checkMetricsConfig, startMetricsListener, type MetricsListener } from './metrics/metrics-listener.js';
import { createDbRateLimiter } from './rate-limit/db-rate-limiter.js';
import { createMemoryRateLimiter } from './rate-limit/rate-limiter.js';
import { migrate } from './storage/migrate.js';
import { ensureEventPartitions } from './storage/event-partitions.js';
import { EVENT_RETENTION_MS } from './events/purge-retention.js';
import { openDatabase, pgPool, sqliteWriter } from './storage/open-database.js';
import { dropStaleImportTables } from './storage/pg-suppression-import.js';
import { securePrivateDataDir } from './storage/private-data-dir.js';
import { assertSecretKeys } from './secrets/manage-secrets.js';
import type { SandboxWelcome } from './sandbox/bootstrap-sandbox.js';
import type { SubmitPipeline } from './send/submit.js';
import type { TlsSource } from './http/tls-reload.js';
import type { Server as HttpsServer } from 'node:https';
import type { RelayPorts } from './smtp/start-relay.js';
import { planProcesses } from './processes/plan.js';
import { openChildChannel, supervisedName, type ChildChannel } from './processes/child.js';
import { startSupervisor, type Supervisor } from './processes/supervisor.js';

/** The roles this release implements; the others in ROLES are refused by name when asked for. */
export const IMPLEMENTED_ROLES = [
  'api',
  'smtp',
  'inbound',
  'delivery',
  'webhooks',
  'scheduler',
] as const satisfies readonly Role[];

/** A shutdown that has not finished by then is cut short. */
const SHUTDOWN_TIMEOUT_MS = 10_000;
/**
 * How long a supervisor waits for its delivery children to stop before SIGKILL: within the
 * shutdown timeout, with room for this process's own last steps.
 */
const SUPERVISOR_STOP_MS = SHUTDOWN_TIMEOUT_MS - 1_000;

/** Deps with a way to release them (the database pool). */
export interface Runtime extends Deps {
  close(): Promise<void>;
}

/**
 * Builds the real Deps from the configuration: the database (migrated, its sealed secrets checked
 * against the configured keys), the system clock, ULID
 * ids, the DNS resolver, a JSON logger on stderr (stdout is kept for command output) and metrics.
 */
export async function buildDeps(
  config: Readonly<Config>,
  opts: {
    checkSecretKeys?: boolean;
    backgroundCheckpoints?: boolean;
    /** SQLite: writes on a thread of their own (open-database.ts); the server's event loop never waits for a commit. */
    writerThread?: boolean;
    metricsOnDemand?: boolean;
    /** Names this process in every log line (field `process`): `serve --processes N` (docs/scaling.md). */
    processName?: string;
  } = {},
): Promise<Runtime> {
  let resolver: Deps['resolver'];
  try {
    resolver = createResolver(config.dnsServers);
  } catch (err) {
    throw new ConfigError(
      `POSTHORN_DNS_SERVERS: ${(err as Error).message} (resolvers are IP addresses, with an optional port)`,
    );
  }
  // Synchronous writes: a CLI command's last log line must not be lost when it exits.
  const root = pino({ level: config.logLevel }, pino.destination({ dest: 2, sync: true }));
  const log = opts.processName === undefined ? root : root.child({ process: opts.processName });
  // Before the database opens: its files must never be readable by other local users (docs/security.md).
  securePrivateDataDir(config.dataDir, log, { create: config.databaseUrl === null });
  const { db, dialect, close, poolStats } = openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    backgroundCheckpoints: opts.backgroundCheckpoints === true,
    writerThread: opts.writerThread === true,
  });
  try {
    await migrate(db, dialect);
    // `secrets status` skips this, to show what is missing rather than refuse.
    if (opts.checkSecretKeys !== false) await assertSecretKeys({ db, config });
  } catch (err) {
    await close();
    throw err;
  }
  // On SQLite one process holds all state; PostgreSQL nodes share limits through the database, so a
  // limit holds across nodes.
  const limiter = dialect === 'postgres' ? createDbRateLimiter(db) : createMemoryRateLimiter();
  const metrics = opts.metricsOnDemand === true ? metricsOnDemand() : createMetrics();
  if (poolStats && opts.metricsOnDemand !== true)
    metrics.onScrape(() => {
      for (const [state, n] of Object.entries(poolStats())) metrics.dbPool.set({ state }, n);
    });
  return {
    config,
    db,
    dialect,
    clock: systemClock,
    ids: createIds(),
    resolver,
    log,
    metrics,
    limiter,
    close,
  };
}

/** Reported once every role has started. */
export interface ServeReady {
  roles: Role[];
  /** `https://host:port` actually bound, when the api role runs. */
  apiUrl: string | null;
  /** The relay's bound ports, when the smtp role runs. */
  smtp: RelayPorts | null;
  /** The inbound MX's bound port, when the inbound role runs. */
  inbound: number | null;
  /** Set on the sandbox's first start only. */
  sandbox: SandboxWelcome | null;
  /** `http://host:port` of the metrics listener, or null when POSTHORN_METRICS_PORT is `off`. */
  metricsUrl: string | null;
  /** `serve --processes N`: the delivery processes this one supervises (empty with N = 1). */
  children: { name: string; pid: number }[];
}

interface Started {
  stop(): Promise<void>;
}

/**
 * Runs `roles` (every implemented role when undefined) until SIGTERM or SIGINT, then stops them
 * in order (scheduler, HTTP: no new connections, in-flight requests finish; database) and resolves 0.
 * A role that is not built yet is refused (an `invalid` RefusedError) naming it. With `processes`
 * (default POSTHORN_PROCESSES) of 2 or more, the delivery role runs in that many less one child
 * processes this one supervises (src/processes/plan.ts; docs/scaling.md, "Several processes on one
 * host"); it resolves 1 if the supervisor had to give up on a child.
 */
export async function serve(
  config: Readonly<Config>,
  roles?: Role[],
  opts: { onReady?: (ready: ServeReady) => void; processes?: number } = {},
): Promise<number> {
  // Started in ROLES order (api before scheduler) whatever order --roles gave, and stopped in reverse.
  const chosen = (roles ?? [...IMPLEMENTED_ROLES]).slice().sort((a, b) => ROLES.indexOf(a) - ROLES.indexOf(b));
  const missing = chosen.filter((r) => !(IMPLEMENTED_ROLES as readonly Role[]).includes(r));
  if (missing.length > 0) {
    throw new RefusedError(
      'invalid',
      `role ${missing.join(', ')} is not built yet in this release; available: ${IMPLEMENTED_ROLES.join(', ')}`,
      { field: 'roles' },
    );
  }
  // Before anything starts: a refused split (no delivery role, more than one delivery process on
  // SQLite) names why.
  const plan = planProcesses(opts.processes ?? config.processes, chosen, config.databaseUrl ? 'postgres' : 'sqlite', {
    sandbox: config.sandbox,
  });
  /** Set when a supervisor started this process to run delivery (src/processes/child.ts). */
  const childName = supervisedName(process.env);
  // Before the database opens: a listener that would expose metrics without a token is a configuration error.
  checkMetricsConfig(config);
  // Listen before the slow start-up, so a signal during it still ends in a clean stop.
  const signal = waitForSignal();
  let supervisor: Supervisor | null = null;
  let wakeDelivery: (() => void) | null = null;
  let channel: ChildChannel | null = null;
  // The server writes to SQLite and checkpoints its WAL off its event loop; a CLI command's short
  // life needs neither thread.
  const deps = await buildDeps(config, {
    backgroundCheckpoints: true,
    writerThread: true,
    ...(plan.children > 0 ? { processName: 'main' } : childName !== null ? { processName: childName } : {}),
  }).catch((err: unknown) => {
    signal.dispose();
    throw err;
  });
  if (childName !== null) {
    // A supervised child: its supervisor wakes its delivery loop after a commit and reads its
    // metrics; the channel closing (the supervisor stopping, or dead) is its order to stop.
    channel = openChildChannel({
      wake: () => wakeDelivery?.(),
      metrics: () => deps.metrics.registry.getMetricsAsJSON(),
    });
  }
  const started: Started[] = [];
  let ready: ServeReady;
  let share: Shared | undefined;
  let metricsListener: MetricsListener | null = null;
  try {
    // One listener per process, whatever roles it runs; stopped last, after the roles
    // (docs/observability.md, The listener). A supervisor's shows its children's metrics as well;
    // the children have none of their own.
    if (config.metricsPort !== null) {
      const listener = await startMetricsListener({
        ...deps,
        ...(plan.children > 0
          ? { gather: async () => aggregateMetrics(deps.metrics, (await supervisor?.metrics()) ?? []) }
          : {}),
      });
      metricsListener = listener;
      const unwatch = watchDatabaseGauges(deps);
      started.push({
        stop: () => {
          unwatch();
          return listener.close();
        },
      });
    }
    // Before any role takes traffic: a production server never honours sandbox credentials. A
    // supervised child leaves this, the event partitions and the sandbox's welcome to its supervisor,
    // which has done them before it starts children.
    if (!config.sandbox && childName === null) {
      const { retireSandbox } = await import('./sandbox/retire-sandbox.js');
      await retireSandbox(deps);
    }
    let api: { url: string; selfSignedCert: string | null } | null = null;
    let smtp: RelayPorts | null = null;
    let inbound: number | null = null;
    // A commit of accepted mail wakes the delivery loop as soon as it is durable, rather than at
    // its next poll (250 ms): this process's own, or its children's over IPC.
    share = shared(deps, plan.children > 0 ? () => supervisor?.wake() : () => wakeDelivery?.());
    // Event partitions exist before any role takes traffic (PostgreSQL; the scheduler role keeps
    // them ahead after that), so the first sends never land in DEFAULT while the month is made.
    const now = deps.clock.now();
    if (childName === null) {
      await ensureEventPartitions(deps.db, deps.dialect, now - EVENT_RETENTION_MS, now);
      // What a suppression import cut short by a crash left behind (PostgreSQL; pg-suppression-import.ts).
      const pool = pgPool(deps.db);
      if (pool !== undefined) {
        const dropped = await dropStaleImportTables(pool);
        if (dropped.length > 0)
          deps.log.info({ tables: dropped }, 'staging tables of interrupted suppression imports dropped');
      }
    }
    for (const role of plan.own) {
      const s = await startRole(deps, role, share);
      started.push(s);
      if (s.api) api = s.api;
      if (s.smtp) smtp = s.smtp;
      if (s.inbound !== undefined) inbound = s.inbound;
      if (s.wake) wakeDelivery = s.wake;
    }
    if (plan.children > 0) {
      // After this process migrated the database and its roles started: a child opens a database
      // that is ready, and a port this process cannot bind never leaves children behind.
      const sup = startSupervisor({
        count: plan.children,
        log: deps.log,
        // The children's own settings: one process each, and no metrics listener (this one serves theirs).
        env: { ...process.env, POSTHORN_PROCESSES: '1', POSTHORN_METRICS_PORT: 'off' },
      });
      supervisor = sup;
      await sup.started;
    }
    // After the roles: a start that fails (port taken, bad certificate) must not use up the one
    // showing of the sandbox key.
    const welcome =
      config.sandbox && childName === null
        ? await (await import('./sandbox/bootstrap-sandbox.js')).bootstrapSandbox(deps)
        : null;
    ready = {
      roles: chosen,
      apiUrl: api?.url ?? null,
      smtp,
      inbound,
      metricsUrl: metricsListener?.url ?? null,
      children: supervisor?.running() ?? [],
      sandbox: welcome && {
        ...welcome,
        apiBaseUrl: apiBaseUrl(config, api?.url ?? null),
        caCertPath: api?.selfSignedCert ?? null,
        smtp,
      },
    };
  } catch (err) {
    signal.dispose();
    await Promise.all([supervisor?.stop(SUPERVISOR_STOP_MS), stopAll(deps, started)]);
    share?.stop();
    channel?.close();
    throw err;
  }
  deps.log.info(
    {
      roles: chosen,
      sandbox: config.sandbox,
      dialect: deps.dialect,
      ...(plan.children > 0 ? { own_roles: plan.own, children: ready.children } : {}),
    },
    'posthorn running',
  );
  metricsListener?.setServing(true);
  opts.onReady?.(ready);
  channel?.ready();
  const writer = sqliteWriter(deps.db);
  const name = await Promise.race([
    signal.received,
    ...(channel ? [channel.disconnected.then(() => 'supervisor gone' as const)] : []),
    ...(supervisor ? [supervisor.failed.then(() => 'supervisor gave up' as const)] : []),
    // Without its writer thread (storage/sqlite-writer.ts) no write can be stored: stop, and let
    // the service manager start the server again (deploy/posthorn.service, Restart=on-failure).
    ...(writer
      ? [
          writer.failed.then((err) => {
            deps.log.fatal({ err }, 'the SQLite writer thread ended: nothing more can be stored; stopping');
            return 'sqlite writer failed' as const;
          }),
        ]
      : []),
  ]);
  const exitCode = name === 'supervisor gave up' || name === 'sqlite writer failed' ? 1 : 0;
  deps.log.info({ signal: name }, 'shutting down');
  metricsListener?.setServing(false);
  let finished = false;
  // Unref'd: a clean shutdown lets the process end by itself; this only fires if something hangs.
  setTimeout(() => {
    deps.log.error({ finished }, `shutdown did not complete within ${SHUTDOWN_TIMEOUT_MS / 1000} s; exiting`);
    process.exit(finished ? exitCode : 1);
  }, SHUTDOWN_TIMEOUT_MS).unref();
  // The children stop alongside this process's roles, each on its own deadline within the timeout.
  await Promise.all([supervisor?.stop(SUPERVISOR_STOP_MS), stopAll(deps, started)]);
  share?.stop();
  channel?.close();
  finished = true;
  signal.dispose();
  return exitCode;
}

async function stopAll(deps: Runtime, started: Started[]): Promise<void> {
  // Reverse start order: the scheduler first, then the HTTP server, then the database.
  for (const s of [...started].reverse()) {
    await s.stop().catch((err: unknown) => deps.log.error({ err }, 'error while stopping a role'));
  }
  await deps.close().catch((err: unknown) => deps.log.error({ err }, 'error while closing the database'));
}

function waitForSignal(): { received: Promise<NodeJS.Signals>; dispose(): void } {
  let onSignal: (name: NodeJS.Signals) => void = () => {};
  const received = new Promise<NodeJS.Signals>((resolve) => {
    onSignal = (name) => resolve(name);
  });
  let count = 0;
  const handler = (name: NodeJS.Signals): void => {
    // A second Ctrl-C means "now": skip the graceful path.
    if (++count > 1) process.exit(1);
    onSignal(name);
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
  return {
    received,
    dispose: () => {
      process.off('SIGTERM', handler);
      process.off('SIGINT', handler);
    },
  };
}

/** What several roles share in one process: one submit pipeline (one group-commit batcher) and the TLS material. */
interface Shared {
  pipeline(): Promise<SubmitPipeline>;
  /** The certificate every listener serves, renewed in place on SIGHUP or a change on disk (src/http/tls-reload.ts). */
  tls(): Promise<TlsSource>;
  /** Stops watching the certificate files. */
  stop(): void;
}

function shared(deps: Runtime, onCommitted?: () => void): Shared {
  let pipeline: Promise<SubmitPipeline> | null = null;
  let tls: Promise<TlsSource> | null = null;
  let watching: TlsSource | null = null;
  return {
    // Loaded on first use, not at the top: every CLI command imports this module, and the send
    // pipeline, Fastify and the TLS code are a quarter of its start-up time.
    pipeline: () =>
      (pipeline ??= import('./send/submit.js').then((m) =>
        m.createSubmitPipeline(deps, onCommitted ? { onCommitted } : {}),
      )),
    tls: () =>
      (tls ??= Promise.all([import('./http/tls.js'), import('./http/tls-reload.js')]).then(async ([t, r]) => {
        watching = r.watchTls(deps.config, await t.loadTlsMaterial(deps.config, deps.log), deps.log);
        return watching;
      })),
    stop: () => watching?.stop(),
  };
}

type StartedRole = Started & {
  /** The delivery role: wakes its loop now rather than at its next poll. */
  wake?: () => void;
  api?: { url: string; selfSignedCert: string | null };
  smtp?: RelayPorts;
  inbound?: number;
};

async function startRole(deps: Runtime, role: Role, share: Shared): Promise<StartedRole> {
  switch (role) {
    case 'api':
      return startApi(deps, share);
    case 'smtp': {
      const { startRelay } = await import('./smtp/start-relay.js');
      const tls = await share.tls();
      const relay = await startRelay(deps, await share.pipeline(), tls.current());
      const unsubscribe = tls.subscribe(relay.updateTls);
      return {
        smtp: relay.ports,
        stop: () => {
          unsubscribe();
          return relay.stop();
        },
      };
    }
    case 'scheduler':
      // Imported here, as the other roles are, so a CLI command (buildDeps only) does not load it.
      return (await import('./scheduler/start-scheduler.js')).startScheduler(deps);
    case 'delivery': {
      const { startDelivery } = await import('./delivery/start-delivery.js');
      const { sandboxDelivery } = await import('./sandbox/sandbox-delivery.js');
      const delivery = await startDelivery(deps, sandboxDelivery(deps));
      return { stop: () => delivery.stop(), wake: () => delivery.worker.nudge() };
    }
    case 'inbound': {
      const { startInbound } = await import('./inbound/start-inbound.js');
      const tls = await share.tls();
      const mx = await startInbound(deps, tls.current());
      const unsubscribe = tls.subscribe(mx.updateTls);
      return {
        inbound: mx.port,
        stop: () => {
          unsubscribe();
          return mx.stop();
        },
      };
    }
    case 'webhooks': {
      const { startWebhooks } = await import('./webhooks/start-webhooks.js');
      return startWebhooks(deps);
    }
  }
}

/** HTTPS only: there is no plain-HTTP listener, so an API key never crosses the network in clear. */
async function startApi(deps: Runtime, share: Shared): Promise<StartedRole> {
  const { buildApp } = await import('./http/build-app.js');
  const source = await share.tls();
  const tls = source.current();
  const app = buildApp(deps, { https: { cert: tls.cert, key: tls.key }, pipeline: await share.pipeline() });
  // A renewed certificate for new connections; open ones keep theirs (tls.Server#setSecureContext).
  const unsubscribe = source.subscribe((pair) => (app.server as unknown as HttpsServer).setSecureContext(pair));
  await app.listen({ host: deps.config.listenHost, port: deps.config.httpPort });
  // POSTHORN_HTTP_PORT=0 asks the OS for a free port: report the one actually bound.
  const { port } = app.server.address() as AddressInfo;
  const host = deps.config.listenHost.includes(':') ? `[${deps.config.listenHost}]` : deps.config.listenHost;
  const url = `https://${host}:${port}`;
  deps.log.info({ url }, 'api listening');
  return {
    api: { url, selfSignedCert: tls.generated ? tls.certPath : null },
    stop: () => {
      unsubscribe();
      return app.close();
    },
  };
}

/** The API base the newcomer should call: the real bound port unless a public URL was configured. */
function apiBaseUrl(config: Readonly<Config>, boundUrl: string | null): string {
  const defaultPublic = `https://${config.hostname}:${config.httpPort}`;
  const port = boundUrl === null ? null : new URL(boundUrl).port;
  const base =
    config.publicUrl === defaultPublic && port !== null ? `https://${config.hostname}:${port}` : config.publicUrl;
  return `${base}/v1`;
}
