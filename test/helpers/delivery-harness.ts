import { promises as dnsPromises } from 'node:dns';
import { rootCertificates } from 'node:tls';
import { resolverLookup } from '../../src/delivery/smtp/resolver-lookup.js';
import { trustedCas } from '../../src/delivery/security/trust-store.js';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { createAccount } from '../../src/accounts/accounts.js';
import { issueApiKey } from '../../src/credentials/issue-api-key.js';
import { createSignerPool, type Signer } from '../../src/delivery/dkim/signer-pool.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
  type DeliveryWorkerOptions,
} from '../../src/delivery/delivery-worker.js';
import { returnPathSecret } from '../../src/delivery/return-path.js';
import { trackingSecret } from '../../src/tracking/secret.js';
import { createSmtpTransport, type SmtpTimeouts } from '../../src/delivery/smtp-transport.js';
import type { Transport } from '../../src/delivery/transport.js';
import { providerTable } from '../../src/delivery/providers.js';
import { addDomain } from '../../src/domains/add-domain.js';
import { createResolver } from '../../src/domains/create-resolver.js';
import { domainRecords } from '../../src/domains/dns-records.js';
import { buildApp } from '../../src/http/build-app.js';
import { createSandboxTransport } from '../../src/sandbox/sandbox-transport.js';
import type { AuthContext } from '../../src/credentials/authenticate.js';
import type { SendRequest } from '../../src/send/send-request.js';
import { createSubmitPipeline, planMessage, type SubmitPipeline } from '../../src/send/submit.js';
import { persistMessages, type MessagePlan } from '../../src/send/persist-messages.js';
import type { MessageTable } from '../../src/storage/database.js';
import type { DialectName } from '../../src/storage/open-database.js';
import { startDnsServer, type DnsServer, type Zone } from './dns-server.js';
import { postSend } from './send-client.js';
import { startSinkMx, type SinkMx, type SinkOptions } from './sink-mx.js';
import { createTestDeps, type TestDeps } from './test-deps.js';

/** The sending domain every harness sets up: a real DKIM key, verified, with an API key. */
export const SENDER_DOMAIN = 'acme.test';
/** A second verified domain of the same account: a `from` on it is rewritten to SENDER_DOMAIN (docs/api.md, The from rules). */
export const BRAND_DOMAIN = 'brand.test';
/** Recipient domains of the zone: MX on the sink, a null MX (RFC 7505), no such domain. */
export const MX_DOMAIN = 'example.org';
export const NULL_MX_DOMAIN = 'nullmx.test';

/** An event row as the tests read it: details parsed. */
export interface EventView {
  id: string;
  event: string;
  recipient: string;
  occurredAt: number;
  details: Record<string, unknown>;
}

/** One DKIM-Signature's verdict from mailauth. */
export interface DkimVerdict {
  result: string;
  domain: string;
  selector: string;
  comment: string;
}

export interface DeliveryHarness {
  deps: TestDeps;
  app: FastifyInstance;
  /** The app's submit pipeline: another intake (the SMTP relay) shares it, and so its rate limit and batcher. */
  pipeline: SubmitPipeline;
  /** Null in sandbox mode (mail never leaves the process). */
  sink: SinkMx | null;
  dns: DnsServer;
  worker: DeliveryWorker;
  transport: Transport;
  signer: Signer;
  returnPathSecret: Buffer;
  /** Key of the open, click and unsubscribe tokens the worker signs. */
  trackingSecret: Buffer;
  sender: { accountId: string; domainId: string; domain: string; key: string; selector: string };
  /** POST /v1/send with the sender's key. */
  send(
    body: Record<string, unknown>,
    key?: string,
  ): Promise<{ status: number; body: { id: string; error?: { type: string; field?: string } } }>;
  /**
   * Writes a message with its recipients, accepted-by-system events and jobs through the submit
   * pipeline's own compose (`planMessage`) and persist functions, bypassing the API's limits (e.g. more than 50 recipients, as the SMTP relay will
   * take); `message` overrides columns of the message row. Returns the message id.
   */
  insertMessage(to: string[], message?: Partial<MessageTable>): Promise<string>;
  /** Lets the worker run until no job is due and nothing is in flight. */
  run(): Promise<void>;
  /** Moves the fake clock, wakes the worker, and runs it until idle. */
  advance(ms: number): Promise<void>;
  /** Events of a message, oldest first (ties by id), optionally of one recipient. */
  events(messageId: string, recipient?: string): Promise<EventView[]>;
  /** Event names of a message's recipient, oldest first. */
  timeline(messageId: string, recipient: string): Promise<string[]>;
  /** mailauth's DKIM verdicts for a message, keys looked up in the loopback DNS zone. */
  verifyDkim(raw: Buffer): Promise<DkimVerdict[]>;
  /** Every sink message sent to `address` (case-insensitive). */
  received(address: string): NonNullable<DeliveryHarness['sink']>['messages'];
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Config overrides (variable names as in docs/config.md), e.g. POSTHORN_RETRY_SCHEDULE. */
  env?: Record<string, string>;
  sink?: SinkOptions;
  /** Extra or replaced zone entries. */
  zone?: Zone;
  worker?: Partial<DeliveryWorkerOptions>;
  mxMaxConnections?: number;
  timeouts?: Partial<SmtpTimeouts>;
  /** Use the sandbox mailbox transport (set POSTHORN_SANDBOX=1 in env too). */
  sandbox?: boolean;
  /** In production, give the worker the sandbox mailbox for mail that must stay local, as `serve` does. */
  localMailbox?: boolean;
  /**
   * Resolve MX host names through the loopback DNS zone and trust POSTHORN_TLS_CA_FILE, as `serve`
   * does (start-delivery.ts), for MX hosts that have names (transport-security tests).
   */
  namedMx?: boolean;
}

