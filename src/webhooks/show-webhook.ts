import type { Deps } from '../deps.js';
import { readEndpointSecrets } from './sealed-secrets.js';
import { findEndpoint, type WebhookDomain } from './find-endpoint.js';

/** How many delivery-log rows `webhook show` includes unless asked for another number. */
const LOG_ROWS = 10;

/** One attempt of the delivery log as `webhook show` prints it. */
export interface AttemptView {
  /** The `webhook-id` POSTed: the event's (or notice's) id. */
  event_id: string;
  event: string;
  /** 1 for the first POST of a delivery, counting up with each retry. */
  attempt: number;
  attempted_at: string;
  status: number | null;
  duration_ms: number | null;
  response_snippet: string | null;
  error: string | null;
}

/** The state of a domain's webhook: never a secret's value, only how old each is. */
export interface WebhookView {
  domain: string;
  url: string;
  status: 'active' | 'disabled';
  disabled_at: string | null;
  disabled_reason: string | null;
  failing_since: string | null;
  secrets: { created_at: string; age_seconds: number; expires_at: string | null }[];
  pending: number;
  /** Given up after the last retry (about a day of retries: docs/webhooks.md). */
  failed: number;
  last_attempts: AttemptView[];
}

const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/**
 * Reads the endpoint, its secrets' ages (never their values), its outbox counts and the last
 * `attempts` (10 by default) of its delivery log, newest first: `posthorn webhook show` and
 * `GET …/webhook`. A read, so nothing goes to the audit log.
 */
export async function showWebhook(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  domain: WebhookDomain,
  opts: { attempts?: number } = {},
): Promise<WebhookView> {
  const endpoint = await findEndpoint(deps, domain);
  const now = deps.clock.now();
  const counts = await deps.db
    .selectFrom('webhook_deliveries')
    .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
    .where('endpoint_id', '=', endpoint.id)
    .where('state', 'in', ['pending', 'failed'])
    .groupBy('state')
    .execute();
  const count = (state: string) => Number(counts.find((c) => c.state === state)?.n ?? 0);
  const attempts = await deps.db
    .selectFrom('webhook_attempts')
    .leftJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
    .select([
      'webhook_deliveries.event_id',
      'webhook_deliveries.event',
      'webhook_attempts.attempt',
      'webhook_attempts.attempted_at',
      'webhook_attempts.status',
      'webhook_attempts.duration_ms',
      'webhook_attempts.response_snippet',
      'webhook_attempts.error',
    ])
    .where('webhook_attempts.endpoint_id', '=', endpoint.id)
    .orderBy('webhook_attempts.attempted_at', 'desc')
    .orderBy('webhook_attempts.id', 'desc')
    .limit(opts.attempts ?? LOG_ROWS)
    .execute();
  return {
    domain: domain.name,
    url: endpoint.url,
    status: endpoint.status,
    disabled_at: iso(endpoint.disabled_at),
    disabled_reason: endpoint.disabled_reason,
    failing_since: iso(endpoint.failing_since),
    secrets: readEndpointSecrets(deps.config, endpoint.id, endpoint.secrets)
      .filter((s) => s.expires_at === null || s.expires_at > now)
      .map((s) => ({
        created_at: iso(s.created_at)!,
        age_seconds: Math.max(0, Math.floor((now - s.created_at) / 1000)),
        expires_at: iso(s.expires_at),
      })),
    pending: count('pending'),
    failed: count('failed'),
    last_attempts: attempts.map((a) => ({
      event_id: a.event_id ?? '',
      event: a.event ?? '',
      attempt: a.attempt,
      attempted_at: iso(a.attempted_at)!,
      status: a.status,
      duration_ms: a.duration_ms,
      response_snippet: a.response_snippet,
      error: a.error,
    })),
  };
}
