import https from 'node:https';
import type { LookupFunction } from 'node:net';

/** RFC 8461 §3.3: senders may limit the policy body; 64 KiB is the limit it suggests. */
export const STS_POLICY_MAX_BYTES = 64 * 1024;
/** RFC 8461 §3.3 suggests a timeout of "on the order of" a minute for the whole fetch. */
const DEFAULT_TIMEOUT_MS = 60_000;

export interface StsFetchOptions {
  /** POSTHORN_MTA_STS_PORT (443 outside tests). */
  port: number;
  /** Trusted CAs (trust-store.ts); Node's default roots when undefined. */
  ca?: string[];
  /** How `mta-sts.<domain>` becomes an address: the configured resolvers. */
  lookup?: LookupFunction;
  timeoutMs?: number;
}

/**
 * GETs `https://mta-sts.<domain>/.well-known/mta-sts.txt` as RFC 8461 §3.3 asks: the certificate
 * must be valid for the host (chain and name), no redirect is followed, only a 200 with a
 * `text/plain` body of at most 64 KiB counts. Resolves the body; rejects with an error that says
 * what went wrong.
 */
export function fetchStsPolicy(domain: string, opts: StsFetchOptions): Promise<string> {
  const host = `mta-sts.${domain}`;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const req = https.request({
      host,
      servername: host,
      port: opts.port,
      path: '/.well-known/mta-sts.txt',
      method: 'GET',
      headers: { accept: 'text/plain' },
      rejectUnauthorized: true,
      agent: false,
      ...(opts.ca ? { ca: opts.ca } : {}),
      ...(opts.lookup ? { lookup: opts.lookup } : {}),
    });
    const timer = setTimeout(
      () => req.destroy(new Error(`fetching the policy from ${host} timed out after ${timeoutMs} ms`)),
      timeoutMs,
    );
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    req.on('error', (err: Error & { code?: string }) =>
      fail(new Error(`fetching the policy from ${host}: ${err.message}`)),
    );
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status !== 200) {
        res.resume();
        // §3.3: "HTTP 3xx redirects MUST NOT be followed"; anything but 200 is no policy.
        return fail(
          new Error(
            `the policy host ${host} answered HTTP ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
          ),
        );
      }
      const type = String(res.headers['content-type'] ?? '');
      if (!/^text\/plain\b/i.test(type)) {
        res.resume();
        return fail(new Error(`the policy from ${host} has Content-Type "${type}", not text/plain`));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > STS_POLICY_MAX_BYTES) {
          req.destroy();
          fail(new Error(`the policy from ${host} is larger than ${STS_POLICY_MAX_BYTES} bytes`));
        } else chunks.push(chunk);
      });
      res.on('error', (err) => fail(err));
      res.on('end', () => {
        clearTimeout(timer);
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
    });
    req.end();
  });
}
