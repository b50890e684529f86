import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './openapi-types.js';

export type { paths, components, operations } from './openapi-types.js';

/** The typed Posthorn client: every route, parameter and response of docs/openapi.json, checked by TypeScript. */
export type PosthornClient = Client<paths>;

/**
 * A typed client for a Posthorn server (README, Typed client): `baseUrl` is the server's HTTPS
 * origin, `token` a sending key (`ph_…`) or an account token (`pha_…`), sent as a bearer token.
 * `options` pass through to openapi-fetch (a custom `fetch`, extra request init such as an undici
 * `dispatcher` for a private CA). Built on openapi-fetch, which types each call from the paths.
 */
export function createPosthornClient(
  baseUrl: string,
  token?: string,
  options: Omit<ClientOptions, 'baseUrl'> = {},
): PosthornClient {
  const headers: Record<string, string> = { ...(options.headers as Record<string, string> | undefined) };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return createClient<paths>({ ...options, baseUrl, headers });
}
