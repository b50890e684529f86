import { createPosthornClient, type components } from '../../src/client/client.js';

/** The API's error object (docs/api.md, Errors): `type`, `message`, and the `field` it names, if any. */
export type ApiError = components['schemas']['Error']['error'];
export type Domain = components['schemas']['Domain'];

/** Who is using the dashboard: a signed-in user (a session cookie) or an account token kept for this tab. */
export interface Session {
  kind: 'session' | 'token';
  email: string | null;
  role: 'admin' | 'viewer' | null;
  account: string | null;
  totp_enabled: boolean;
  csrf_token: string | null;
}

const TOKEN_KEY = 'posthorn.account-token';
let current: Session | null = null;

/**
 * The typed client (src/client/client.ts) on this origin. A session sends its cookie and, on a
 * state-changing request, the CSRF token the session handed out (docs/dashboard.md, Security);
 * an account token signed in for this tab is sent as a bearer token instead.
 */
export const api = createPosthornClient(location.origin, undefined, { credentials: 'same-origin' });
api.use({
  onRequest({ request }) {
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token !== null) request.headers.set('authorization', `Bearer ${token}`);
    else if (request.method !== 'GET' && current?.csrf_token) request.headers.set('x-csrf-token', current.csrf_token);
    return request;
  },
  onResponse({ response }) {
    // A session that ended (signed out elsewhere, idle expiry, user removed) sends the user to sign in.
    if (response.status === 401 && current !== null) window.dispatchEvent(new Event('posthorn:signed-out'));
    return undefined;
  },
});

/** An error to show: the API's own, or one made here for a failure that never reached it. */
export function asApiError(error: unknown): ApiError {
  if (typeof error === 'object' && error !== null && 'error' in error) return (error as { error: ApiError }).error;
  return { type: 'internal_error', message: error instanceof Error ? error.message : String(error), docs: '' };
}

/**
 * The session routes (`/v1/session`) are called with fetch: they are not yet in the OpenAPI
 * document the typed client is generated from.
 */
export async function loadSession(): Promise<Session | null> {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token !== null) {
    // An account token: check it with a cheap read before trusting it.
    const { response } = await api.GET('/v1/domains');
    if (response.status === 401) {
      sessionStorage.removeItem(TOKEN_KEY);
      return (current = null);
    }
    return (current = {
      kind: 'token',
      email: null,
      role: null,
      account: null,
      totp_enabled: false,
      csrf_token: null,
    });
  }
  const res = await fetch('/v1/session', { credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (!res.ok) return (current = null);
  const body = (await res.json()) as Omit<Session, 'kind'>;
  return (current = { ...body, kind: 'session' });
}

/** Signs in with email and password (and a TOTP code when the user has turned it on). */
export async function signIn(email: string, password: string, totp: string): Promise<ApiError | null> {
  const res = await fetch('/v1/session', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(totp === '' ? { email, password } : { email, password, totp }),
  });
  if (res.ok) return null;
  try {
    return asApiError(await res.json());
  } catch {
    return { type: 'internal_error', message: `sign-in failed (HTTP ${res.status})`, docs: '' };
  }
}

/** Keeps an account token for this browser tab only (sessionStorage), and checks it. */
export async function signInWithToken(token: string): Promise<ApiError | null> {
  sessionStorage.setItem(TOKEN_KEY, token.trim());
  const session = await loadSession();
  if (session === null)
    return { type: 'invalid_key', message: 'that account token was refused', docs: '', field: 'token' };
  return null;
}

export async function signOut(): Promise<void> {
  if (sessionStorage.getItem(TOKEN_KEY) !== null) sessionStorage.removeItem(TOKEN_KEY);
  else if (current !== null) {
    await fetch('/v1/session', {
      method: 'DELETE',
      credentials: 'same-origin',
      headers: current.csrf_token ? { 'x-csrf-token': current.csrf_token } : {},
    }).catch(() => undefined);
  }
  current = null;
}
