import { createPosthornClient, type components, type operations } from '../../src/client/client.js';

/** The API's error object (docs/api.md, Errors): `type`, `message`, and the `field` it names, if any. */
export type ApiError = components['schemas']['Error']['error'];
export type Domain = components['schemas']['Domain'];

/**
 * Who is using the dashboard (`GET /v1/session`): a signed-in user (`kind` `session`, the session
 * cookie) or an account token kept for this tab (`kind` `token`), each with its role and account.
 */
export type Session = operations['getSession']['responses'][200]['content']['application/json'];

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
    for (const [name, value] of Object.entries(authHeaders(request.method))) request.headers.set(name, value);
    return request;
  },
  onResponse({ response }) {
    noteStatus(response.status);
    return undefined;
  },
});

/**
 * The credential headers of a request made without the typed client (an upload with progress,
 * a download saved as a file): the account token as a bearer token, or, for a session's
 * state-changing request, its CSRF token (the session cookie itself goes with any same-origin request).
 */
export function authHeaders(method: string): Record<string, string> {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token !== null) return { authorization: `Bearer ${token}` };
  if (method.toUpperCase() !== 'GET' && current?.csrf_token) return { 'x-csrf-token': current.csrf_token };
  return {};
}

/** Call with the status of every answer: a session that ended (signed out elsewhere, idle expiry, user removed) sends the user to sign in. */
export function noteStatus(status: number): void {
  if (status === 401 && current !== null) window.dispatchEvent(new Event('posthorn:signed-out'));
}

/** An error to show: the API's own, or one made here for a failure that never reached it. */
export function asApiError(error: unknown): ApiError {
  if (typeof error === 'object' && error !== null && 'error' in error) return (error as { error: ApiError }).error;
  return { type: 'internal_error', message: error instanceof Error ? error.message : String(error), docs: '' };
}

/** Who is signed in (`GET /v1/session`), for a session or an account token alike; null when no one is. */
export async function loadSession(): Promise<Session | null> {
  const { data, response } = await api.GET('/v1/session');
  if (data === undefined) {
    // A refused account token is forgotten, so the sign-in page asks for another.
    if (response.status === 401) sessionStorage.removeItem(TOKEN_KEY);
    return (current = null);
  }
  return (current = data);
}

/** Signs in with email and password (and a TOTP code when the user has turned it on). */
export async function signIn(email: string, password: string, totp: string): Promise<ApiError | null> {
  const { error } = await api.POST('/v1/session', {
    body: totp === '' ? { email, password } : { email, password, totp },
  });
  return error === undefined ? null : asApiError(error);
}

/** Keeps an account token for this browser tab only (sessionStorage), and checks it. */
export async function signInWithToken(token: string): Promise<ApiError | null> {
  sessionStorage.setItem(TOKEN_KEY, token.trim());
  const session = await loadSession();
  if (session === null)
    return { type: 'invalid_key', message: 'that account token was refused', docs: '', field: 'token' };
  return null;
}

/** Signs out: a session ends on the server (`DELETE /v1/session`); an account token is forgotten by this tab. */
export async function signOut(): Promise<void> {
  if (sessionStorage.getItem(TOKEN_KEY) !== null) sessionStorage.removeItem(TOKEN_KEY);
  else if (current !== null) await api.DELETE('/v1/session').catch(() => undefined);
  current = null;
}
