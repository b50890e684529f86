import type { Deps } from '../deps.js';
import { apiError, retryAfterSeconds, type ApiError } from '../core/api-errors.js';
import type { Caller } from './authorize.js';

/**
 * The per-credential read limit of the `read` routes (docs/api.md, Rate limits and quota):
 * POSTHORN_EVENTS_RATE_LIMIT requests per second for each sending key or account token, counted
 * per `bucket` (`events`, `messages`). Null when the request may go ahead, else the 429 to send.
 * Taken before the query is parsed, so malformed queries count like any other read.
 */
export async function takeRead(
  deps: Pick<Deps, 'limiter' | 'config' | 'clock'>,
  caller: Caller,
  bucket: string,
  noun: string,
): Promise<ApiError | null> {
  const [id, what] =
    caller.kind === 'key'
      ? [caller.key.keyId, 'key']
      : caller.kind === 'token'
        ? [caller.token.tokenId, 'token']
        : [caller.session.userId, 'user'];
  const limit = deps.config.eventsRateLimit;
  const decision = await deps.limiter.take(`${bucket}:${id}`, limit, deps.clock.now());
  if (decision.ok) return null;
  const wait = retryAfterSeconds(decision.retryAfterMs);
  return apiError(
    'rate_limited',
    `More than ${limit} ${noun} per second with this ${what}; retry after ${wait} s.`,
    undefined,
    wait,
  );
}
