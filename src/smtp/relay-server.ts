import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { Deps } from '../deps.js';
import { ERROR_TABLE, type ApiError } from '../core/api-errors.js';
import { parseAddress } from '../core/mailbox.js';
import type { AuthContext } from '../credentials/authenticate.js';
import type { AuthThrottle } from '../credentials/auth-throttle.js';
import { authenticateSmtp } from '../credentials/smtp-credentials.js';
import type { SubmitPipeline } from '../send/submit.js';
import { BODY_LIMIT } from '../core/limits.js';
import { closeSession, guardClientSlots } from '../smtp-server/client-slots.js';
import { replyText } from '../smtp-server/enhanced-replies.js';
import { countRefusal, smtpError, type SmtpReplyError } from '../smtp-server/server-reply.js';
import { createDataGuard } from './data-guard.js';
import { RELAY_MAX_RECIPIENTS } from './parse-submission.js';
import { relayIntake } from './relay-intake.js';

/** Limits of one relay listener (docs/security.md, Connections and memory). */
export const RELAY_LIMITS = {
  /** Concurrent connections per listener. */
  maxClients: 500,
  /** Idle time before a session is closed (RFC 5321 §4.5.3.2.7: at least 5 minutes). */
  idleMs: 5 * 60_000,
  /** A whole session, however busy. */
  sessionMs: 30 * 60_000,
  /** Refusals in one session before it is closed with 421. */
  maxErrors: 20,
  /** Longest TLS handshake on the implicit-TLS port (also at most POSTHORN_SMTP_AUTH_TIMEOUT). */
  handshakeMs: 10_000,
} as const;

interface RelaySession extends SMTPServerSession {
  /** Set by onAuth: what the credential may send as. */
  posthorn?: { auth: AuthContext; errors: number };
}

/** The SMTP reply for a pipeline refusal, from the one error table (core/api-errors.ts). */
export function refusalReply(err: ApiError): SmtpReplyError {
  const { code, enhanced } = ERROR_TABLE[err.type].smtp;
  const wait = err.retryAfter !== undefined ? ` Retry in ${err.retryAfter} s.` : '';
  const field = err.field !== undefined && err.type === 'invalid_request' ? ` (${err.field})` : '';
  return smtpError(code, enhanced, `${err.message}${field}${wait}`);
}

/**
 * One relay listener (README, The SMTP relay) on smtp-server: STARTTLS (`implicitTls` false, port
 * 587) or TLS from the first byte (RFC 8314, port 465). A thin adapter: every rule is the submit
 * pipeline's; this file only speaks SMTP. AUTH is required before MAIL (no open relay), offered
 * only under TLS (538 before it); smtp-server itself discards commands pipelined after STARTTLS and
 * wants EHLO again after it (RFC 3207 §4.2).
 */
