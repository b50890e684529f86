import { SMTPServer, type SMTPServerAddress, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { Deps } from '../deps.js';
import { ReportRefused, storeReport } from '../feedback/receive-report.js';
import { closeSession, guardClientSlots } from '../smtp-server/client-slots.js';
import { replyText } from '../smtp-server/enhanced-replies.js';
import { countRefusal, smtpError, type SmtpReplyError } from '../smtp-server/server-reply.js';
import { createClientRateLimit } from './client-rate-limit.js';
import { checkInboundRecipient } from './inbound-recipient.js';

/** Limits of the inbound MX besides POSTHORN_INBOUND_MAX_SIZE and POSTHORN_INBOUND_RATE_LIMIT. */
export const INBOUND_LIMITS = {
  /** A report goes to one return path; a few more are allowed for the complaint address beside it. */
  maxRecipients: 10,
  maxClients: 200,
  /** RFC 5321 §4.5.3.2.7: at least 5 minutes of idle time before the server gives up. */
  idleMs: 5 * 60_000,
  /** Refusals in one session before it is closed with 421. */
  maxErrors: 20,
} as const;

interface InboundSession extends SMTPServerSession {
  posthorn?: { errors: number; mailSeen?: boolean };
}

/** Called with each report's id once it is stored, after the 250 went out: processing. */
export type OnStored = (reportId: string) => void;

/**
 * The inbound MX (role `inbound`, docs/inbound.md) on smtp-server: no AUTH, STARTTLS offered, SIZE
 * (RFC 1870) from POSTHORN_INBOUND_MAX_SIZE, a per-client-IP transaction rate, and no relaying:
 * RCPT is accepted only for verified return paths and the complaint address. The null sender is
 * accepted (RFC 5321 §4.5.5: DSNs are sent with `MAIL FROM:<>`). After DATA the report is stored
 * and committed before the 250 (a database failure is 451 and the sender retries); processing
 * happens after, and a crash in between is caught by the pending pass.
 */
export function createInboundServer(
  deps: Deps,
  opts: { tls: { cert: string; key: string }; secret: Buffer; onStored: OnStored },
): SMTPServer {
  const maxSize = deps.config.inboundMaxSize;
  const rate = createClientRateLimit(deps.config.inboundRateLimit);
  const rcptContext = {
    db: deps.db,
    secret: opts.secret,
    bounceHost: deps.config.bounceHost,
    complaintAddress: deps.config.complaintAddress,
  };
  const refuse = (session: InboundSession, err: SmtpReplyError): Error =>
    countRefusal((session.posthorn ??= { errors: 0 }), INBOUND_LIMITS.maxErrors, err);
  const server: SMTPServer = new SMTPServer({
    secure: false,
    key: opts.tls.key,
    cert: opts.tls.cert,
    name: deps.config.hostname,
    banner: 'Posthorn inbound MX (bounces and complaint reports only)',
    size: maxSize,
    authOptional: true,
    disabledCommands: ['AUTH'],
    hideDSN: true,
    hideENHANCEDSTATUSCODES: false,
    maxClients: INBOUND_LIMITS.maxClients,
    // Ends a session that sends no MAIL in time: a stranger holding a slot idle, not a sender.
    onConnect(session: InboundSession, callback) {
      deps.metrics.smtpSessions.inc({ server: 'inbound' });
      const mailMs = deps.config.inboundMailTimeout;
      setTimeout(() => {
        if (!session.posthorn?.mailSeen)
          closeSession(
            server,
            session.id,
            replyText('4.7.0', `No MAIL within ${Math.ceil(mailMs / 1000)} s; closing.`),
          );
      }, mailMs).unref();
      return callback();
    },
    maxRecipients: INBOUND_LIMITS.maxRecipients,
    socketTimeout: INBOUND_LIMITS.idleMs,
    closeTimeout: 10_000,
    disableReverseLookup: true,
    logger: false,

    onMailFrom(_address: SMTPServerAddress, session: InboundSession, callback) {
      const verdict = rate.take(session.remoteAddress, deps.clock.now());
      if (!verdict.ok) {
        const wait = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
        return callback(
          smtpError(
            421,
            '4.7.0',
            `Too many reports from ${session.remoteAddress} (limit ${deps.config.inboundRateLimit} per minute); try again in ${wait} s.`,
          ),
        );
      }
      // Any sender, the null one included: reports come from MAILER-DAEMONs and feedback loops.
      session.posthorn ??= { errors: 0 };
      session.posthorn.mailSeen = true;
      return callback();
    },

    onRcptTo(address: SMTPServerAddress, session: InboundSession, callback) {
      checkInboundRecipient(rcptContext, address.address)
        .then((v) => {
          if (v.ok) return callback();
          return callback(refuse(session, smtpError(v.code, v.enhanced, v.message)));
        })
        .catch((err: unknown) => {
          deps.log.error({ err }, 'inbound: recipient check failed');
          callback(smtpError(451, '4.3.0', 'Temporary failure; try again.'));
        });
    },

    onData(stream: SMTPServerDataStream, session: InboundSession, callback) {
      const chunks: Buffer[] = [];
      let bytes = 0;
      stream.on('data', (c: Buffer) => {
        bytes += c.length;
        // Past the limit the rest is read (the reply comes after the end of data) but not kept.
        if (bytes <= maxSize) chunks.push(c);
      });
      stream.on('end', () => {
        if (stream.sizeExceeded || bytes > maxSize) {
          return callback(
            refuse(session, smtpError(552, '5.3.4', `Report is over the ${maxSize}-byte limit of this server.`)),
          );
        }
        const report = {
          raw: Buffer.concat(chunks),
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          remoteAddress: session.remoteAddress,
        };
        storeReport(deps, report)
          .then((id) => {
            callback(null, `2.0.0 Report accepted as ${id}`);
            opts.onStored(id);
          })
          .catch((err: unknown) => {
            if (err instanceof ReportRefused)
              return callback(refuse(session, smtpError(550, '5.6.0', `Report refused: ${err.message}.`)));
            deps.log.error({ err }, 'inbound: storing a report failed');
            return callback(smtpError(451, '4.3.0', 'Temporary failure; the report was not accepted, try again.'));
          });
      });
    },
  });
  guardClientSlots(server, { perClient: deps.config.inboundMaxConnectionsPerClient, hostname: deps.config.hostname });
  server.on('error', (err) => deps.log.warn({ err }, 'inbound connection error'));
  return server;
}
