import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { generate } from 'selfsigned';
import { Agent, fetch as undiciFetch, type RequestInit as UndiciInit, type Response as UndiciResponse } from 'undici';
import type { Middleware } from 'openapi-fetch';
import { buildApp } from '../../src/http/build-app.js';
import { createPosthornClient, type PosthornClient } from '../../src/client/client.js';
import { createAccountToken } from '../../src/credentials/account-tokens.js';
import { CLI_ACTOR } from '../../src/core/actor.js';
import type { DialectName } from '../../src/storage/open-database.js';
import type { DnsResolver } from '../../src/core/dns-resolver.js';
import { createTestDeps, type TestDeps } from './test-deps.js';
import { checkResponse } from './openapi-check.js';

let certificate: Promise<{ cert: string; key: string }> | undefined;

/** One self-signed certificate per test process (generation costs tens of milliseconds). */
function testCertificate(): Promise<{ cert: string; key: string }> {
  certificate ??= generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
  }).then((p) => ({ key: p.private, cert: p.cert }));
  return certificate;
}

/**
 * openapi-fetch middleware that checks every response against docs/openapi.json (openapi-check.ts):
 * a test calling the API through `api.client(…)` fails on any undocumented status or body.
 */
const documented: Middleware = {
  async onResponse({ request, response, schemaPath }) {
    const type = response.headers.get('content-type');
    let body: unknown;
    if (response.status !== 204 && (type ?? '').includes('json') && !(type ?? '').includes('ndjson')) {
      body = await response.clone().json();
    }
    checkResponse(request.method, schemaPath, response.status, type, body);
    return undefined;
  },
};

/** A real HTTPS Posthorn API on a fresh database, and typed clients that check each answer against the OpenAPI document. */
export interface ApiHarness {
  deps: TestDeps;
  app: FastifyInstance;
  /** `https://127.0.0.1:<port>`. */
  url: string;
  /** undici dispatcher trusting the harness certificate, for raw `fetch` calls. */
  dispatcher: Agent;
  /** A raw HTTPS request to `path` on the harness (for what the typed client cannot send: bad bodies, odd headers). */
  fetch(path: string, init?: UndiciInit): Promise<UndiciResponse>;
  /** A typed client sending `token` (a sending key or account token; none for public routes). */
  client(token?: string): PosthornClient;
  /** Makes an account token for `account` (created if missing) with `role`. */
  token(account: string, role?: 'admin' | 'viewer', name?: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts the API over HTTPS on 127.0.0.1 and a free port, on a fresh `dialect` database, or on
 * `deps` when given (another harness's, e.g. the delivery harness's; closing leaves them open).
 */
export async function startApiHarness(
  dialect: DialectName,
  opts: { env?: Record<string, string>; resolver?: DnsResolver; deps?: TestDeps } = {},
): Promise<ApiHarness> {
  const deps = opts.deps ?? (await createTestDeps(dialect, opts));
  const tls = await testCertificate();
  const app = buildApp(deps, { https: tls });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const url = `https://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const dispatcher = new Agent({ connect: { ca: tls.cert, checkServerIdentity: () => undefined } });
  let tokens = 0;
  return {
    deps,
    app,
    url,
    dispatcher,
    fetch(path, init = {}) {
      return undiciFetch(`${url}${path}`, { ...init, dispatcher });
    },
    client(token) {
      const client = createPosthornClient(url, token, { requestInitExt: { dispatcher } });
      client.use(documented);
      return client;
    },
    async token(account, role = 'admin', name) {
      const { findAccount, createAccount } = await import('../../src/accounts/accounts.js');
      await findAccount(deps, account).catch(() => createAccount(deps, account));
      const made = await createAccountToken(deps, account, {
        name: name ?? `test-${role}-${++tokens}`,
        role,
        actor: CLI_ACTOR,
      });
      return made.token;
    },
    async close() {
      await app.close();
      await dispatcher.close();
      if (opts.deps === undefined) await deps.close();
    },
  };
}
