import { availableParallelism } from 'node:os';
import * as p from './parse-value.js';
import { parseSecretKey, parseSecretKeyList, readSecretKeyFile } from './parse-secret-key.js';
import { SEND_BODY_LIMIT } from '../core/limits.js';
import { parseProviders, type ProviderSetting } from './parse-providers.js';

/** The resolved, frozen configuration every part of Posthorn reads (through Deps). */
export interface Config {
  configFile: string | null;
  sandbox: boolean;
  dataDir: string;
  databaseUrl: string | null;
  listenHost: string;
  httpPort: number;
  smtpPort: number;
  smtpsPort: number;
  inboundPort: number;
  tlsCert: string | null;
  tlsKey: string | null;
  hostname: string;
  publicUrl: string;
  spfIncludeHost: string;
  bounceHost: string;
  dnsServers: string[];
  mxPort: number;
  relayHost: string | null;
  retrySchedule: number[];
  maxQueueLifetime: number;
  webhookAllowPrivate: boolean;
  bodyRetention: number;
  eventsRateLimit: number;
  domainRecheckInterval: number;
  domainGracePeriod: number;
  schedulerInterval: number;
  databasePoolSize: number;
  /** Rotate a domain's DKIM key once it is this many days old; 0: never on schedule (docs/delivery.md). */
  dkimRotateDays: number;
  /** How long a retired DKIM selector's record stays listed after signing moved off it. */
  dkimRetireAfter: number;
  /** A pending DKIM record not found after this long raises a notice. */
  dkimPendingNoticeAfter: number;
  /** How often a domain with a pending DKIM record is re-checked (more often than the daily re-check). */
  dkimPendingCheckInterval: number;
  logLevel: string;
  mxMaxConnections: number;
  /** POSTHORN_PROVIDERS: additions to the built-in mailbox providers and their limits (delivery/providers.ts). */
  providers: ProviderSetting[];
  /** How long a provider that blocked this node's mail (5.7.x reputation block) is not sent to. */
  providerSuspend: number;
  /** The constant last field of the Feedback-ID header (delivery/feedback-id.ts). */
  feedbackSenderId: string;
  deliveryConcurrency: number;
  processes: number;
  dkimThreads: number;
  offloadThreads: number;
  webhookTimeout: number;
  webhookRetrySchedule: number[];
  webhookDisableAfter: number;
  webhookConcurrency: number;
  webhookEndpointConcurrency: number;
  webhookSecretOverlap: number;
  complaintAddress: string;
  inboundMaxSize: number;
  inboundRateLimit: number;
  smtpMaxConnectionsPerClient: number;
  smtpAuthTimeout: number;
  inboundMaxConnectionsPerClient: number;
  inboundMailTimeout: number;
  queueLease: number;
  /** Key that seals secrets at rest (src/secrets/), from POSTHORN_SECRETS_KEY; null when not set. */
  secretsKey: Buffer | null;
  /** The same key read from the file POSTHORN_SECRETS_KEY_FILE names (the key, not the path); null when not set. */
  secretsKeyFile: Buffer | null;
  /** Keys from before a rotation, still used to open values sealed with them. */
  secretsOldKeys: Buffer[];
  httpHeadersTimeout: number;
  httpBodyTimeout: number;
  httpMinBodyRate: number;
  httpBodyRateWindow: number;
  httpBodyBudget: number;
  httpMaxConnectionsPerClient: number;
  /** Port of the metrics listener (docs/observability.md); null: turned off. */
  metricsPort: number | null;
  metricsHost: string;
  /** Bearer token the metrics listener asks for; null: none (loopback only). */
  metricsToken: string | null;
  /** HTTPS port of recipient domains' MTA-STS policy hosts (RFC 8461 §3.3: 443). */
  mtaStsPort: number;
  /** PEM file of extra certificate authorities trusted for MTA-STS and delivery TLS; null: the system's roots only. */
  tlsCaFile: string | null;
}

