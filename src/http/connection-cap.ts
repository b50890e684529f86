import type { Server } from 'node:net';
import type { Socket } from 'node:net';
import { isIPv6 } from 'node:net';
import type { Logger } from 'pino';

/**
 * Which client a connection counts against: the IPv4 address (also when it arrives IPv4-mapped on
 * a dual-stack socket, RFC 4291 §2.5.5.2), or the /64 of an IPv6 address, since one subscriber is
 * normally given a whole /64 (RFC 6177) and could otherwise open each connection from another
 * address of it. Hand-written: Node has no prefix helper, and the address comes from the kernel,
 * so it is always well formed.
 */
export function clientKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1] as string;
  if (!isIPv6(address)) return address;
  const [head = '', tail] = address.toLowerCase().split('%')[0]!.split('::') as [string, string | undefined];
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  // An embedded dotted IPv4 tail takes two groups, but it lies past the first four: ignore its form.
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * Caps the connections one client address may hold open on `server` (HTTP or HTTPS): one more is
 * destroyed as soon as it is accepted, before a TLS handshake or a byte of HTTP is spent on it,
 * and other addresses are untouched. Node's `server.maxConnections` is a single global cap, which
 * one client could fill on its own; hence this per-address count.
 */
export function capConnectionsPerClient(
  server: Server,
  max: number,
  log: Pick<Logger, 'warn'>,
): { open(address: string): number } {
  const counts = new Map<string, number>();
  const warned = new Set<string>();
  if (max > 0) {
    server.on('connection', (socket: Socket) => {
      const address = socket.remoteAddress;
      if (address === undefined) return; // already gone
      const key = clientKey(address);
      const n = counts.get(key) ?? 0;
      if (n >= max) {
        // Once per burst: an attacker's retries must not flood the log.
        if (!warned.has(key)) {
          warned.add(key);
          log.warn({ client: key, max }, 'refusing connections over POSTHORN_HTTP_MAX_CONNECTIONS_PER_CLIENT');
        }
        socket.destroy();
        return;
      }
      counts.set(key, n + 1);
      socket.once('close', () => {
        const left = (counts.get(key) ?? 1) - 1;
        if (left === 0) {
          counts.delete(key);
          warned.delete(key);
        } else {
          counts.set(key, left);
        }
      });
    });
  }
  return { open: (address) => counts.get(clientKey(address)) ?? 0 };
}
