import { generate } from 'selfsigned';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

/** A message the sink accepted (answered 250 to the end of DATA). */
export interface SinkMessage {
  mailFrom: string;
  rcptTo: string[];
  raw: Buffer;
  /** The session was under STARTTLS. */
  tls: boolean;
  receivedAt: Date;
  /** smtp-server's session id: messages with the same one came over one connection. */
  connectionId: string;
}

/** One client connection the sink saw. */
export interface SinkConnection {
  id: string;
  /** Transactions the sink accepted on it. */
  transactions: number;
  open: boolean;
}

/** What the sink does with one recipient. */
export type SinkAction =
  | { kind: 'accept' }
  /** Refuse at RCPT with this code and text (the text starts with the enhanced code). */
  | { kind: 'reject'; code: number; message: string }
  /** Accept at RCPT, then destroy the connection in the middle of DATA. */
  | { kind: 'drop' }
  /** Accept, but hold the reply to the end of DATA back this long. */
  | { kind: 'slow'; delayMs: number };

export interface SinkContext {
  /** How many times this address has been given at RCPT, this time included, over all connections. */
  seen: number;
  /** The sink's `slowDataMs`. */
  slowDataMs: number;
}

export type SinkBehaviour = (rcpt: string, ctx: SinkContext) => SinkAction;

export interface SinkOptions {
  /** Offer STARTTLS with a self-signed certificate; default true. */
  tls?: boolean;
  /** The key and certificate chain STARTTLS presents instead of the self-signed one (test/helpers/test-ca.ts). */
  certificate?: { key: string; cert: string };
  /** RCPTs beyond this in one transaction get 452 4.5.3 (RFC 5321 §4.5.3.1.10); default 100. */
  maxRecipients?: number;
  /** Chooses the action per recipient; default scriptedBehaviour. */
  behaviour?: SinkBehaviour;
  /**
   * What happens at MAIL FROM, given the transactions already accepted on the connection: `reject`
   * refuses it, `drop` destroys the connection without a reply; default accept.
   */
  mailFromBehaviour?: (from: string, ctx: { transactions: number }) => SinkAction;
  /** How long `slow*` recipients hold the DATA reply; default 5000 ms. */
  slowDataMs?: number;
  /** Announce this SIZE limit (RFC 1870); default none. */
  size?: number;
  /** Keep each message in `messages`; false keeps only the count (benchmarks). Default true. */
  store?: boolean;
}

export interface SinkMx {
  /** Socket errors of connections that ended badly (clients killed mid-transaction). */
  socketErrors: NodeJS.ErrnoException[];
  host: '127.0.0.1';
  port: number;
  messages: SinkMessage[];
  /** Messages accepted, stored or not. */
  readonly received: number;
  /** Connections accepted so far. */
  readonly connections: number;
  readonly openConnections: number;
  /** The most connections that were open at once. */
  readonly peakConnections: number;
  readonly connectionLog: SinkConnection[];
  /** Resolves once `predicate` holds, checked now and after every message and connection change. */
  waitFor(predicate: (messages: SinkMessage[], sink: SinkMx) => boolean, timeoutMs?: number): Promise<void>;
  /** Destroys every open client connection, as a server restart or idle timeout would. */
  dropConnections(): void;
  close(): Promise<void>;
}

const reject = (code: number, message: string): SinkAction => ({ kind: 'reject', code, message });

/**
 * The default script, by the recipient's local part: `defer-N-tag` 451 4.3.0 the first N times then
 * accepted; `defer*` always 451 4.2.0; `bounce*` 550 5.1.1; `block*` 550 5.7.1 blocklisted;
 * `full*` 552 5.2.2; `drop-N-tag` the connection dies mid-DATA the first N times; `slow*` the DATA
 * reply comes after `slowDataMs`; anything else (`ok*`) 250.
 */
export const scriptedBehaviour: SinkBehaviour = (rcpt, ctx) => {
  const local = rcpt.slice(0, rcpt.lastIndexOf('@')).toLowerCase();
  const counted = /^(defer|drop)-(\d+)-/.exec(local);
  if (counted?.[1] === 'defer')
    return ctx.seen <= Number(counted[2])
      ? reject(451, '4.3.0 Temporary failure, try again later')
      : { kind: 'accept' };
  if (counted?.[1] === 'drop') return ctx.seen <= Number(counted[2]) ? { kind: 'drop' } : { kind: 'accept' };
  if (local.startsWith('defer')) return reject(451, '4.2.0 Mailbox temporarily unavailable');
  if (local.startsWith('bounce')) return reject(550, '5.1.1 The email account that you tried to reach does not exist');
  if (local.startsWith('block'))
    return reject(550, '5.7.1 Service unavailable; client host blocked using zen.spamhaus.org');
  if (local.startsWith('full')) return reject(552, '5.2.2 Mailbox full');
  if (local.startsWith('slow')) return { kind: 'slow', delayMs: ctx.slowDataMs };
  return { kind: 'accept' };
};

