import { Type } from 'typebox';
import { EVENT_NAMES } from '../../core/event-names.js';
import { Timestamp } from './common.js';

const MESSAGE_ID_EXAMPLE = 'msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H';

/** One event as GET /v1/events returns it and webhooks post it (events/event-record.ts). */
export const EventRecordSchema = Type.Object(
  {
    id: Type.String({ description: '`evt_…`', examples: ['evt_01JD8X4Y2Z3A4B5C6D7E8F9G0H'] }),
    event: Type.String({
      description: `The event type: ${EVENT_NAMES.map((n) => `\`${n}\``).join(', ')}. Ignore types you do not know; more may be added.`,
      examples: ['delivered'],
    }),
    occurred_at: Timestamp,
    message_id: Type.String({ examples: [MESSAGE_ID_EXAMPLE] }),
    from: Type.String({ description: 'The sender address, after the from rules', examples: ['orders@example.com'] }),
    to: Type.String({ description: 'The recipient this event is about', examples: ['ana@example.org'] }),
    subject: Type.String({ examples: ['Your order 4711'] }),
    tags: Type.Array(Type.String(), { examples: [['receipt']] }),
    metadata: Type.Record(Type.String(), Type.String(), {
      description: 'The metadata given at send (`{}` when none)',
      examples: [{ order_id: '4711' }],
    }),
    details: Type.Record(Type.String(), Type.Unknown(), {
      description: 'What the event type records (docs/api.md, `GET /v1/events`); ignore keys you do not know.',
      examples: [{ mx_host: 'mx.example.org', response: '250 2.0.0 OK' }],
    }),
  },
  { additionalProperties: false },
);

/**
 * The query of GET /v1/events, for the OpenAPI document. The route checks it by hand
 * (events/parse-events-query.ts): that check came first, names each parameter in its messages, and
 * runs after the read limit (docs/api.md, Rate limits and quota).
 */
export const EventsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
    offset: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 1_000_000,
        default: 0,
        description: 'Events to skip; to page deeper than 1,000,000, narrow the range with start and end',
      }),
    ),
    event: Type.Optional(
      Type.Unsafe<string>({ type: 'string', enum: [...EVENT_NAMES], description: 'One event type' }),
    ),
    message_id: Type.Optional(
      Type.String({
        description: 'A message id, with or without `msg_`, in any case',
        examples: [MESSAGE_ID_EXAMPLE],
      }),
    ),
    start: Type.Optional(
      Type.String({
        description:
          'Inclusive lower bound: Unix seconds (fractions allowed) or ISO 8601 (a date, or a date-time; no zone means UTC; encode + as %2B)',
        examples: ['2026-11-21', '1763726400'],
      }),
    ),
    end: Type.Optional(
      Type.String({ description: 'Inclusive upper bound, in the forms of start', examples: ['2026-11-21T12:00:00Z'] }),
    ),
    domain: Type.Optional(
      Type.String({
        description:
          "Which of the account's domains to read, with an account token (required when the account has more than one). A sending key reads its own domain.",
        examples: ['mail.example.com'],
      }),
    ),
  },
  { additionalProperties: false },
);

export const EventsPageSchema = Type.Object(
  {
    total: Type.Integer({ minimum: 0, description: 'Events matching the filter (not the number returned)' }),
    limit: Type.Integer({ minimum: 1 }),
    offset: Type.Integer({ minimum: 0 }),
    events: Type.Array(EventRecordSchema, { description: 'Newest first, ties by id' }),
  },
  { additionalProperties: false },
);
