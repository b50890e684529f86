import { Type } from 'typebox';
import { PROVIDER_NAMES } from '../../delivery/providers.js';
import { PROVIDER_NAME_PATTERN } from '../../config/parse-providers.js';
import { QUEUE_STATUSES } from '../../queue-control/list-queue.js';
import { HOLD_SCOPES } from '../../queue/holds.js';
import { NextCursor, NullableTimestamp, PageQuery, Timestamp } from './common.js';

const MSG_EXAMPLE = 'msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H';

// Not an enum: POSTHORN_PROVIDERS may add providers (docs/delivery.md), and this document is the
// same for every configuration. The route refuses a name its server does not know, naming those it does.
const Provider = Type.String({
  pattern: PROVIDER_NAME_PATTERN,
  description: `A mailbox provider, as the delivery metrics label it: from the MX host the mail goes to. One of ${PROVIDER_NAMES.join(', ')}, or a provider added by POSTHORN_PROVIDERS.`,
  examples: ['gmail'],
});
const Domain = Type.String({
  minLength: 1,
  maxLength: 253,
  description: 'A recipient domain',
  examples: ['example.org'],
});
const Status = Type.Unsafe<(typeof QUEUE_STATUSES)[number]>({
  type: 'string',
  enum: [...QUEUE_STATUSES],
  description:
    '`queued` (not tried yet), `deferred` (tried, to be tried again), `scheduled` (its send time is ahead), `suspended` (pushed back by a hold, waiting for it to end)',
});

export const QueueJob = Type.Object(
  {
    id: Type.String({ examples: ['job_01JD8X4Y2Z3A4B5C6D7E8F9G0H'] }),
    message_id: Type.String({ examples: [MSG_EXAMPLE] }),
    recipient: Type.String({ examples: ['ana@example.org'] }),
    domain: Type.String({ description: "The recipient's domain", examples: ['example.org'] }),
    provider: Type.Union([Provider, Type.Null()], {
      description: 'The provider of the MX host last tried; null before a route was resolved.',
    }),
    status: Status,
    attempts: Type.Integer({ minimum: 0 }),
    next_attempt_at: Timestamp,
    last_reply: Type.Union([Type.String(), Type.Null()], {
      description: 'The last temporary failure: the remote reply, or why no server was reached.',
      examples: ['451 4.7.1 Try again later'],
    }),
    send_at: NullableTimestamp,
    in_attempt: Type.Boolean({ description: 'True while a delivery worker is attempting it.' }),
  },
  { additionalProperties: false, title: 'QueueJob' },
);

export const QueueQuery = Type.Object(
  {
    domain: Type.Optional(Domain),
    provider: Type.Optional(Provider),
    status: Type.Optional(Status),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const QueuePage = Type.Object(
  { jobs: Type.Array(QueueJob), next_cursor: NextCursor },
  { additionalProperties: false },
);

export const QueueMessageParams = Type.Object(
  {
    message_id: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The message id, with or without `msg_`',
      examples: [MSG_EXAMPLE],
    }),
  },
  { additionalProperties: false },
);

export const MessageQueue = Type.Object(
  {
    message_id: Type.String({ examples: [MSG_EXAMPLE] }),
    send_at: NullableTimestamp,
    recipients: Type.Array(
      Type.Object(
        {
          address: Type.String(),
          status: Type.String({ description: "The recipient's status, as GET /v1/messages/{id} shows it." }),
          job: Type.Union([QueueJob, Type.Null()], { description: 'Its delivery job while one is left.' }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, title: 'MessageQueue' },
);

export const Retried = Type.Object(
  { retried: Type.Integer({ minimum: 0, description: 'Jobs made due now.' }) },
  { additionalProperties: false },
);
export const Cancelled = Type.Object(
  { cancelled: Type.Integer({ minimum: 1, description: 'Recipients cancelled (now `failed`, reason `cancelled`).' }) },
  { additionalProperties: false },
);

export const RetryBody = Type.Object(
  { domain: Type.Optional(Domain), provider: Type.Optional(Provider) },
  { additionalProperties: false, description: 'Exactly one of domain and provider.' },
);

const HoldScope = Type.Unsafe<(typeof HOLD_SCOPES)[number]>({
  type: 'string',
  enum: [...HOLD_SCOPES],
  description: '`domain` (a recipient domain) or `provider` (gmail, outlook, yahoo, apple, other)',
});

export const Hold = Type.Object(
  {
    scope: HoldScope,
    value: Type.String({ examples: ['example.org'] }),
    account_only: Type.Boolean({
      description: "True for a hold of this account's mail alone; false for the operator's hold over every account.",
    }),
    reason: Type.Union([Type.String(), Type.Null()]),
    created_at: Timestamp,
    until: Type.Union([Timestamp, Type.Null()], { description: 'When it ends by itself; null: until resumed.' }),
    actor: Type.String({ examples: ['token:ops'] }),
  },
  { additionalProperties: false, title: 'DeliveryHold' },
);

export const HoldList = Type.Object({ holds: Type.Array(Hold) }, { additionalProperties: false });

export const SuspendBody = Type.Object(
  {
    domain: Type.Optional(Domain),
    provider: Type.Optional(Provider),
    until: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Integer({ minimum: 0 })], {
        description: 'When the hold ends by itself: ISO 8601 with an offset, Unix seconds, or a duration such as 2h.',
        examples: ['2h'],
      }),
    ),
    reason: Type.Optional(Type.String({ maxLength: 500, examples: ['provider rate-limiting us'] })),
  },
  { additionalProperties: false, description: 'Exactly one of domain and provider.' },
);

export const HoldParams = Type.Object(
  {
    scope: HoldScope,
    value: Type.String({ minLength: 1, maxLength: 253, examples: ['example.org'] }),
  },
  { additionalProperties: false },
);
