import https from 'node:https';
import type { AddressInfo } from 'node:net';

/** A loopback HTTPS server standing in for recipient domains' `mta-sts.<domain>` policy hosts. */
export interface StsServer {
  port: number;
  /** Policy text by domain (the Host `mta-sts.<domain>`); a number answers with that HTTP status instead. */
  policies: Map<string, string | number>;
  /** Requests per domain, to tell a cached policy from a fetched one. */
  fetches: Map<string, number>;
  close(): Promise<void>;
}

/** Starts the policy server on 127.0.0.1 with `cert` (one certificate naming every `mta-sts.` host it serves). */
export async function startStsServer(cert: { key: string; cert: string }): Promise<StsServer> {
  const policies = new Map<string, string | number>();
  const fetches = new Map<string, number>();
  const server = https.createServer(cert, (req, res) => {
    const domain = String(req.headers.host ?? '')
      .replace(/:\d+$/, '')
      .replace(/^mta-sts\./, '');
    fetches.set(domain, (fetches.get(domain) ?? 0) + 1);
    const policy = policies.get(domain);
    if (req.url !== '/.well-known/mta-sts.txt' || policy === undefined) return void res.writeHead(404).end();
    if (typeof policy === 'number')
      return void res
        .writeHead(policy, policy >= 300 && policy < 400 ? { location: 'https://elsewhere.test/' } : {})
        .end();
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(policy);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    policies,
    fetches,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
