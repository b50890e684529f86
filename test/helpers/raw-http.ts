import net from 'node:net';
import tls from 'node:tls';

/** Polls `check` until it returns a value other than undefined/false, or fails naming `what`. */
export async function until<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A parsed HTTP/1.1 response head and whatever body bytes followed it. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A client connection driven byte by byte, for requests no HTTP client library will send (partial
 * headers, bodies trickled or cut short). Records everything received and when the server closed.
 */
export interface RawConnection {
  socket: net.Socket;
  received(): string;
  /** True once the server ended or reset the connection. */
  closed(): boolean;
  /** The first response, once its head has arrived. */
  response(): RawResponse | undefined;
  write(data: string | Buffer): Promise<void>;
  destroy(): void;
}

export function rawConnect(
  port: number,
  opts: { localAddress?: string; tls?: boolean; host?: string } = {},
): Promise<RawConnection> {
  const host = opts.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let isClosed = false;
    const common = { host, port, ...(opts.localAddress ? { localAddress: opts.localAddress } : {}) };
    const socket: net.Socket = opts.tls
      ? tls.connect({ ...common, rejectUnauthorized: false }, () => resolve(conn))
      : net.connect(common, () => resolve(conn));
    socket.on('data', (d: Buffer) => chunks.push(d));
    // A reset is one way the server may close; the test looks at closed(), not at the error.
    socket.on('error', () => {
      isClosed = true;
    });
    socket.on('close', () => {
      isClosed = true;
    });
    socket.on('end', () => {
      isClosed = true;
    });
    const received = () => Buffer.concat(chunks).toString('latin1');
    const conn: RawConnection = {
      socket,
      received,
      closed: () => isClosed,
      response: () => parseResponse(received()),
      write: (data) =>
        new Promise((res) => {
          if (socket.destroyed || !socket.writable) {
            res();
            return;
          }
          socket.write(data, () => res());
        }),
      destroy: () => socket.destroy(),
    };
    socket.once('error', reject); // only the first, connect-time error matters: later ones settle nothing
  });
}

function parseResponse(text: string): RawResponse | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const m = /^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '');
  if (!m) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const length = Number(headers['content-length'] ?? '0');
  const body = text.slice(end + 4, end + 4 + length);
  if (body.length < length) return undefined;
  return { status: Number(m[1]), headers, body };
}

/** The head of a request, CRLF-terminated, with Host added. */
export function requestHead(method: string, path: string, headers: Record<string, string | number>): string {
  const lines = [
    `${method} ${path} HTTP/1.1`,
    'Host: localhost',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}
