import net from 'node:net';
import tls from 'node:tls';
import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { generate } from 'selfsigned';
import type { SMTPServer } from 'smtp-server';
import {
  createAuthThrottle,
  DEFAULT_AUTH_THROTTLE,
  type AuthThrottleOptions,
} from '../../src/credentials/auth-throttle.js';
import { createSmtpCredential } from '../../src/credentials/smtp-credentials.js';
import type { EventRecord } from '../../src/events/event-record.js';
import { createRelayServer } from '../../src/smtp/relay-server.js';
import type { DialectName } from '../../src/storage/open-database.js';
import { createDeliveryHarness, SENDER_DOMAIN, type DeliveryHarness, type HarnessOptions } from './delivery-harness.js';

/** One SMTP reply: the code, and every line's text after `NNN-` / `NNN `, joined by LF. */
export interface SmtpReply {
  code: number;
  text: string;
}

/**
 * A raw SMTP client for the tests nodemailer cannot express (smuggling, pipelined STARTTLS, AUTH
 * before TLS): writes exactly the bytes it is given and parses the replies that come back.
 */
export class SmtpWire {
  socket: net.Socket;
  private buffer = '';
  private pending: string[] = [];
  private replies: SmtpReply[] = [];
  private waiters: Array<{ resolve: (r: SmtpReply) => void; reject: (e: Error) => void }> = [];
  private ended = false;
  private readonly onData = (chunk: Buffer) => this.feed(chunk.toString('latin1'));
  private readonly onEnd = () => {
    this.ended = true;
    for (const w of this.waiters.splice(0)) w.reject(new Error('connection closed before a reply'));
  };

  constructor(socket: net.Socket) {
    this.socket = socket;
    this.attach(socket);
  }

  /** Connects to the implicit-TLS listener (the greeting comes over TLS). */
  static async implicit(port: number): Promise<SmtpWire> {
    const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false });
    socket.on('error', () => undefined);
    return new SmtpWire(socket);
  }

  /** Connects to the STARTTLS listener in plaintext. */
  static async plain(port: number): Promise<SmtpWire> {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.on('error', () => undefined);
    return new SmtpWire(socket);
  }

  private attach(socket: net.Socket): void {
    socket.on('data', this.onData);
    socket.once('close', this.onEnd);
  }

  private feed(text: string): void {
    this.buffer += text;
    for (let i = this.buffer.indexOf('\r\n'); i >= 0; i = this.buffer.indexOf('\r\n')) {
      const line = this.buffer.slice(0, i);
      this.buffer = this.buffer.slice(i + 2);
      this.pending.push(line.slice(4));
      if (line[3] === '-') continue;
      const reply = { code: Number(line.slice(0, 3)), text: this.pending.join('\n') };
      this.pending = [];
      const waiter = this.waiters.shift();
      if (waiter) waiter.resolve(reply);
      else this.replies.push(reply);
    }
  }

  /** The next reply; rejects if the server closes the connection first or nothing comes within `timeoutMs`. */
  next(timeoutMs = 10_000): Promise<SmtpReply> {
    const queued = this.replies.shift();
    if (queued) return Promise.resolve(queued);
    if (this.ended) return Promise.reject(new Error('connection closed before a reply'));
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: (r: SmtpReply) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e: Error) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no SMTP reply within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Replies received and not yet read by next(). */
  get unread(): number {
    return this.replies.length;
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Writes bytes as they are (several commands in one write are one TCP segment on loopback). */
  write(data: string | Buffer): void {
    this.socket.write(typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
  }

  /** Sends one command line and returns its reply. */
  async cmd(line: string): Promise<SmtpReply> {
    this.write(`${line}\r\n`);
    return this.next();
  }

  /** Upgrades the connection after a `220` to STARTTLS; returns once the handshake is done. */
  async upgrade(): Promise<void> {
    const plain = this.socket;
    plain.off('data', this.onData);
    plain.off('close', this.onEnd);
    const secure = tls.connect({ socket: plain, rejectUnauthorized: false });
    secure.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      secure.once('secureConnect', () => resolve());
      secure.once('error', reject);
    });
    this.socket = secure;
    this.attach(secure);
  }

  /** `AUTH PLAIN` with an initial response (RFC 4616). */
  auth(username: string, password: string): Promise<SmtpReply> {
    return this.cmd(`AUTH PLAIN ${Buffer.from(`\0${username}\0${password}`, 'utf8').toString('base64')}`);
  }

  destroy(): void {
    this.socket.destroy();
  }
}

