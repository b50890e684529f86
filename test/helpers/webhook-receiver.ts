import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver got. */
export interface ReceivedWebhook {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  receivedAt: number;
  /** The status answered, or null while (or because) it hangs. */
  answered: number | null;
}

/** How to answer a request: a status and body, or 'hang' to never answer. */
export type ReceiverAnswer = { status: number; body?: string; headers?: Record<string, string> } | 'hang';

export interface WebhookReceiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** Replaces how requests are answered from now on. */
  answer(fn: (req: ReceivedWebhook, n: number) => ReceiverAnswer): void;
  /** Polls `predicate` over what was received until it holds, or fails after `timeoutMs` saying what was received. */
  waitFor(predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Answers every hanging request with 503 and closes connections and the server. */
  close(): Promise<void>;
}

/** A loopback HTTP server that records webhook POSTs and answers as told (200 by default). */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let answer: (req: ReceivedWebhook, n: number) => ReceiverAnswer = () => ({ status: 200, body: 'ok' });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: ReceivedWebhook = {
        id: String(req.headers['webhook-id'] ?? ''),
        timestamp: String(req.headers['webhook-timestamp'] ?? ''),
        signature: String(req.headers['webhook-signature'] ?? ''),
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
        answered: null,
      };
      received.push(r);
      const a = answer(r, received.length);
      if (a === 'hang') return;
      r.answered = a.status;
      res.writeHead(a.status, a.headers).end(a.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    answer(fn) {
      answer = fn;
    },
    async waitFor(predicate, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline)
          throw new Error(`receiver condition not met within ${timeoutMs} ms; ${received.length} requests received`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
