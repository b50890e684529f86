import type { LookupFunction } from 'node:net';
import type { Logger } from 'pino';
import { HostPool } from './smtp/host-pool.js';
import { SessionOpenError, SmtpSession, type SessionOptions } from './smtp/smtp-session.js';
import { DEFAULT_SMTP_TIMEOUTS, type SmtpTimeouts } from './smtp/timeouts.js';
import type { AttemptResult, DeliveryAttempt, Destination, RecipientReply, Transport } from './transport.js';
import { assertNoBareLineBreak } from './smtp/bare-line-break.js';
import { judgeTls, type TlsOutcome } from './security/tls-outcome.js';
import type { TlsFailure } from './transport.js';
import { ProviderSlots } from './smtp/provider-slots.js';
import type { ProviderTable } from './providers.js';

export type { SmtpTimeouts } from './smtp/timeouts.js';

export interface SmtpTransportOptions {
  /** The name we give in EHLO (RFC 5321 §4.1.1.1): the host's FQDN, matching its PTR record. */
  heloName: string;
  /** Concurrent sessions per destination `host:port`, e.g. 10; callers beyond it queue. */
  maxConnectionsPerHost: number;
  /** A session is closed (QUIT) after this many transactions; default 1000. */
  maxMessagesPerConnection?: number;
  /** Overrides of RFC 5321 §4.5.3.2's timeouts (see SmtpTimeouts), for tests. */
  timeouts?: Partial<SmtpTimeouts>;
  /**
   * Opportunistic STARTTLS (RFC 7435) by default: any certificate is taken and what was negotiated
   * recorded. With `rejectUnauthorized: true` an invalid certificate fails the host instead.
   */
  tls?: { rejectUnauthorized: boolean };
  /** How MX host names become addresses: POSTHORN_DNS_SERVERS through resolver-lookup.ts; the system's when absent. */
  lookup?: LookupFunction;
  /** CAs that certificates are judged against (security/trust-store.ts); Node's roots when absent. */
  ca?: string[];
  /**
   * Mailbox providers and their limits (delivery/providers.ts): a provider's hosts share its
   * `connections` and close sessions after its `messagesPerConnection`; hosts of no provider
   * (`other`) keep the per-host limits above. None: every host is `other`.
   */
  providers?: ProviderTable;
  log: Logger;
}

/** A session refused by its host's transport-security policy (MTA-STS enforce, DANE). */
class TlsPolicyError extends SessionOpenError {
  constructor(readonly outcome: TlsOutcome) {
    super(outcome.failure ?? 'TLS policy not met', 'ETLSPOLICY');
  }
}

const DEFAULT_MAX_MESSAGES_PER_CONNECTION = 1000;

type HostOutcome =
  | { kind: 'transaction'; tls: string | null; tlsOutcome: TlsOutcome; recipients: RecipientReply[] }
  /** No session could be had, or nothing of the transaction was sent: the next MX may be tried. */
  | { kind: 'unopened'; error: string; tlsOutcome?: TlsOutcome }
  /** The session broke mid-transaction: the message may have reached the host, so no other is tried now. */
  | { kind: 'lost'; error: string };

/**
 * A Transport over SMTP, on nodemailer's SMTPConnection: one pool of reused sessions per
 * destination host, opportunistic STARTTLS, and the destinations tried in order until one host
 * takes the session. All recipients go in one transaction, never split: past a server's limit
 * they get its 452 (RFC 5321 §4.5.3.1.10) and are retried as deferred.
 */