let certificate: Promise<{ key: string; cert: string }> | undefined;
/** One self-signed certificate per test process for the relay's listeners. */
export function relayCertificate(): Promise<{ key: string; cert: string }> {
  certificate ??= generate([{ name: 'commonName', value: 'mail.posthorn.test' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
  }).then((p) => ({ key: p.private, cert: p.cert }));
  return certificate;
}

export interface RelayHarnessOptions extends HarnessOptions {
  /** The AUTH throttle of both listeners; default the production one. */
  throttle?: AuthThrottleOptions;
}

export interface RelayHarness extends DeliveryHarness {
  /** The STARTTLS listener (587's role). */
  submissionPort: number;
  /** The implicit-TLS listener (465's role, RFC 8314). */
  smtpsPort: number;
  /** A relay login for SENDER_DOMAIN. */
  credential: { username: string; password: string };
  /** A nodemailer client (transport) to one listener, authenticated with `auth` (default the harness's login). */
  client(opts: {
    implicitTls: boolean;
    auth?: { user: string; pass: string } | null;
    ignoreTLS?: boolean;
  }): Transporter<SMTPTransport.SentMessageInfo>;
  /** A raw client: `implicit` on the TLS port, or plaintext on the STARTTLS port; greeting read. */
  wire(kind: 'implicit' | 'plain'): Promise<{ wire: SmtpWire; greeting: SmtpReply }>;
  /** A raw client on the implicit-TLS port, through EHLO and AUTH PLAIN with the harness's login. */
  authedWire(): Promise<SmtpWire>;
  /** GET /v1/events for one message, through the HTTP API with the sender's key, oldest first. */
  apiEvents(messageId: string): Promise<EventRecord[]>;
}

/** A delivery harness plus both relay listeners on loopback, fed by the harness's (the HTTP app's) one pipeline. */
export async function createRelayHarness(dialect: DialectName, opts: RelayHarnessOptions = {}): Promise<RelayHarness> {
  const h = await createDeliveryHarness(dialect, opts);
  const servers: SMTPServer[] = [];
  const transports: Transporter[] = [];
  const wires: SmtpWire[] = [];
  try {
    const cert = await relayCertificate();
    const throttle = createAuthThrottle(opts.throttle ?? DEFAULT_AUTH_THROTTLE);
    const listen = async (implicitTls: boolean): Promise<number> => {
      const server = createRelayServer(h.deps, h.pipeline, throttle, { implicitTls, tls: cert });
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
      return (server.server.address() as net.AddressInfo).port;
    };
    const submissionPort = await listen(false);
    const smtpsPort = await listen(true);
    const credential = await createSmtpCredential(h.deps, SENDER_DOMAIN);
    const closeDelivery = h.close.bind(h);

    const relay: RelayHarness = Object.assign(h, {
      submissionPort,
      smtpsPort,
      credential,
      client(o: { implicitTls: boolean; auth?: { user: string; pass: string } | null; ignoreTLS?: boolean }) {
        const auth = o.auth === undefined ? { user: credential.username, pass: credential.password } : o.auth;
        const t = nodemailer.createTransport({
          host: '127.0.0.1',
          port: o.implicitTls ? smtpsPort : submissionPort,
          secure: o.implicitTls,
          requireTLS: !o.implicitTls && o.ignoreTLS !== true,
          ignoreTLS: o.ignoreTLS ?? false,
          tls: { rejectUnauthorized: false },
          name: 'client.posthorn.test',
          ...(auth ? { auth } : {}),
        });
        transports.push(t);
        return t;
      },
      async wire(kind: 'implicit' | 'plain') {
        const wire = kind === 'implicit' ? await SmtpWire.implicit(smtpsPort) : await SmtpWire.plain(submissionPort);
        wires.push(wire);
        return { wire, greeting: await wire.next() };
      },
      async authedWire() {
        const { wire, greeting } = await relay.wire('implicit');
        if (greeting.code !== 220) throw new Error(`greeting ${greeting.code} ${greeting.text}`);
        const ehlo = await wire.cmd('EHLO client.posthorn.test');
        if (ehlo.code !== 250) throw new Error(`EHLO ${ehlo.code} ${ehlo.text}`);
        const auth = await wire.auth(credential.username, credential.password);
        if (auth.code !== 235) throw new Error(`AUTH ${auth.code} ${auth.text}`);
        return wire;
      },
      async apiEvents(messageId: string) {
        const res = await h.app.inject({
          method: 'GET',
          url: `/v1/events?message_id=${messageId}&limit=100`,
          headers: { authorization: `Bearer ${h.sender.key}` },
        });
        if (res.statusCode !== 200) throw new Error(`GET /v1/events: ${res.statusCode} ${res.body}`);
        return (JSON.parse(res.body) as { events: EventRecord[] }).events.reverse();
      },
      async close() {
        for (const w of wires) w.destroy();
        for (const t of transports) t.close();
        await Promise.all(
          servers.map(
            (s) =>
              new Promise<void>((resolve) => {
                for (const c of s.connections as Set<{ _socket: net.Socket }>) c._socket.destroy();
                s.close(() => resolve());
              }),
          ),
        );
        await closeDelivery();
      },
    });
    return relay;
  } catch (err) {
    for (const s of servers) s.close();
    await h.close();
    throw err;
  }
}