export function createRelayServer(
  deps: Deps,
  pipeline: SubmitPipeline,
  throttle: AuthThrottle,
  opts: { implicitTls: boolean; tls: { cert: string; key: string } },
): SMTPServer {
  const refuse = (session: RelaySession, err: SmtpReplyError): Error =>
    countRefusal(session.posthorn, RELAY_LIMITS.maxErrors, err);
  const server: SMTPServer = new SMTPServer({
    secure: opts.implicitTls,
    key: opts.tls.key,
    cert: opts.tls.cert,
    name: deps.config.hostname,
    banner: 'Posthorn SMTP relay',
    size: BODY_LIMIT,
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: false,
    allowInsecureAuth: false,
    hideDSN: true,
    // smtp-server hides ENHANCEDSTATUSCODES unless told otherwise; the relay advertises it
    // and so gets RFC 3463 codes on smtp-server's own replies too (530, 503, ...).
    hideENHANCEDSTATUSCODES: false,
    // Implicit TLS is terminated in front (client-slots.ts), with its own handshake deadline.
    secured: opts.implicitTls,
    maxClients: RELAY_LIMITS.maxClients,
    socketTimeout: RELAY_LIMITS.idleMs,
    closeTimeout: 10_000,
    disableReverseLookup: true,
    logger: false,

    onConnect(session, callback) {
      deps.metrics.smtpSessions.inc({ server: 'relay' });
      const verdict = throttle.check(session.remoteAddress, deps.clock.now());
      if (!verdict.allowed)
        return callback(
          smtpError(
            421,
            '4.7.0',
            `Too many failed logins from ${session.remoteAddress}; try again in ${Math.ceil(verdict.retryAfterMs / 1000)} s.`,
          ),
        );
      // The total session time, however busy it keeps itself.
      setTimeout(() => closeSession(server, session.id), RELAY_LIMITS.sessionMs).unref();
      // Before AUTH a session is a stranger's: it gets a short deadline, not the 5-minute idle
      // time RFC 5321 §4.5.3.2.7 asks for between commands of a client we know.
      const authMs = deps.config.smtpAuthTimeout;
      setTimeout(() => {
        if (!(session as RelaySession).posthorn)
          closeSession(
            server,
            session.id,
            replyText('4.7.0', `Not authenticated within ${Math.ceil(authMs / 1000)} s; closing.`),
          );
      }, authMs).unref();
      return callback();
    },

    onAuth(auth, session: RelaySession, callback) {
      const now = deps.clock.now();
      const verdict = throttle.check(session.remoteAddress, now);
      if (!verdict.allowed) {
        deps.metrics.smtpAuthFailures.inc();
        return callback(smtpError(421, '4.7.0', 'Too many failed logins; try again later.'));
      }
      const run = async () => {
        const ctx = await authenticateSmtp(deps, auth.username ?? '', auth.password ?? '');
        if (!ctx) {
          deps.metrics.smtpAuthFailures.inc();
          throttle.failure(session.remoteAddress, deps.clock.now());
          return callback(smtpError(535, '5.7.8', 'Authentication credentials invalid.'));
        }
        throttle.success(session.remoteAddress, deps.clock.now());
        session.posthorn = { auth: ctx, errors: 0 };
        return callback(null, { user: ctx.keyId });
      };
      // Repeated failures from one address are slowed down before they are refused outright.
      const delay = verdict.delayMs;
      if (delay > 0) setTimeout(() => void run().catch((err: unknown) => callback(err as Error)), delay);
      else void run().catch((err: unknown) => callback(err as Error));
    },

    onMailFrom(address: SMTPServerAddress, session: RelaySession, callback) {
      if (!session.posthorn) return callback(smtpError(530, '5.7.0', 'Authentication required.'));
      if (address.address !== '' && 'error' in parseAddress(address.address)) {
        return callback(refuse(session, smtpError(553, '5.1.7', `Sender address ${address.address} is not valid.`)));
      }
      return callback();
    },

    onRcptTo(address: SMTPServerAddress, session: RelaySession, callback) {
      const ctx = session.posthorn;
      if (!ctx) return callback(smtpError(530, '5.7.0', 'Authentication required.'));
      if (session.envelope.rcptTo.length >= RELAY_MAX_RECIPIENTS) {
        return callback(
          refuse(session, smtpError(452, '4.5.3', `Too many recipients; at most ${RELAY_MAX_RECIPIENTS} per message.`)),
        );
      }
      const parsed = parseAddress(address.address);
      if ('error' in parsed)
        return callback(refuse(session, smtpError(553, '5.1.3', `Recipient ${address.address} ${parsed.error}.`)));
      const recipient = `${parsed.local}@${parsed.domain}`;
      // A suppressed recipient is refused at its RCPT and the others proceed (SMTP answers recipient by
      // recipient, where the HTTP API refuses the whole request); the pipeline's own suppression
      // rule decides, and records the rejected-by-system event now, as the message never reaches
      // the pipeline for it.
      const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
      void pipeline
        .checkRecipient(ctx.auth, { address: recipient, from, source: 'smtp' })
        .then((refusal) => (refusal === null ? callback() : callback(refuse(session, refusalReply(refusal)))))
        .catch((err: unknown) => {
          deps.log.error({ err }, 'relay: suppression check failed');
          callback(smtpError(451, '4.3.0', 'Temporary failure; try again.'));
        });
    },

    onData(stream: SMTPServerDataStream, session: RelaySession, callback) {
      const ctx = session.posthorn;
      const guard = createDataGuard({ maxBytes: BODY_LIMIT });
      const chunks: Buffer[] = [];
      stream.pipe(guard.transform);
      guard.transform.on('data', (c: Buffer) => chunks.push(c));
      guard.transform.on('end', () => {
        if (!ctx) return callback(smtpError(530, '5.7.0', 'Authentication required.'));
        if (stream.sizeExceeded)
          return callback(refuse(session, smtpError(552, '5.3.4', `Message is over ${BODY_LIMIT} bytes (10 MiB).`)));
        const verdict = guard.verdict();
        if (!verdict.ok) return callback(refuse(session, smtpError(verdict.code, verdict.enhanced, verdict.message)));
        const raw = Buffer.concat(chunks);
        // RFC 5322 §2.1 has no NUL in a message, and a text column cannot hold one.
        if (raw.includes(0)) return callback(refuse(session, smtpError(550, '5.6.0', 'Message contains a NUL byte.')));
        const envelope = {
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
        };
        pipeline
          .submit(relayIntake({ credentialId: ctx.auth.keyId, raw, envelope }))
          .then((result) => {
            if (result.kind === 'accepted') return callback(null, `2.0.0 Queued as ${result.body.id}`);
            return callback(refuse(session, refusalReply(result.error)));
          })
          .catch((err: unknown) => {
            deps.log.error({ err }, 'relay: submit failed');
            callback(smtpError(451, '4.3.0', 'Temporary failure; the message was not accepted, try again.'));
          });
        return undefined;
      });
    },
  });
  guardClientSlots(server, {
    perClient: deps.config.smtpMaxConnectionsPerClient,
    hostname: deps.config.hostname,
    ...(opts.implicitTls
      ? { tls: { ...opts.tls, handshakeMs: Math.min(RELAY_LIMITS.handshakeMs, deps.config.smtpAuthTimeout) } }
      : {}),
  });
  server.on('error', (err) => deps.log.warn({ err }, 'relay connection error'));
  return server;
}