/** One configuration key: its variable, parser, default and the sentence docs/config.md shows. */
export interface ConfigEntry<K extends keyof Config = keyof Config> {
  key: K;
  env: string;
  parse: (text: string) => Config[K];
  /** Default, possibly derived from keys earlier in the schema (e.g. sandbox-dependent ports). */
  default: (c: Partial<Config>) => Config[K];
  /** How the default reads in the docs. */
  defaultText: string;
  description: string;
}

function entry<K extends keyof Config>(e: ConfigEntry<K>): ConfigEntry {
  return e as unknown as ConfigEntry;
}

const sandboxed = <T>(c: Partial<Config>, inSandbox: T, otherwise: T): T => (c.sandbox ? inSandbox : otherwise);

/**
 * Every key, in resolution order: a default may read only keys above it. The variable names up to
 * POSTHORN_SANDBOX's block are the operator-facing set the README and docs/config.md promise (a
 * test checks none is dropped); entries after it are additions documented the same way.
 */
export const CONFIG_SCHEMA: readonly ConfigEntry[] = [
  entry({
    key: 'configFile',
    env: 'POSTHORN_CONFIG_FILE',
    parse: (t) => t,
    default: () => null,
    defaultText: 'none',
    description: 'JSON file whose keys are these variable names; a variable set in the environment wins over the file.',
  }),
  entry({
    key: 'sandbox',
    env: 'POSTHORN_SANDBOX',
    parse: p.parseBool,
    default: () => true,
    defaultText:
      '`1` when no config is given (no config file, no `POSTHORN_HOSTNAME`, no `POSTHORN_DATABASE_URL`), else `0`',
    description: '`1`: sandbox mode (loopback only, demo account, mail kept in a local mailbox); `0`: production.',
  }),
  entry({
    key: 'dataDir',
    env: 'POSTHORN_DATA_DIR',
    parse: (t) => t,
    default: () => './data',
    defaultText: '`./data`',
    description: 'SQLite file, generated TLS certificate, sandbox mailbox.',
  }),
  entry({
    key: 'databaseUrl',
    env: 'POSTHORN_DATABASE_URL',
    parse: p.parseDatabaseUrl,
    default: () => null,
    defaultText: 'SQLite in the data dir',
    description: '`postgres://…` to use PostgreSQL instead of SQLite.',
  }),
  entry({
    key: 'databasePoolSize',
    env: 'POSTHORN_DATABASE_POOL_SIZE',
    parse: (t) => p.parseInteger(t, 1, 1000),
    default: () => 10,
    defaultText: '`10`',
    description:
      "PostgreSQL: connections one `posthorn serve` process opens at most; the sum over all nodes must stay under the server's `max_connections` (see docs/scaling.md).",
  }),
  entry({
    key: 'listenHost',
    env: 'POSTHORN_LISTEN_HOST',
    parse: (t) => t.trim(),
    default: (c) => sandboxed(c, '127.0.0.1', '0.0.0.0'),
    defaultText: '`127.0.0.1` in sandbox, `0.0.0.0` otherwise',
    description: 'Address the listeners bind.',
  }),
  entry({
    key: 'httpPort',
    env: 'POSTHORN_HTTP_PORT',
    parse: (t) => p.parsePort(t, true),
    default: () => 8443,
    defaultText: '`8443`',
    description:
      'HTTPS API, dashboard, tracking links; `0`: a free port chosen by the OS (tests), logged in the `api listening` line.',
  }),
  entry({
    key: 'smtpPort',
    env: 'POSTHORN_SMTP_PORT',
    parse: (t) => p.parsePort(t, true),
    default: (c) => sandboxed(c, 2587, 587),
    defaultText: '`587` (sandbox: `2587`)',
    description:
      'SMTP relay, STARTTLS; `0` picks a free port (tests), reported in the `smtp relay listening` log line.',
  }),
  entry({
    key: 'smtpsPort',
    env: 'POSTHORN_SMTPS_PORT',
    parse: (t) => p.parsePort(t, true),
    default: (c) => sandboxed(c, 2465, 465),
    defaultText: '`465` (sandbox: `2465`)',
    description: 'SMTP relay, implicit TLS; `0` turns it off.',
  }),
  entry({
    key: 'inboundPort',
    env: 'POSTHORN_INBOUND_PORT',
    parse: (t) => p.parsePort(t, true),
    default: (c) => sandboxed(c, 2525, 25),
    defaultText: '`25` (sandbox: `2525`)',
    description:
      'MX for the bounce host: DSNs and complaint reports; `0` picks a free port (tests), reported in the `inbound mx listening` log line.',
  }),
  entry({
    key: 'tlsCert',
    env: 'POSTHORN_TLS_CERT',
    parse: (t) => t,
    default: () => null,
    defaultText: 'self-signed, generated into the data dir',
    description: 'PEM certificate (chain) for HTTPS and STARTTLS; set together with `POSTHORN_TLS_KEY`.',
  }),
  entry({
    key: 'tlsKey',
    env: 'POSTHORN_TLS_KEY',
    parse: (t) => t,
    default: () => null,
    defaultText: 'self-signed, generated into the data dir',
    description: 'PEM private key for HTTPS and STARTTLS.',
  }),
  entry({
    key: 'hostname',
    env: 'POSTHORN_HOSTNAME',
    parse: p.parseHostname,
    default: () => 'localhost',
    defaultText: '`localhost` in sandbox; required otherwise',
    description: '`{smtp_host}`: EHLO name, relay host name, Message-ID domain.',
  }),
  entry({
    key: 'publicUrl',
    env: 'POSTHORN_PUBLIC_URL',
    parse: p.parseUrl,
    default: (c) => `https://${c.hostname}:${c.httpPort}`,
    defaultText: '`https://<hostname>:<http port>`',
    description: '`{base_url}` without `/v1`: links in mail, dashboard.',
  }),
  entry({
    key: 'spfIncludeHost',
    env: 'POSTHORN_SPF_INCLUDE_HOST',
    parse: p.parseDnsName,
    default: (c) => `spf.${c.hostname}`,
    defaultText: '`spf.<hostname>`',
    description: '`{spf_include_host}`: the host sending domains include in their SPF record.',
  }),
  entry({
    key: 'bounceHost',
    env: 'POSTHORN_BOUNCE_HOST',
    parse: p.parseDnsName,
    default: (c) => `bounce.${c.hostname}`,
    defaultText: '`bounce.<hostname>`',
    description: "`{bounce_host}`: target of each domain's `bounce.<domain>` CNAME (the aligned return path).",
  }),
  entry({
    key: 'dnsServers',
    env: 'POSTHORN_DNS_SERVERS',
    parse: p.parseResolverList,
    default: () => [],
    defaultText: "the system's",
    description:
      'Comma-separated resolver addresses (`ip`, `ip:port`, `[ipv6]:port`) used for MX lookups and domain checks.',
  }),
  entry({
    key: 'mxPort',
    env: 'POSTHORN_MX_PORT',
    parse: (t) => p.parsePort(t),
    default: () => 25,
    defaultText: '`25`',
    description: "TCP port used when delivering to a recipient's MX.",
  }),
  entry({
    key: 'relayHost',
    env: 'POSTHORN_RELAY_HOST',
    parse: (t) => p.parseHostPort(t, true),
    default: () => null,
    defaultText: 'none',
    description: '`host:port` smarthost: all outbound mail goes there instead of MX.',
  }),
  entry({
    key: 'retrySchedule',
    env: 'POSTHORN_RETRY_SCHEDULE',
    parse: p.parseDurations,
    default: () => [60_000, 300_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000],
    defaultText: '`1m,5m,15m,30m,1h,2h,4h`',
    description:
      'Soft-bounce backoff; the last step repeats until the queue lifetime ends, about three days of retries by default.',
  }),
  entry({
    key: 'maxQueueLifetime',
    env: 'POSTHORN_MAX_QUEUE_LIFETIME',
    parse: p.parseDuration,
    default: () => 72 * 3_600_000,
    defaultText: '`72h`',
    description: 'Give up on a soft-bouncing recipient after this; it then gets a `failed` event.',
  }),
  entry({
    key: 'webhookAllowPrivate',
    env: 'POSTHORN_WEBHOOK_ALLOW_PRIVATE',
    parse: p.parseBool,
    default: (c) => c.sandbox === true,
    defaultText: '`1` in sandbox, `0` otherwise',
    description: '`1`: allow webhook URLs on loopback and private addresses (local development, tests).',
  }),
  entry({
    key: 'bodyRetention',
    env: 'POSTHORN_BODY_RETENTION',
    parse: p.parseDuration,
    default: () => 30 * 86_400_000,
    defaultText: '`30d`',
    description: 'How long message bodies are kept; events outlive them (events are kept 120 days).',
  }),
  entry({
    key: 'eventsRateLimit',
    env: 'POSTHORN_EVENTS_RATE_LIMIT',
    parse: (t) => p.parseInteger(t, 1, 100_000),
    default: () => 10,
    defaultText: '`10`',
    description:
      'Reads per second per credential (API key or account token) before 429, counted apart for GET /v1/events, GET /v1/domain and the GET /v1/messages routes (see docs/api.md).',
  }),
  entry({
    key: 'domainRecheckInterval',
    env: 'POSTHORN_DOMAIN_RECHECK_INTERVAL',
    parse: p.parseDuration,
    default: () => 86_400_000,
    defaultText: '`24h`',
    description: 'How often verified domains are re-checked (daily by default).',
  }),
  entry({
    key: 'domainGracePeriod',
    env: 'POSTHORN_DOMAIN_GRACE_PERIOD',
    parse: p.parseDuration,
    default: () => 72 * 3_600_000,
    defaultText: '`72h`',
    description:
      'A verified domain whose records keep failing this long becomes unverified; until then it is in `warning` and still sends.',
  }),
  entry({
    key: 'schedulerInterval',
    env: 'POSTHORN_SCHEDULER_INTERVAL',
    parse: (t) => {
      const ms = p.parseDuration(t);
      if (ms < 1000) throw new Error(`expected an interval of at least 1s, got "${t}"`);
      return ms;
    },
    default: () => 60_000,
    defaultText: '`1m`',
    description:
      'How often the scheduler role re-checks due domains, makes event partitions ahead and purges what retention allows: each task runs once per cluster per interval, whichever node with the scheduler role takes it (see docs/scaling.md).',
  }),
  entry({
    key: 'dkimRotateDays',
    env: 'POSTHORN_DKIM_ROTATE_DAYS',
    parse: (t) => p.parseInteger(t, 0, 3650),
    default: () => 0,
    defaultText: '`0` (off)',
    description:
      'Start a DKIM key rotation for each domain whose signing key is older than this many days (e.g. `180`); 0 turns the schedule off. Each domain may set its own (docs/delivery.md). A rotation never breaks signing: the old key signs until the new record is found in DNS.',
  }),
  entry({
    key: 'dkimRetireAfter',
    env: 'POSTHORN_DKIM_RETIRE_AFTER',
    parse: p.parseDuration,
    default: () => 7 * 86_400_000,
    defaultText: '`7d`',
    description:
      "After a DKIM rotation switches signing to the new key, the old selector's record stays listed this long (mail signed just before the switch must still verify), then the old key is forgotten.",
  }),
  entry({
    key: 'dkimPendingNoticeAfter',
    env: 'POSTHORN_DKIM_PENDING_NOTICE_AFTER',
    parse: p.parseDuration,
    default: () => 3 * 86_400_000,
    defaultText: '`3d`',
    description:
      'A rotated DKIM record still not found in DNS after this long raises a `domain.dkim_pending` notice (signing goes on with the old key meanwhile).',
  }),
  entry({
    key: 'dkimPendingCheckInterval',
    env: 'POSTHORN_DKIM_PENDING_CHECK_INTERVAL',
    parse: p.parseDuration,
    default: () => 3_600_000,
    defaultText: '`1h`',
    description:
      'How often a domain with a pending DKIM record is re-checked, so signing switches soon after the record is published (the daily re-check when that is sooner).',
  }),
  entry({
    key: 'logLevel',
    env: 'POSTHORN_LOG_LEVEL',
    parse: p.parseLogLevel,
    default: () => 'info',
    defaultText: '`info`',
    description: 'Log level (fatal, error, warn, info, debug, trace, silent); logs go to stderr as JSON.',
  }),
  entry({
    key: 'mxMaxConnections',
    env: 'POSTHORN_MX_MAX_CONNECTIONS',
    parse: (t) => p.parseInteger(t, 1, 1000),
    default: () => 10,
    defaultText: '`10`',
    description:
      'Concurrent SMTP connections per destination host (MX or smarthost); more transactions wait their turn.',
  }),
  entry({
    key: 'providers',
    env: 'POSTHORN_PROVIDERS',
    parse: parseProviders,
    default: () => [],
    defaultText: 'the built-in list (gmail, outlook, yahoo, apple; docs/delivery.md)',
    description:
      'Mailbox providers that MX hosts roll up into, by host name suffix, with their limits: `name=suffix,suffix;name=suffix` adds suffixes (to a built-in provider, or as a new one), or JSON `{"gmail":{"suffixes":[…],"connections":20,"messages_per_connection":100,"per_minute":1200}}` also sets limits. See docs/delivery.md.',
  }),
  entry({
    key: 'providerSuspend',
    env: 'POSTHORN_PROVIDER_SUSPEND',
    parse: p.parseDuration,
    default: () => 3_600_000,
    defaultText: '`1h`',
    description:
      "How long this node sends nothing to a provider that blocked its mail for reputation (a 5.7.x block reply); the provider's mail is deferred meanwhile, not failed.",
  }),
  entry({
    key: 'feedbackSenderId',
    env: 'POSTHORN_FEEDBACK_SENDER_ID',
    parse: parseSenderId,
    default: () => 'posthorn',
    defaultText: '`posthorn`',
    description:
      'The last field of the `Feedback-ID` header every message carries (Gmail feedback loop): the same for all mail of this installation, 1 to 32 of A-Z, a-z, 0-9, `.`, `_`, `-`.',
  }),
  entry({
    key: 'deliveryConcurrency',
    env: 'POSTHORN_DELIVERY_CONCURRENCY',
    parse: (t) => p.parseInteger(t, 1, 100_000),
    default: () => 256,
    defaultText: '`256`',
    description: 'SMTP transactions a delivery worker keeps in flight at once.',
  }),
  entry({
    key: 'processes',
    env: 'POSTHORN_PROCESSES',
    parse: (t) => p.parseInteger(t, 1, 64),
    default: () => 1,
    defaultText: '`1`',
    description:
      '`serve`: processes on this host (`serve --processes N` overrides it). `1`: every role in one process. `N` ≥ 2: the process started runs the other roles and supervises N−1 child processes running `delivery` (docs/scaling.md, "Several processes on one host"); at most `2` on SQLite.',
  }),
  entry({
    key: 'dkimThreads',
    env: 'POSTHORN_DKIM_THREADS',
    parse: (t) => p.parseInteger(t, 0, 256),
    default: () => availableParallelism(),
    defaultText: 'the number of CPU cores',
    description:
      'Worker threads that render API messages and sign DKIM off the event loop; `0` does both on the main thread.',
  }),
  entry({
    key: 'offloadThreads',
    env: 'POSTHORN_OFFLOAD_THREADS',
    parse: (t) => p.parseInteger(t, 0, 256),
    default: () => Math.min(2, availableParallelism()),
    defaultText: '`2` (or the number of CPU cores when fewer)',
    description:
      'Worker threads that parse large send bodies and render large messages (over 64 KiB) off the event loop; `0` does it on the main thread.',
  }),
  entry({
    key: 'webhookTimeout',
    env: 'POSTHORN_WEBHOOK_TIMEOUT',
    parse: p.parseTimerDuration,
    default: () => 15_000,
    defaultText: '`15s`',
    description:
      'Limit on one webhook POST, connect to response; a timeout counts as a failed attempt. At most 2147483647ms (about 24.8 days, the longest Node timer).',
  }),
  entry({
    key: 'webhookRetrySchedule',
    env: 'POSTHORN_WEBHOOK_RETRY_SCHEDULE',
    parse: p.parseDurations,
    default: () => [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
    defaultText: '`5s,5m,30m,2h,5h,10h,10h`',
    description:
      'Delays before each retry of a webhook that got no 2xx; after the last one it is given up (about a day in all; see docs/webhooks.md).',
  }),
  entry({
    key: 'webhookDisableAfter',
    env: 'POSTHORN_WEBHOOK_DISABLE_AFTER',
    parse: p.parseDuration,
    default: () => 5 * 86_400_000,
    defaultText: '`5d`',
    description:
      'An endpoint that has failed every attempt for this long is disabled with a warning notice (a 410 Gone disables it at once).',
  }),
  entry({
    key: 'webhookConcurrency',
    env: 'POSTHORN_WEBHOOK_CONCURRENCY',
    parse: (t) => p.parseInteger(t, 1, 10_000),
    default: () => 512,
    defaultText: '`512`',
    description: 'Webhook POSTs a dispatcher keeps in flight at once, over all endpoints.',
  }),
  entry({
    key: 'webhookEndpointConcurrency',
    env: 'POSTHORN_WEBHOOK_ENDPOINT_CONCURRENCY',
    parse: (t) => p.parseInteger(t, 1, 10_000),
    default: () => 128,
    defaultText: '`128`',
    description:
      'Webhook POSTs a dispatcher keeps in flight to any one endpoint, so a slow or hanging endpoint cannot take the slots of the others.',
  }),
  entry({
    key: 'webhookSecretOverlap',
    env: 'POSTHORN_WEBHOOK_SECRET_OVERLAP',
    parse: p.parseDuration,
    default: () => 86_400_000,
    defaultText: '`24h`',
    description: 'After a secret rotation, how long the old secret keeps signing beside the new one.',
  }),
  entry({
    key: 'complaintAddress',
    env: 'POSTHORN_COMPLAINT_ADDRESS',
    parse: p.parseAddress,
    default: (c) => `fbl@${c.bounceHost}`,
    defaultText: '`fbl@<bounce host>`',
    description:
      'Where mailbox providers send complaint reports (ARF feedback loops); the inbound MX accepts it besides return paths.',
  }),
  entry({
    key: 'inboundMaxSize',
    env: 'POSTHORN_INBOUND_MAX_SIZE',
    parse: p.parseSize,
    default: () => 10 * 1024 * 1024,
    defaultText: '`10MB`',
    description:
      'Largest report the inbound MX accepts (SIZE, RFC 1870); bounces carrying a whole message stay well under.',
  }),
  entry({
    key: 'inboundRateLimit',
    env: 'POSTHORN_INBOUND_RATE_LIMIT',
    parse: (t) => p.parseInteger(t, 1, 1_000_000),
    default: () => 100,
    defaultText: '`100`',
    description: 'Reports per minute the inbound MX accepts from one client IP address before answering 421.',
  }),
  entry({
    key: 'smtpMaxConnectionsPerClient',
    env: 'POSTHORN_SMTP_MAX_CONNECTIONS_PER_CLIENT',
    parse: (t) => p.parseInteger(t, 1, 10_000),
    default: () => 20,
    defaultText: '`20`',
    description:
      'Connections one client address (an IPv6 client: its /64) may hold on each relay port; more get `421 4.7.0` and are closed.',
  }),
  entry({
    key: 'smtpAuthTimeout',
    env: 'POSTHORN_SMTP_AUTH_TIMEOUT',
    parse: p.parseDuration,
    default: () => 30_000,
    defaultText: '`30s`',
    description:
      'A relay session not authenticated this long after its greeting is closed with `421 4.7.0`; also the TLS handshake deadline of the implicit-TLS port (at most 10 s).',
  }),
  entry({
    key: 'inboundMaxConnectionsPerClient',
    env: 'POSTHORN_INBOUND_MAX_CONNECTIONS_PER_CLIENT',
    parse: (t) => p.parseInteger(t, 1, 10_000),
    default: () => 10,
    defaultText: '`10`',
    description:
      'Connections one client address (an IPv6 client: its /64) may hold on the inbound MX; more get `421 4.7.0` and are closed.',
  }),
  entry({
    key: 'inboundMailTimeout',
    env: 'POSTHORN_INBOUND_MAIL_TIMEOUT',
    parse: p.parseDuration,
    default: () => 60_000,
    defaultText: '`60s`',
    description:
      'An inbound MX session that has not sent its first MAIL this long after the greeting is closed with `421 4.7.0`.',
  }),
  entry({
    key: 'queueLease',
    env: 'POSTHORN_QUEUE_LEASE',
    parse: (t) => {
      const ms = p.parseDuration(t);
      if (ms < 100) throw new Error(`expected a lease of at least 100ms, got "${t}"`);
      return ms;
    },
    default: () => 30_000,
    defaultText: '`30s`',
    description:
      'How long a delivery worker holds a claimed job, and a webhook dispatcher a claimed webhook delivery; each renews the lease every third of it while the work runs, so the work of a crashed node is taken up again by another within about this time (see docs/scaling.md).',
  }),
  entry({
    key: 'secretsKey',
    env: 'POSTHORN_SECRETS_KEY',
    parse: parseSecretKey,
    default: () => null,
    defaultText: 'none (secrets stored unencrypted)',
    description:
      'Base64 of 32 random bytes (`openssl rand -base64 32`): DKIM private keys, webhook secrets and the return-path and tracking HMAC keys are stored encrypted with it (AES-256-GCM), so a copy of the database or a backup leaks none of them. Keep it out of the data dir and its backups. `posthorn secrets rotate` encrypts what is still plaintext.',
  }),
  entry({
    key: 'secretsKeyFile',
    env: 'POSTHORN_SECRETS_KEY_FILE',
    parse: readSecretKeyFile,
    default: () => null,
    defaultText: 'none',
    description:
      'Path of a file holding that key (base64 text, or 32 raw bytes), read at start-up; instead of `POSTHORN_SECRETS_KEY`, not beside it.',
  }),
  entry({
    key: 'secretsOldKeys',
    env: 'POSTHORN_SECRETS_OLD_KEYS',
    parse: parseSecretKeyList,
    default: () => [],
    defaultText: 'none',
    description:
      'Comma-separated base64 keys used before a rotation: values sealed with them are still read until `posthorn secrets rotate` has re-encrypted them under the current key.',
  }),
  entry({
    key: 'httpHeadersTimeout',
    env: 'POSTHORN_HTTP_HEADERS_TIMEOUT',
    parse: p.parseDuration,
    default: () => 10_000,
    defaultText: '`10s`',
    description:
      'HTTPS API: time a client has for the TLS handshake, and again for the request line and headers, before 408 and close.',
  }),
  entry({
    key: 'httpBodyTimeout',
    env: 'POSTHORN_HTTP_BODY_TIMEOUT',
    parse: p.parseDuration,
    default: () => 60_000,
    defaultText: '`60s`',
    description:
      'HTTPS API: time from the start of a request until its whole body has arrived, before 408 and close (the largest send body, 16 MiB, needs about 280 KB/s).',
  }),
  entry({
    key: 'httpMinBodyRate',
    env: 'POSTHORN_HTTP_MIN_BODY_RATE',
    parse: p.parseSize,
    default: () => 8 * 1024,
    defaultText: '`8KB`',
    description:
      'HTTPS API: bytes per second a request body must keep arriving at, averaged over each `POSTHORN_HTTP_BODY_RATE_WINDOW`; a slower one gets 408 and is closed.',
  }),
  entry({
    key: 'httpBodyRateWindow',
    env: 'POSTHORN_HTTP_BODY_RATE_WINDOW',
    parse: p.parseDuration,
    default: () => 5_000,
    defaultText: '`5s`',
    description:
      'HTTPS API: the period over which `POSTHORN_HTTP_MIN_BODY_RATE` is measured, so a short stall on a good link is forgiven.',
  }),
  entry({
    key: 'httpBodyBudget',
    env: 'POSTHORN_HTTP_BODY_BUDGET',
    parse: parseBodyBudget,
    // Room for the five 9 MiB messages the large-message line admits at once (one processed, four
    // waiting; docs/security.md, Connections and memory) with small requests alongside, so slow
    // uploads can pin no more memory than that.
    default: () => 64 * 1024 * 1024,
    defaultText: '`64MB`',
    description:
      'HTTPS API: request body bytes one process holds at once; a request that would go over gets 503 with `Retry-After` before its body is read. An eighth of it is kept for bodies under 64 KiB. At least 16MB (the largest send body).',
  }),
  entry({
    key: 'httpMaxConnectionsPerClient',
    env: 'POSTHORN_HTTP_MAX_CONNECTIONS_PER_CLIENT',
    parse: (t) => p.parseInteger(t, 0, 1_000_000),
    default: () => 100,
    defaultText: '`100`',
    description:
      'HTTPS API: open connections one client address may hold (IPv6: one /64); more are closed at once. `0`: no cap (e.g. behind a proxy that is the only client).',
  }),
  entry({
    key: 'metricsPort',
    env: 'POSTHORN_METRICS_PORT',
    parse: (t) => (t.trim().toLowerCase() === 'off' ? null : p.parsePort(t, true)),
    default: () => 9464,
    defaultText: '`9464`',
    description:
      'Plain-HTTP listener for Prometheus `/metrics`, `/healthz` and `/readyz`, apart from the API port (docs/observability.md); one per process, so processes on one host each need their own. `0`: a free port chosen by the OS, logged in the `metrics listening` line; `off`: no listener.',
  }),
  entry({
    key: 'metricsHost',
    env: 'POSTHORN_METRICS_HOST',
    parse: (t) => t.trim(),
    default: () => '127.0.0.1',
    defaultText: '`127.0.0.1`',
    description:
      'Address the metrics listener binds. Anything but a loopback address needs `POSTHORN_METRICS_TOKEN`, or `serve` refuses to start.',
  }),
  entry({
    key: 'metricsToken',
    env: 'POSTHORN_METRICS_TOKEN',
    parse: parseMetricsToken,
    default: () => null,
    defaultText: 'none',
    description:
      'Bearer token the metrics listener requires on every request (`Authorization: Bearer …`; Prometheus: `authorization: { credentials: … }`). At least 16 characters.',
  }),
  entry({
    key: 'mtaStsPort',
    env: 'POSTHORN_MTA_STS_PORT',
    parse: (t) => p.parsePort(t),
    default: () => 443,
    defaultText: '`443`',
    description:
      "HTTPS port used to fetch recipient domains' MTA-STS policies (RFC 8461 §3.3 fixes 443; tests point it at a local server).",
  }),
  entry({
    key: 'tlsCaFile',
    env: 'POSTHORN_TLS_CA_FILE',
    parse: (t) => t.trim(),
    default: () => null,
    defaultText: "none (the system's roots)",
    description:
      "PEM file of certificate authorities trusted in addition to Node's built-in roots when validating recipient MX certificates and MTA-STS policy hosts (docs/delivery.md).",
  }),
];

/** Feedback-ID fields are colon-separated, so the sender id is a plain token. */
function parseSenderId(text: string): string {
  const t = text.trim();
  if (!/^[A-Za-z0-9._-]{1,32}$/.test(t))
    throw new Error(`expected 1 to 32 of A-Z, a-z, 0-9, ".", "_", "-" (no colon), got "${text}"`);
  return t;
}

/** A token short enough to guess would protect nothing. */
function parseMetricsToken(text: string): string {
  const t = text.trim();
  if (t.length < 16 || /\s/.test(t))
    throw new Error('expected at least 16 characters without spaces (e.g. openssl rand -hex 24)');
  return t;
}

/** The budget must fit one body of the largest size a send may have, or such sends could never pass. */
function parseBodyBudget(text: string): number {
  const bytes = p.parseSize(text);
  if (bytes < SEND_BODY_LIMIT)
    throw new Error(`expected at least 16MB (the largest request body, POST /v1/send), got "${text}"`);
  return bytes;
}
