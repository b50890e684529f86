import { Type } from 'typebox';
import { EVENT_NAMES } from '../../core/event-names.js';
import { MAX_REPLAY_DAYS, MAX_REPLAY_EVENTS } from '../../webhooks/replay-webhook.js';
import { NullableTimestamp, Timestamp } from './common.js';

/** Schemas of `/v1/domains/{domain}/webhook…` (docs/webhooks.md, Management over HTTP). */

const Url = Type.String({
  description: 'Where events are POSTed.',
  examples: ['https://hooks.example.com/posthorn'],
});

const Secret = Type.String({
  description:
    'The signing secret (Standard Webhooks `whsec_…`), shown only in this answer: it cannot be read back. Verify the `webhook-signature` header with it.',
  examples: ['whsec_oxxRarONFGLhfR1hiCaHfE6uoPmRMN1lTD4z5gp+RdA='],
});

export const WebhookSecretInfo = Type.Object(
  {
    created_at: Timestamp,
    expires_at: Type.Union([Timestamp, Type.Null()], {
      description:
        'Null for the current secret; for a rotated-out one, when it stops signing (until then both sign every POST).',
    }),
  },
  {
    additionalProperties: false,
    description: 'A signing secret that signs now: when it was made and until when. Never its value.',
  },
);

export const WebhookAttempt = Type.Object(
  {
    event_id: Type.String({
      description:
        'The `webhook-id` POSTed: the event id (`evt_…`) or notice id (`ntc_…`). A replayed event carries its original id.',
      examples: ['evt_01JD8X4Y2Z3A4B5C6D7E8F9G0H'],
    }),
    event: Type.String({ description: 'The event (or notice) name.', examples: ['delivered'] }),
    attempt: Type.Integer({
      minimum: 1,
      description: "1 for a delivery's first POST, counting up with each retry.",
      examples: [1],
    }),
    at: Timestamp,
    status: Type.Union([Type.Integer(), Type.Null()], {
      description: "The receiver's HTTP status; null when there was no response (refused, network error, timeout).",
      examples: [200],
    }),
    duration_ms: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
      description: 'From the start of the POST to the end of the response; null when there was no response.',
      examples: [42],
    }),
    response: Type.Union([Type.String(), Type.Null()], {
      description: 'The first 500 characters of the response body; null when there was no response.',
      examples: ['ok'],
    }),
    error: Type.Union([Type.String(), Type.Null()], {
      description: 'Why there was no response; null when there was one.',
      examples: [null],
    }),
  },
  { additionalProperties: false, description: 'One POST of the delivery log.' },
);

export const Webhook = Type.Object(
  {
    url: Url,
    status: Type.Union([Type.Literal('active'), Type.Literal('disabled')], {
      description:
        '`disabled` after 410 Gone or failing for POSTHORN_WEBHOOK_DISABLE_AFTER; a PUT re-enables it and sends what waited.',
    }),
    disabled_at: NullableTimestamp,
    disabled_reason: Type.Union([Type.String(), Type.Null()], { examples: [null] }),
    failing_since: Type.Union([Timestamp, Type.Null()], {
      description: 'Start of the current run of failed attempts; null after any 2xx.',
    }),
    secrets: Type.Array(WebhookSecretInfo, {
      description: 'The secrets that sign now, newest first; never their values.',
    }),
    pending: Type.Integer({ minimum: 0, description: 'Deliveries waiting to be POSTed or retried.', examples: [0] }),
    failed: Type.Integer({
      minimum: 0,
      description: 'Deliveries given up after the last retry (about a day of retries).',
      examples: [0],
    }),
    attempts: Type.Array(WebhookAttempt, { description: 'The delivery log: the last 50 POSTs, newest first.' }),
  },
  {
    additionalProperties: false,
    description: "The domain's webhook: where it posts, whether it is healthy, and its recent delivery log.",
  },
);

export const SetWebhookBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description:
        'An absolute https URL on a public address (http and private or loopback hosts only with POSTHORN_WEBHOOK_ALLOW_PRIVATE=1), no #fragment.',
      examples: ['https://hooks.example.com/posthorn'],
    }),
  },
  { additionalProperties: false },
);

export const WebhookCreated = Type.Object(
  { url: Url, secret: Secret },
  { additionalProperties: false, description: 'The webhook was created; its secret is shown this once.' },
);

export const WebhookChanged = Type.Object(
  {
    url: Url,
    reenabled: Type.Boolean({ description: 'True when the webhook was disabled and this PUT switched it back on.' }),
  },
  { additionalProperties: false, description: 'The URL was set; the secret is unchanged (and not shown).' },
);

export const WebhookRotated = Type.Object(
  {
    secret: Secret,
    previous_secret_expires_at: Type.String({
      format: 'date-time',
      description: 'Until then the previous secret signs beside the new one (POSTHORN_WEBHOOK_SECRET_OVERLAP).',
      examples: ['2026-11-26T09:30:00.000Z'],
    }),
  },
  { additionalProperties: false },
);

export const WebhookTestResult = Type.Object(
  {
    status: Type.Union([Type.Integer(), Type.Null()], {
      description:
        "The receiver's HTTP status (2xx means it accepted the test); null when no response was had: refused by the private-address guard, a network error or the timeout.",
      examples: [200],
    }),
    duration_ms: Type.Integer({ minimum: 0, examples: [37] }),
    response: Type.String({
      description: 'The first 500 characters of the response body, or why there was no response.',
      examples: ['ok'],
    }),
  },
  { additionalProperties: false },
);

const timeBound = (example: string) =>
  Type.String({
    minLength: 1,
    maxLength: 64,
    description:
      'ISO 8601 date-time (`2026-11-21T12:00:00Z`, `2026-11-21T13:00:00.000+01:00`) or date (midnight UTC), or Unix seconds as a string: the forms GET /v1/events takes. Inclusive.',
    examples: [example],
  });

export const ReplayBody = Type.Object(
  {
    start: timeBound('2026-11-21T00:00:00Z'),
    end: timeBound('2026-11-21T06:00:00Z'),
    event: Type.Optional(
      Type.Unsafe<string>({
        type: 'string',
        enum: [...EVENT_NAMES],
        description: 'Only events of this name.',
        examples: ['delivered'],
      }),
    ),
  },
  {
    additionalProperties: false,
    description: `At most ${MAX_REPLAY_DAYS} days and ${MAX_REPLAY_EVENTS} events per request.`,
  },
);

export const ReplayResult = Type.Object(
  {
    queued: Type.Integer({
      minimum: 0,
      description: 'Events queued to the webhook again, each with its original id as `webhook-id`.',
      examples: [1234],
    }),
  },
  { additionalProperties: false },
);