/** Defaults: a claim takes a whole 150-recipient message, and the loop polls often (time is fake, so polls are cheap). */
const WORKER_DEFAULTS: DeliveryWorkerOptions = { concurrency: 256, claimBatch: 200, idlePollMs: 50 };

/**
 * A delivery engine over real loopback parts for `dialect`: a fresh database with a fake clock, the
 * HTTP app, a scripted sink MX, a DNS server routing example.org to it, an inline DKIM signer, the
 * SMTP transport (or the sandbox mailbox) and a running worker. Retries are every 1 s for a queue
 * lifetime of 5 s unless `env` says otherwise. Close it after the test.
 */
export async function createDeliveryHarness(dialect: DialectName, opts: HarnessOptions = {}): Promise<DeliveryHarness> {
  const opened: Array<() => Promise<void>> = [];
  const closeAll = async () => {
    for (const close of opened.splice(0).reverse()) await close().catch(() => undefined);
  };
  try {
    const sink = opts.sandbox ? null : await startSinkMx(opts.sink);
    if (sink) opened.push(() => sink.close());
    const zone: Zone = {
      [MX_DOMAIN]: { MX: [{ exchange: '127.0.0.1', priority: 10 }] },
      [NULL_MX_DOMAIN]: { MX: [{ exchange: '.', priority: 0 }] },
    };
    const dns = await startDnsServer(zone);
    opened.push(() => dns.close());
    const deps = await createTestDeps(dialect, {
      resolver: createResolver([dns.address]),
      env: {
        POSTHORN_MX_PORT: String(sink?.port ?? 25),
        POSTHORN_RETRY_SCHEDULE: '1s',
        POSTHORN_MAX_QUEUE_LIFETIME: '5s',
        ...opts.env,
      },
    });
    opened.push(() => deps.close());

    // The sender: a real 2048-bit key (addDomain), made verified, its key record published in the zone.
    const account = await createAccount(deps, 'acme');
    await deps.db.updateTable('accounts').set({ rate_limit: 100_000 }).where('id', '=', account.id).execute();
    const domain = await addDomain(deps, 'acme', SENDER_DOMAIN);
    const brand = await addDomain(deps, 'acme', BRAND_DOMAIN);
    await deps.db
      .updateTable('domains')
      .set({ status: 'verified', verified_at: deps.clock.now() })
      .where('id', 'in', [domain.id, brand.id])
      .execute();
    const { key } = await issueApiKey(deps, domain.id);
    const hosts = { spfIncludeHost: deps.config.spfIncludeHost, bounceHost: deps.config.bounceHost };
    for (const d of [domain, brand]) {
      for (const r of domainRecords(d.name, d.dkim_selector, d.dkim_public_key, hosts)) {
        if (r.type === 'TXT') (zone[r.name] ??= {}).TXT = [...(zone[r.name]?.TXT ?? []), r.value];
      }
    }
    Object.assign(zone, opts.zone);

    const pipeline = createSubmitPipeline(deps);
    const app = buildApp(deps, { pipeline });
    opened.push(() => app.close());
    const signer = createSignerPool({ threads: 0 });
    opened.push(() => signer.close());
    const transport = opts.sandbox
      ? createSandboxTransport(deps)
      : createSmtpTransport({
          heloName: deps.config.hostname,
          maxConnectionsPerHost: opts.mxMaxConnections ?? 10,
          // MX host names of the zone (e.g. a provider-like mx.test-gmail.example) resolve through the loopback DNS server, as in serve.
          lookup: resolverLookup(deps.resolver),
          providers: providerTable(deps.config.providers, opts.mxMaxConnections ?? 10),
          log: pino({ level: 'silent' }),
          ...(opts.timeouts ? { timeouts: opts.timeouts } : {}),
          ...(opts.namedMx
            ? { lookup: resolverLookup(deps.resolver), ca: trustedCas(deps.config.tlsCaFile) ?? [...rootCertificates] }
            : {}),
        });
    opened.push(() => transport.close());
    const secret = await returnPathSecret(deps);
    const tracking = await trackingSecret(deps);
    const local = opts.localMailbox ? { localTransport: createSandboxTransport(deps) } : {};
    const worker = startDeliveryWorker(
      deps,
      { signer, transport, returnPathSecret: secret, trackingSecret: tracking, ...local },
      { ...WORKER_DEFAULTS, ...opts.worker },
    );
    let stopped = false;
    opened.push(async () => {
      if (!stopped) await worker.stop(5_000);
    });

    const mailauthResolver = new dnsPromises.Resolver();
    mailauthResolver.setServers([dns.address]);

    const harness: DeliveryHarness = {
      deps,
      app,
      pipeline,
      sink,
      dns,
      worker,
      transport,
      signer,
      returnPathSecret: secret,
      trackingSecret: tracking,
      sender: { accountId: account.id, domainId: domain.id, domain: domain.name, key, selector: domain.dkim_selector },
      async send(body, k = key) {
        const res = await postSend(app, k, body);
        return { status: res.status, body: res.body };
      },
      async insertMessage(to, overrides = {}) {
        // The compose step's own plan for a request the API would not take, then its own persist.
        const from = { name: 'Acme', local: 'hello', domain: domain.name, address: `hello@${domain.name}` };
        const req: SendRequest = {
          from,
          to: to.map((address) => ({
            name: '',
            address,
            local: address.split('@')[0]!,
            domain: address.split('@')[1]!.toLowerCase(),
          })),
          subject: 'Inserted',
          html: '<p>Hello</p>',
          text: null,
          tags: [],
          headers: [],
        };
        const auth: AuthContext = {
          keyId: '',
          domain: {
            id: domain.id,
            name: domain.name,
            status: 'verified',
            sandbox: false,
            tracking: { opens: false, clicks: false, unsubscribe: false },
          },
          account: { id: account.id, rateLimit: 100_000, monthlyQuota: null },
        };
        const { plan: composed, body } = planMessage(deps, { auth, req, from, key: undefined });
        const plan: MessagePlan = { ...composed, message: { ...composed.message, ...overrides } };
        const id = body.id;
        const [result] = await persistMessages(deps.db, [plan]);
        if (result?.kind !== 'accepted') throw new Error(`inserting a message failed: ${JSON.stringify(result)}`);
        return id;
      },
      async run() {
        // idle() answers from one empty claim; a job made due while that claim ran is caught by asking again.
        for (;;) {
          await worker.idle();
          const due = await deps.db
            .selectFrom('jobs')
            .select('id')
            .where('run_at', '<=', deps.clock.now())
            .executeTakeFirst();
          if (!due) return;
        }
      },
      async advance(ms) {
        deps.clock.advance(ms);
        worker.nudge();
        await harness.run();
      },
      async events(messageId, recipient) {
        let q = deps.db
          .selectFrom('events')
          .select(['id', 'event', 'recipient', 'occurred_at', 'details'])
          .where('message_id', '=', messageId);
        if (recipient !== undefined) q = q.where('recipient', '=', recipient);
        const rows = await q.orderBy('occurred_at').orderBy('id').execute();
        return rows.map((r) => ({
          id: r.id,
          event: r.event,
          recipient: r.recipient,
          occurredAt: Number(r.occurred_at),
          details: JSON.parse(r.details) as Record<string, unknown>,
        }));
      },
      async timeline(messageId, recipient) {
        return (await harness.events(messageId, recipient)).map((e) => e.event);
      },
      async verifyDkim(raw) {
        const { results } = await dkimVerify(raw, {
          resolver: (name: string, type: string) => mailauthResolver.resolve(name, type) as Promise<string[][]>,
          curTime: new Date(deps.clock.now() + 60_000),
        });
        return results.map((r) => ({
          result: r.status.result,
          domain: r.signingDomain,
          selector: r.selector ?? '',
          comment: String(r.status.comment ?? ''),
        }));
      },
      received(address) {
        const a = address.toLowerCase();
        return (sink?.messages ?? []).filter((m) => m.rcptTo.some((r) => r.toLowerCase() === a));
      },
      async close() {
        await closeAll();
      },
    };
    // A test that stops the worker itself must not have it stopped twice.
    const stop = worker.stop.bind(worker);
    worker.stop = async (timeoutMs) => {
      stopped = true;
      await stop(timeoutMs);
    };
    return harness;
  } catch (err) {
    await closeAll();
    throw err;
  }
}
