import { isAscii } from 'node:buffer';
import type { LookupFunction } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { TLSSocket } from 'node:tls';
import SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';
import { DataStream } from '../../mime/nodemailer-lib.js';
import type { RecipientReply } from '../transport.js';
import { connectTcp } from './connect-tcp.js';
import type { SmtpTimeouts } from './timeouts.js';
import { describeError, transactionReplies, type LiveEnvelope } from './transaction-replies.js';
import { BareLineBreakError, findBareLineBreak } from './bare-line-break.js';
import type { SessionTls } from '../security/tls-outcome.js';

export interface SessionOptions {
  host: string;
  port: number;
  heloName: string;
  timeouts: SmtpTimeouts;
  /** false: opportunistic STARTTLS takes any certificate (RFC 7435); true: an invalid one fails the session. */
  rejectUnauthorized: boolean;
  /** Skip STARTTLS (the retry after a failed TLS handshake). */
  plaintext?: boolean;
  /** Resolves the host's addresses (the configured resolvers); the system's when absent. */
  lookup?: LookupFunction;
  /** Trusted CAs for judging the certificate (POSTHORN_TLS_CA_FILE added to Node's roots); Node's default when absent. */
  ca?: string[];
}

/** Why a session could not be opened: connect, greeting (421 included), EHLO or TLS (code `ETLS`) failed. */
export class SessionOpenError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/** How one transaction ended: every recipient answered, or the session was lost first. */
export type TransactionOutcome =
  | { kind: 'replies'; recipients: RecipientReply[]; reusable: boolean }
  /** `stale`: a reused session died before answering anything of this transaction; nothing was sent, another session may retry. */
  | { kind: 'lost'; error: string; stale: boolean };

/** One SMTP session (nodemailer SMTPConnection) to one host, kept open for several transactions. */
export class SmtpSession {
  /** Negotiated TLS protocol (`TLSv1.3`), or null in plain text. */
  readonly tls: string | null;
  /** What the TLS handshake gave (cipher, Node's verdict, the chain), for transport-security policies; null in plain text. */
  readonly peer: SessionTls | null;
  /** The server advertised PIPELINING (RFC 2920) in its last EHLO reply. */
  readonly pipelining: boolean;
  transactions = 0;
  dead = false;
  /** The last transaction ended before DATA was complete: RSET before the next. */
  private needsReset = false;
  /** Settles once the connection is gone, whatever ended it. */
  readonly ended: Promise<void>;
  /** Called once when the connection has ended, whatever ended it; the pool forgets the session then. */
  onEnd: () => void = () => undefined;
  private failure: ((err: Error & { code?: string }) => void) | null = null;

  private constructor(
    private readonly conn: SMTPConnection,
    private readonly timeouts: SmtpTimeouts,
  ) {
    const socket = conn._socket;
    this.tls = conn.secure && socket instanceof TLSSocket ? socket.getProtocol() : null;
    this.peer = conn.secure && socket instanceof TLSSocket ? peerTls(socket) : null;
    // After STARTTLS, lastServerResponse is the second EHLO's reply (RFC 3207 §4.2: the first is void).
    this.pipelining = /^250[ -]PIPELINING\b/im.test(conn.lastServerResponse || '');
    this.ended = new Promise((resolve) => conn.once('end', resolve));
    conn.on('error', (err) => {
      this.lose(err);
      // nodemailer only half-closes after an error; a server that hangs must not keep the socket.
      conn._socket.destroy();
    });
    conn.on('end', () => {
      this.lose(Object.assign(new Error('connection closed'), { code: 'ECONNECTION' }));
      this.onEnd();
    });
  }

  /** Connects, reads the greeting, says EHLO and upgrades with STARTTLS when offered; rejects with SessionOpenError. */
  static async open(opts: SessionOptions): Promise<SmtpSession> {
    let socket;
    try {
      socket = await connectTcp(opts.host, opts.port, opts.timeouts.connect, opts.lookup);
    } catch (err) {
      const e = err as Error & { code?: string };
      throw new SessionOpenError(describeError(e), e.code);
    }
    const conn = new SMTPConnection({
      connection: socket,
      host: opts.host,
      port: opts.port,
      name: opts.heloName,
      // RFC 3207 opportunistically (RFC 7435): STARTTLS when offered, plain text when it is refused.
      opportunisticTLS: true,
      ignoreTLS: opts.plaintext === true,
      tls: { rejectUnauthorized: opts.rejectUnauthorized, ...(opts.ca ? { ca: opts.ca } : {}) },
      connectionTimeout: opts.timeouts.connect,
      greetingTimeout: opts.timeouts.greeting,
      socketTimeout: opts.timeouts.command,
    });
    return new Promise((resolve, reject) => {
      const onError = (err: Error & { code?: string }) => {
        // A TLS socket that is not yet secure: the STARTTLS handshake is what failed.
        const duringTls = conn._socket instanceof TLSSocket && !conn.secure;
        // Reject first: close() emits 'end' at once, which would otherwise win with a vaguer error.
        reject(new SessionOpenError(describeError(err), duringTls ? 'ETLS' : err.code));
        conn.close();
        socket.destroy();
      };
      conn.once('error', onError);
      conn.once('end', () =>
        onError(Object.assign(new Error('connection closed before the session was ready'), { code: 'ECONNECTION' })),
      );
      conn.connect(() => {
        conn.removeAllListeners();
        resolve(new SmtpSession(conn, opts.timeouts));
      });
    });
  }

