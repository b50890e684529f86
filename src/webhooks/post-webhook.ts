import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { isPublicAddress } from './safe-address.js';

/** How one webhook POST is made. */
export interface PostWebhookOptions {
  /** The signature headers (and any others); content-type and content-length are added. */
  headers: Record<string, string>;
  /** The exact JSON body that was signed. */
  body: string;
  /** Limit on the whole request, connect to last response byte read (POSTHORN_WEBHOOK_TIMEOUT, 15 s by default). */
  timeoutMs?: number;
  /**
   * Local development and tests only: allow http:// and loopback/private/link-local targets.
   * Off in production, where only https:// to public addresses is called.
   */
  allowPrivate: boolean;
  /** Name resolution the socket uses (default: the system's dns.lookup); tests pass a stub. */
  lookup?: LookupFunction;
  /** Monotonic milliseconds for durationMs (default: performance.now). */
  now?: () => number;
  /** A keep-alive agent from webhookAgent (default: a fresh connection per POST). */
  agent?: http.Agent;
  /** Aborting ends the POST at once with an error (a dispatcher that is stopping). */
  signal?: AbortSignal;
}

/** What the endpoint answered; any status, 3xx included, is a result, not an error. */
export interface WebhookResponse {
  status: number;
  durationMs: number;
  /** The first 500 characters of the response body, for the delivery log. */
  responseSnippet: string;
}

/** Why no response was had: refused by the SSRF guard, a network error or the timeout. */
export interface WebhookFailure {
  error: string;
}

const SNIPPET_CHARS = 500;
/** Bytes read before the response is cut off: enough for 500 characters of any UTF-8. */
const SNIPPET_BYTES = SNIPPET_CHARS * 4;

/**
 * POSTs one webhook (docs/webhooks.md) and never throws. Unless `allowPrivate`:
 * the URL must be https (the body carries recipient addresses, and signatures do not hide it),
 * an IP-literal host must be public, and a host name's addresses are checked inside the lookup the
 * socket itself connects with, so a DNS answer that changes between a check and the connect
 * (rebinding) cannot reach a private address. Redirects are never followed: a 3xx is returned
 * as a plain non-2xx status. The timeout covers the whole request.
 */
export function postWebhook(url: string, options: PostWebhookOptions): Promise<WebhookResponse | WebhookFailure> {
  const { allowPrivate } = options;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve({ error: `invalid webhook URL: ${url}` });
  }
  // Address before scheme, so the log says the more important reason.
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
    return Promise.resolve({ error: `refused: ${host} is not a public address` });
  }
  if (target.protocol !== 'https:' && !(allowPrivate && target.protocol === 'http:')) {
    return Promise.resolve({ error: `refused: webhook URLs must use https, not ${target.protocol}` });
  }
  return attempt(target, options, checkedLookup(allowPrivate, options.lookup), true);
}

/**
 * The lookup every webhook socket connects through: without `allowPrivate`, one that refuses any
 * non-public address in the answer; with it, `lookup` as given (undefined: the system's).
 */
export function checkedLookup(allowPrivate: boolean, lookup: LookupFunction | undefined): LookupFunction | undefined {
  return allowPrivate ? lookup : publicOnlyLookup(lookup ?? (dnsLookup as LookupFunction));
}

/**
 * A keep-alive agent for one endpoint whose every new socket connects through `lookup` (pass the
 * one from checkedLookup). Pooling is as safe as a fresh connection per POST: the address check
 * runs when a socket connects, and a reused socket stays connected to the address that passed.
 * Idle sockets close after 4 s, before the 5 s keep-alive of common servers (Node's included),
 * or sooner when the server's Keep-Alive header says so.
 */
export function webhookAgent(protocol: string, lookup: LookupFunction | undefined, maxSockets: number): http.Agent {
  const opts = { keepAlive: true, maxSockets, timeout: 4_000, ...(lookup ? { lookup } : {}) };
  return protocol === 'https:' ? new https.Agent(opts) : new http.Agent(opts);
}

function attempt(
  target: URL,
  options: PostWebhookOptions,
  lookup: LookupFunction | undefined,
  mayRetry: boolean,
): Promise<WebhookResponse | WebhookFailure> {
  const { body, timeoutMs = 15_000, now = () => performance.now(), agent, signal } = options;
  const started = now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: WebhookResponse | WebhookFailure, keepSocket = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // A response read to its end leaves the socket to the agent's pool; anything else closes it.
      if (!keepSocket) request.destroy();
      resolve(result);
    };
    const onAbort = () => finish({ error: 'aborted: the dispatcher is stopping' });
    const send = target.protocol === 'https:' ? https.request : http.request;
    const request = send(target, {
      method: 'POST',
      // Without a pooled agent, a fresh connection per POST (and so a fresh lookup check).
      agent: agent ?? false,
      ...(lookup ? { lookup } : {}),
      headers: {
        'content-type': 'application/json',
        ...options.headers,
        'content-length': String(Buffer.byteLength(body)),
      },
    });
    const timer = setTimeout(() => finish({ error: `timed out after ${timeoutMs} ms` }), timeoutMs);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort);
    request.on('error', (err: Error & { code?: string }) => {
      // A pooled socket the server closed while idle fails at once; Node's documentation asks the
      // client to retry such a request on a new socket (http.ClientRequest "reusedSocket").
      if (!settled && mayRetry && request.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const left = Math.max(1, timeoutMs - (now() - started));
        resolve(attempt(target, { ...options, timeoutMs: left }, lookup, false));
        return;
      }
      finish({ error: err.message });
    });
    request.once('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = (complete: boolean) => {
        const text = Buffer.concat(chunks).toString('utf8');
        finish(
          {
            status: response.statusCode ?? 0,
            durationMs: Math.round(now() - started),
            responseSnippet: [...text].slice(0, SNIPPET_CHARS).join(''),
          },
          complete,
        );
      };
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= SNIPPET_BYTES) done(false); // the rest of a large body is not worth waiting for
      });
      response.once('end', () => done(true));
      response.on('error', (err) => finish({ error: err.message }));
    });
    request.end(body);
  });
}

/**
 * Wraps a lookup so that any non-public address in the answer fails the connect with a
 * refusal instead of being connected to. All addresses must be public, not
 * just one: happy-eyeballs may try any of them.
 */
function publicOnlyLookup(inner: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    inner(hostname, { ...options, all: true }, (err, result) => {
      if (err) {
        callback(err, '', 4);
        return;
      }
      const addresses: LookupAddress[] = Array.isArray(result) ? result : [{ address: result, family: isIP(result) }];
      const bad = addresses.find((a) => !isPublicAddress(a.address));
      if (bad || addresses.length === 0) {
        const why = bad
          ? `${hostname} resolves to ${bad.address}, which is not a public address`
          : `no address for ${hostname}`;
        callback(Object.assign(new Error(`refused: ${why}`), { code: 'EPOSTHORNPRIVATE', hostname }), '', 4);
        return;
      }
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