export function createSmtpTransport(opts: SmtpTransportOptions): Transport {
  if (!(opts.maxConnectionsPerHost >= 1)) throw new RangeError('maxConnectionsPerHost must be at least 1');
  const timeouts: SmtpTimeouts = { ...DEFAULT_SMTP_TIMEOUTS, ...opts.timeouts };
  const rejectUnauthorized = opts.tls?.rejectUnauthorized ?? false;
  const log = opts.log.child({ component: 'smtp-transport' });
  const pools = new Map<string, HostPool>();
  /** How each open session's TLS was judged against its host's policy, given with every transaction on it. */
  const judged = new WeakMap<SmtpSession, TlsOutcome>();
  const slots = new ProviderSlots();
  let closed = false;

  /** The provider of a destination and its limits; null for `other`, which keeps the per-host limits. */
  function providerLimits(d: Destination): { name: string; connections: number; messagesPerConnection: number } | null {
    const spec = opts.providers?.spec(opts.providers.of(d.host));
    return spec === undefined || !spec.adaptive ? null : spec;
  }

  async function openSession(d: Destination): Promise<SmtpSession> {
    const sessionOpts: SessionOptions = {
      host: d.host,
      port: d.port,
      heloName: opts.heloName,
      timeouts,
      rejectUnauthorized,
      ...(opts.lookup ? { lookup: opts.lookup } : {}),
      ...(opts.ca ? { ca: opts.ca } : {}),
    };
    // MTA-STS enforce and DANE make TLS mandatory: no fall back to plain text (RFC 8461 §5, RFC 7672 §2.2).
    const enforced = d.tls !== undefined && d.tls.policy !== 'none' && d.tls.mode === 'enforce';
    let session: SmtpSession;
    try {
      session = await SmtpSession.open(sessionOpts);
    } catch (err) {
      // Opportunistic TLS: a failed handshake falls back to plain text, as the server would be
      // reached in plain text had it not offered STARTTLS (RFC 7435 §3).
      if (!(err instanceof SessionOpenError) || err.code !== 'ETLS' || rejectUnauthorized) throw err;
      if (enforced)
        throw new TlsPolicyError({
          version: null,
          cipher: null,
          policy: d.tls!.policy,
          mode: 'enforce',
          validated: false,
          failure: `the TLS handshake with ${d.host} failed (${err.message}), and its domain's ${d.tls!.policy === 'dane' ? 'DANE' : 'MTA-STS'} policy requires TLS`,
          result_type: 'validation-failure',
        });
      log.info({ host: d.host, port: d.port, err: err.message }, 'STARTTLS failed; retrying in plain text');
      session = await SmtpSession.open({ ...sessionOpts, plaintext: true });
    }
    const verdict = judgeTls(d.tls, d.host, session.peer);
    if (verdict.refuse) {
      log.info({ host: d.host, port: d.port, reason: verdict.outcome.failure }, 'TLS policy not met; host skipped');
      void session.quit();
      throw new TlsPolicyError(verdict.outcome);
    }
    judged.set(session, verdict.outcome);
    log.debug({ host: d.host, port: d.port, tls: session.tls, pipelining: session.pipelining }, 'SMTP session opened');
    return session;
  }

  function poolFor(d: Destination): HostPool {
    // Sessions are pooled per policy too: one judged for opportunistic TLS never carries enforced mail.
    const key = `${d.host}:${d.port}${d.tls ? `:${policyKey(d)}` : ''}`;
    let pool = pools.get(key);
    if (pool === undefined) {
      const provider = providerLimits(d);
      pool = new HostPool({
        maxConnections: provider?.connections ?? opts.maxConnectionsPerHost,
        maxMessagesPerConnection:
          provider?.messagesPerConnection ?? opts.maxMessagesPerConnection ?? DEFAULT_MAX_MESSAGES_PER_CONNECTION,
        idleMs: timeouts.idle,
        open: () => openSession(d),
        // Pools of hosts no longer talked to are dropped, so the map does not grow with every MX ever seen.
        onEmpty: () => {
          if (pools.get(key) === pool) pools.delete(key);
        },
      });
      pools.set(key, pool);
    }
    return pool;
  }

  async function sendVia(d: Destination, attempt: DeliveryAttempt): Promise<HostOutcome> {
    const provider = providerLimits(d);
    if (provider === null) return sendOnPool(d, attempt);
    await slots.acquire(provider.name, provider.connections);
    try {
      return await sendOnPool(d, attempt);
    } finally {
      slots.release(provider.name);
    }
  }

  async function sendOnPool(d: Destination, attempt: DeliveryAttempt): Promise<HostOutcome> {
    // A pooled session the server has meanwhile dropped fails before answering anything (see
    // SmtpSession.transact): nothing was sent, so another session retries, at most once per slot.
    for (let tries = 0; ; tries++) {
      // Looked up each time (an emptied pool is dropped) and acquired from at once, so that no
      // session is ever opened in a pool the transport no longer knows.
      if (closed) return { kind: 'unopened', error: 'SMTP transport is closed' };
      const pool = poolFor(d);
      let session: SmtpSession;
      try {
        session = await pool.acquire();
      } catch (err) {
        return {
          kind: 'unopened',
          error: (err as Error).message,
          ...(err instanceof TlsPolicyError ? { tlsOutcome: err.outcome } : {}),
        };
      }
      const outcome = await session.transact(attempt.envelopeFrom, attempt.recipients, attempt.raw);
      if (outcome.kind === 'replies') {
        pool.release(session, outcome.reusable);
        const tlsOutcome = judged.get(session) ?? judgeTls(d.tls, d.host, session.peer).outcome;
        return { kind: 'transaction', tls: session.tls, tlsOutcome, recipients: outcome.recipients };
      }
      pool.release(session, false);
      if (!outcome.stale) return { kind: 'lost', error: outcome.error };
      if (tries >= opts.maxConnectionsPerHost) return { kind: 'unopened', error: outcome.error };
      log.debug({ err: outcome.error }, 'pooled SMTP session was gone; retrying on another');
    }
  }

  return {
    async send(attempt: DeliveryAttempt): Promise<AttemptResult> {
      if (closed) throw new Error('SMTP transport is closed');
      assertEnvelope(attempt);
      // Checked before any connection too, so a refused message opens no session at all.
      assertNoBareLineBreak(attempt.raw);
      const hostsTried: string[] = [];
      const errors: string[] = [];
      const tlsFailures: TlsFailure[] = [];
      for (const d of attempt.destinations) {
        const host = hostLabel(d);
        hostsTried.push(host);
        const outcome = await sendVia(d, attempt);
        if (outcome.kind === 'transaction')
          return {
            kind: 'transaction',
            mxHost: host,
            tls: outcome.tls,
            tlsOutcome: outcome.tlsOutcome,
            ...(tlsFailures.length > 0 ? { tlsFailures } : {}),
            recipients: outcome.recipients,
          };
        if (outcome.kind === 'unopened' && outcome.tlsOutcome)
          tlsFailures.push({ host: d.host, outcome: outcome.tlsOutcome });
        errors.push(`${host}: ${outcome.error}`);
        // A session that broke mid-transaction makes the attempt unreachable, to be retried later
        // like any soft bounce, without trying the next MX now: after a timeout at the end of DATA
        // the first host may still have kept the message.
        if (outcome.kind === 'lost') break;
      }
      return {
        kind: 'unreachable',
        error: errors.join('; ') || 'no destinations to try',
        hostsTried,
        ...(tlsFailures.length > 0 ? { tlsFailures } : {}),
      };
    },

    async close(): Promise<void> {
      closed = true;
      await Promise.all([...pools.values()].map((p) => p.close()));
      pools.clear();
    },
  };
}

/** The part of a pool's key that tells policies apart: sessions are judged once, when opened. */
function policyKey(d: Destination): string {
  const t = d.tls!;
  const tlsa = (t.tlsa ?? []).map((r) => `${r.usage}${r.selector}${r.matchingType}${r.data.toString('hex')}`).join(',');
  return `${t.policy}:${t.mode ?? ''}:${t.mxMismatch ? 'x' : ''}:${tlsa}`;
}

/** The host as events show it: the name alone on port 25, `host:port` elsewhere (tests, relays). */
function hostLabel(d: Destination): string {
  return d.port === 25 ? d.host : `${d.host}:${d.port}`;
}

/**
 * Addresses were validated when the message was accepted, so a malformed one here is a bug: it
 * would otherwise be retried against every host for days (RFC 5321 §4.1.2: no CR, LF or brackets).
 */
function assertEnvelope(attempt: DeliveryAttempt): void {
  if (attempt.recipients.length === 0) throw new TypeError('a delivery attempt needs at least one recipient');
  for (const address of [attempt.envelopeFrom, ...attempt.recipients]) {
    if (/[\r\n<>]/.test(address)) throw new TypeError(`malformed envelope address ${JSON.stringify(address)}`);
  }
}