  /**
   * One transaction: MAIL FROM, a RCPT per recipient (pipelined when offered), DATA with `raw`.
   * RSET (RFC 5321 §4.1.1.5) comes first only after a transaction that stopped short of the end of
   * DATA: the reply to the final `.` already clears the server's buffers (RFC 5321 §4.1.1.4), so an
   * RSET between completed transactions would only cost a round trip.
   */
  transact(envelopeFrom: string, recipients: string[], raw: Buffer): Promise<TransactionOutcome> {
    // Last line of defence against outbound SMTP smuggling: refused before MAIL FROM, so the
    // session is untouched and stays usable.
    const bare = findBareLineBreak(raw);
    if (bare !== null) return Promise.reject(new BareLineBreakError(bare));
    const reused = this.transactions > 0;
    this.transactions++;
    // nodemailer sets lastServerResponse on every reply: still false when the session fails means
    // the server answered nothing of this transaction, so on a reused session it was most likely
    // already gone (closed while idle), and nothing of the message was sent.
    this.conn.lastServerResponse = false;
    const stale = () => reused && this.conn.lastServerResponse === false;
    return new Promise((resolve) => {
      const finish = (outcome: TransactionOutcome) => {
        this.failure = null;
        if (!this.dead) this.conn._socket.setTimeout(this.timeouts.command);
        resolve(outcome);
      };
      this.failure = (err) => finish({ kind: 'lost', error: describeError(err), stale: stale() });
      const envelope: LiveEnvelope = {
        from: envelopeFrom,
        to: recipients,
        size: raw.length,
        use8BitMime: !isAscii(raw),
      };
      // nodemailer pipes the message into its DataStream once DATA got its 354, which is where the
      // wait for the reply to the final `.` begins (RFC 5321 §4.5.3.2.6); a Buffer would give no
      // such hook. When the envelope was refused it pipes into a PassThrough to discard instead.
      const message = {
        pipe: (dest: Writable) => {
          if (!(dest instanceof DataStream) || this.dead) return dest.end();
          const socket = this.conn._socket;
          socket.setTimeout(this.timeouts.dataTermination);
          // The body and the final `.` are written apart, a tick later: corked, they leave in one
          // write (one TLS record, one syscall). `end(raw)` passes the buffer on without a copy;
          // dot-stuffing copies only when a line needs it.
          socket.cork();
          dest.end(raw);
          setImmediate(() => socket.uncork());
          return dest;
        },
      } as unknown as Readable;
      const send = () =>
        this.conn.send(envelope, message, (err, info) => {
          const result = transactionReplies(recipients, envelope, err, info);
          if (result.kind === 'lost') {
            finish({ kind: 'lost', error: result.error, stale: stale() });
            return void this.destroy();
          }
          // Refused before the end of DATA (MAIL, every RCPT, DATA itself): the server may still
          // hold the sender or recipients. EMESSAGE is a refusal of the message, which clears them.
          this.needsReset = err !== null && err.code !== 'EMESSAGE';
          // RFC 5321 §3.8: a 421 announces that the server is closing the channel.
          const closing = result.recipients.some((r) => r.reply.code === 421);
          finish({ kind: 'replies', recipients: result.recipients, reusable: !closing });
        });
      if (!this.needsReset) return send();
      this.conn.reset((err) => {
        if (err === undefined || err === null) return send();
        finish({ kind: 'lost', error: `RSET refused: ${err.response ?? err.message}`, stale: true });
        void this.destroy();
      });
    });
  }

  /** Ends the session politely with QUIT (RFC 5321 §4.1.1.10); one already ending is left to end. */
  quit(): Promise<void> {
    if (!this.dead) {
      this.dead = true;
      this.conn.quit();
      // A server that never answers QUIT must not hold the connection open.
      const timer = setTimeout(() => this.conn.close(), 2_000);
      timer.unref();
      void this.ended.then(() => clearTimeout(timer));
    }
    return this.ended;
  }

  /** Drops the connection without a word: after an error or a timeout it is in an unknown state. */
  destroy(): Promise<void> {
    this.dead = true;
    this.conn.close();
    this.conn._socket.destroy();
    return this.ended;
  }

  /** The connection failed or ended: the transaction under way, if any, is lost. */
  private lose(err: Error & { code?: string }): void {
    this.dead = true;
    const failure = this.failure;
    this.failure = null;
    failure?.(err);
  }
}

/** The handshake's facts: Node checks the chain and the host name (the servername, the MX name) even when it lets the session on. */
function peerTls(socket: TLSSocket): SessionTls {
  const chain: Buffer[] = [];
  const seen = new Set<string>();
  for (let cert = socket.getPeerCertificate(true); cert?.raw !== undefined; cert = cert.issuerCertificate) {
    if (seen.has(cert.fingerprint256)) break; // a root is its own issuer
    seen.add(cert.fingerprint256);
    chain.push(cert.raw);
  }
  const error = socket.authorizationError as unknown as (Error & { code?: string }) | string | null | undefined;
  return {
    version: socket.getProtocol() ?? 'unknown',
    cipher: socket.getCipher()?.name ?? 'unknown',
    authorized: socket.authorized,
    authorizationError: error == null ? null : typeof error === 'string' ? error : (error.code ?? error.message),
    chain,
  };
}
