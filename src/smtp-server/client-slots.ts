import { isIPv6, type Socket } from 'node:net';
import tls from 'node:tls';
import type { SMTPServer } from 'smtp-server';
import { replyText } from './enhanced-replies.js';

/** What one SMTP listener (relay or inbound MX) allows a single client address. */
export interface ClientSlotOptions {
  /** Connections one client address may hold at once; the next one gets 421 4.7.0 and is closed. */
  perClient: number;
  /** Host name in the 421 line. */
  hostname: string;
  /**
   * Implicit TLS (RFC 8314): the handshake is done here, by a `tls.Server` with this deadline,
   * and smtp-server (created with `secure` and `secured`) gets the TLS socket once it is secure.
   */
  tls?: { key: string; cert: string; handshakeMs: number };
}

/** The implicit-TLS servers put in front of each guarded listener, so a renewed certificate reaches them. */
const implicitTlsServers = new WeakMap<SMTPServer, tls.Server[]>();

/**
 * Serves a renewed certificate on new connections of `smtp` (docs/deploy.md, "TLS certificates"):
 * smtp-server's own STARTTLS context (its documented updateSecureContext) and, on an implicit-TLS
 * port, the TLS servers of guardClientSlots. Sessions already open keep their certificate.
 */
export function updateSmtpTls(smtp: SMTPServer, pair: { cert: string; key: string }): void {
  smtp.updateSecureContext(pair);
  for (const server of implicitTlsServers.get(smtp) ?? []) server.setSecureContext(pair);
}

/** How long a refused connection may take to read its 421 and leave before it is dropped. */
const REFUSED_LINGER_MS = 5_000;

/**
 * The client address a cap counts: IPv4 (also as ::ffff:a.b.c.d) as it is, IPv6 by its /64, the
 * smallest prefix a site is usually given (RFC 6177), so one host cannot dodge the cap by
 * cycling addresses of its own subnet.
 */
export function clientKey(address: string | undefined): string {
  const a = (address ?? '').toLowerCase();
  if (a.startsWith('::ffff:') && a.includes('.')) return a.slice(7);
  if (!isIPv6(a)) return a;
  const [head = '', tail = ''] = a.split('::');
  const h = head === '' ? [] : head.split(':');
  const t = a.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
  const groups = a.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * Puts a per-client-address connection cap (and, for implicit TLS, a handshake deadline) in front
 * of an smtp-server listener. smtp-server only has a global `maxClients`, so one address holding
 * idle connections could lock every other client out; nothing in the library counts per address,
 * hence this small hand-written counter. It takes the place of smtp-server's own `connection`
 * listener on `server.server` (net.createServer registers it as one, per the Node docs) and calls
 * it for every connection it admits; the count of an address drops when its socket closes.
 *
 * A stalled TLS handshake is ended by Node's `handshakeTimeout`, which destroys the TLS socket
 * from above; destroying the TCP socket underneath a handshake in progress can crash Node.
 */
export function guardClientSlots(smtp: SMTPServer, opts: ClientSlotOptions): void {
  const listeners = smtp.server.listeners('connection') as Array<(socket: Socket) => void>;
  const accept = listeners[0];
  if (!accept || listeners.length !== 1)
    throw new Error('smtp-server: expected exactly one connection listener to guard');
  smtp.server.removeAllListeners('connection');

  const held = new Map<string, number>();
  const refusing = new Map<string, number>();
  const take = (map: Map<string, number>, key: string, socket: Socket): void => {
    map.set(key, (map.get(key) ?? 0) + 1);
    socket.once('close', () => {
      const n = (map.get(key) ?? 1) - 1;
      if (n <= 0) map.delete(key);
      else map.set(key, n);
    });
  };
  const line = (key: string): string =>
    `421 ${replyText('4.7.0', `${opts.hostname} Too many connections from ${key}; try again later.`)}\r\n`;
  const refuseOn = (socket: Socket, key: string): void => {
    // Whatever the client sends is read and dropped, so its FIN is seen and the socket closes.
    socket.resume();
    socket.end(line(key));
    setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
  };

  let secure: tls.Server | null = null;
  let refuser: tls.Server | null = null;
  if (opts.tls) {
    const tlsOptions = { key: opts.tls.key, cert: opts.tls.cert, handshakeTimeout: opts.tls.handshakeMs };
    secure = tls.createServer(tlsOptions);
    secure.on('secureConnection', (s: tls.TLSSocket) => accept.call(smtp.server, s));
    // A failed or timed-out handshake: Node has already destroyed the TLS socket or does now.
    secure.on('tlsClientError', (_err, s) => s.destroy());
    // Over the cap on the implicit TLS port the 421 can only be read over TLS.
    refuser = tls.createServer(tlsOptions);
    refuser.on('secureConnection', (s: tls.TLSSocket) => refuseOn(s, clientKey(s.remoteAddress)));
    refuser.on('tlsClientError', (_err, s) => s.destroy());
    implicitTlsServers.set(smtp, [secure, refuser]);
  }

  smtp.server.on('connection', (socket: Socket) => {
    socket.on('error', () => undefined); // a reset by the client; smtp-server logs its own
    const key = clientKey(socket.remoteAddress);
    if ((held.get(key) ?? 0) < opts.perClient) {
      take(held, key, socket);
      if (secure) secure.emit('connection', socket);
      else accept.call(smtp.server, socket);
      return;
    }
    if (!refuser) return refuseOn(socket, key);
    // Refusals in handshake are capped too; past that the socket is dropped before any TLS.
    if ((refusing.get(key) ?? 0) >= opts.perClient) return void socket.destroy();
    take(refusing, key, socket);
    refuser.emit('connection', socket);
  });
}

/**
 * Ends one session of `server` from outside its command flow (a timer), with a 421 first when
 * `text` is given (RFC 5321 §3.8: a server closing the session answers 421).
 */
export function closeSession(server: SMTPServer, sessionId: string, text?: string): void {
  for (const c of server.connections) {
    if (c.session?.id !== sessionId) continue;
    if (text !== undefined) c.send(421, text, false);
    c.close();
  }
}
