import net from 'node:net';

/** A connect failure that carries the socket error code (ECONNREFUSED, ETIMEDOUT…). */
export type ConnectError = Error & { code?: string };

/**
 * Opens a TCP connection with Nagle's algorithm off, or rejects after `timeoutMs`. Nagle would
 * hold back the `.` that ends DATA (written apart from the body) until the body is acknowledged,
 * and a delayed ACK then stalls every transaction by tens of milliseconds.
 */
export function connectTcp(
  host: string,
  port: number,
  timeoutMs: number,
  lookup?: net.LookupFunction,
): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port, noDelay: true, keepAlive: true, ...(lookup ? { lookup } : {}) });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        Object.assign(new Error(`connection to ${host}:${port} timed out after ${timeoutMs} ms`), {
          code: 'ETIMEDOUT',
        }),
      );
    }, timeoutMs);
    const onError = (err: ConnectError) => {
      clearTimeout(timer);
      reject(err);
    };
    socket.once('error', onError);
    socket.once('connect', () => {
      clearTimeout(timer);
      // The error listener stays: nodemailer adds its own only once the session is built, an
      // error in between must not crash the process, and a late reject is a no-op.
      resolve(socket);
    });
  });
}