let certificate: Promise<{ key: string; cert: string }> | undefined;
/** One self-signed certificate per test process: generating a key per sink would be slow. */
function sinkCertificate(): Promise<{ key: string; cert: string }> {
  certificate ??= generate([{ name: 'commonName', value: 'sink.posthorn.test' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
  }).then((p) => ({ key: p.private, cert: p.cert }));
  return certificate;
}

/** Starts a scripted sink MX on 127.0.0.1 (a free port), built on smtp-server. */
export async function startSinkMx(opts: SinkOptions = {}): Promise<SinkMx> {
  const tls = opts.tls ?? true;
  const maxRecipients = opts.maxRecipients ?? 100;
  const behaviour = opts.behaviour ?? scriptedBehaviour;
  const slowDataMs = opts.slowDataMs ?? 5000;
  const store = opts.store ?? true;
  const messages: SinkMessage[] = [];
  const seen = new Map<string, number>();
  const pendingActions = new Map<string, SinkAction[]>();
  const connectionsById = new Map<string, SinkConnection>();
  const timers = new Set<NodeJS.Timeout>();
  const watchers = new Set<() => void>();
  let received = 0;
  let open = 0;
  let peak = 0;
  const changed = () => watchers.forEach((w) => w());

  const socketErrors: NodeJS.ErrnoException[] = [];
  const server: SMTPServer = new SMTPServer({
    ...(opts.certificate ?? (await sinkCertificate())),
    name: 'sink.posthorn.test',
    logger: false,
    disableReverseLookup: true,
    authOptional: true,
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    // The sink writes its own enhanced codes into its replies, like most real servers.
    hideENHANCEDSTATUSCODES: true,
    ...(opts.size === undefined ? {} : { size: opts.size }),
    onConnect(session, callback) {
      connectionsById.set(session.id, { id: session.id, transactions: 0, open: true });
      open++;
      peak = Math.max(peak, open);
      changed();
      callback();
    },
    onClose(session) {
      const c = connectionsById.get(session.id);
      if (c?.open === true) {
        c.open = false;
        open--;
        changed();
      }
    },
    onMailFrom(address, session, callback) {
      pendingActions.set(session.id, []);
      const action = opts.mailFromBehaviour?.(address.address, {
        transactions: connectionsById.get(session.id)?.transactions ?? 0,
      });
      if (action?.kind === 'reject') return callback(smtpError(action.code, action.message));
      if (action?.kind === 'drop') return destroyConnection(session);
      callback();
    },
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= maxRecipients) return callback(smtpError(452, '4.5.3 Too many recipients'));
      const key = address.address.toLowerCase();
      const count = (seen.get(key) ?? 0) + 1;
      seen.set(key, count);
      const action = behaviour(address.address, { seen: count, slowDataMs });
      if (action.kind === 'reject') return callback(smtpError(action.code, action.message));
      pendingActions.get(session.id)?.push(action);
      callback();
    },
    onData(stream, session, callback) {
      const actions = pendingActions.get(session.id) ?? [];
      if (actions.some((a) => a.kind === 'drop')) return dropMidData(stream, session);
      const delay = Math.max(0, ...actions.map((a) => (a.kind === 'slow' ? a.delayMs : 0)));
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const accept = () => {
          const c = connectionsById.get(session.id);
          if (c?.open !== true) return; // the client gave up waiting
          c.transactions++;
          received++;
          if (store) messages.push(toMessage(session, Buffer.concat(chunks)));
          callback(null, `2.0.0 Ok: queued as ${session.id}.${c.transactions}`);
          changed();
        };
        if (delay === 0) return accept();
        const timer = setTimeout(() => {
          timers.delete(timer);
          accept();
        }, delay);
        timers.add(timer);
      });
    },
  });

  function dropMidData(stream: SMTPServerDataStream, session: SMTPServerSession): void {
    stream.on('error', () => undefined); // smtp-server errors the stream when the socket goes
    stream.once('data', () => destroyConnection(session));
  }

  function destroyConnection(session: SMTPServerSession): void {
    for (const c of server.connections) if (c.session === session) c._socket.destroy();
  }

  // Replies are written one by one; with Nagle on, a pipelined client would wait for ACKs.
  server.server.on('connection', (socket) => socket.setNoDelay(true));
  // A client that vanishes mid-transaction (a killed server, a dropped connection) is an ordinary
  // event for an MX: counted, never an unhandled error that would end the test process.
  server.on('error', (err: NodeJS.ErrnoException) => {
    socketErrors.push(err);
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('sink MX did not bind a TCP port');

  const sink: SinkMx = {
    socketErrors,
    host: '127.0.0.1',
    port: address.port,
    messages,
    get received() {
      return received;
    },
    get connections() {
      return connectionsById.size;
    },
    get openConnections() {
      return open;
    },
    get peakConnections() {
      return peak;
    },
    get connectionLog() {
      return [...connectionsById.values()];
    },
    waitFor(predicate, timeoutMs = 5000) {
      return new Promise((resolve, rejectWait) => {
        const check = () => {
          if (!predicate(messages, sink)) return;
          done();
          resolve();
        };
        const timer = setTimeout(() => {
          done();
          rejectWait(
            new Error(
              `sink MX: condition not met within ${timeoutMs} ms (${messages.length} messages, ${open} open connections)`,
            ),
          );
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          watchers.delete(check);
        };
        watchers.add(check);
        check();
      });
    },
    dropConnections() {
      for (const c of server.connections) c._socket.destroy();
    },
    close() {
      timers.forEach(clearTimeout);
      timers.clear();
      for (const c of server.connections) c._socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
  return sink;
}

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

function toMessage(session: SMTPServerSession, raw: Buffer): SinkMessage {
  const from = session.envelope.mailFrom;
  return {
    mailFrom: from === false ? '' : from.address,
    rcptTo: session.envelope.rcptTo.map((r) => r.address),
    raw,
    tls: session.secure,
    receivedAt: new Date(),
    connectionId: session.id,
  };
}
