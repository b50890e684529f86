import { Type } from 'typebox';
import { RECIPIENT_STATUSES, type RecipientStatusName } from '../../messages/recipient-status.js';
import { NextCursor, Timestamp } from './common.js';
import { EventRecordSchema } from './events.js';

const ID_EXAMPLE = 'msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H';

export const MessageParams = Type.Object(
  {
    id: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The message id from the send response, with or without `msg_`',
      examples: [ID_EXAMPLE],
    }),
  },
  { additionalProperties: false },
);

const Status = Type.Unsafe<RecipientStatusName>({
  type: 'string',
  enum: [...RECIPIENT_STATUSES],
  description:
    '`queued` (waiting for or in its first attempt), `deferred` (failed temporarily, to be tried again: see `last_reply`), `delivered`, `failed` (refused, bounced, or given up), `rejected` (not sent: no mail server for the domain, or refused at submission), `suppressed` (refused at submission: on the suppression list), `scheduled` (held until its send time)',
});

const Recipient = Type.Object(
  {
    address: Type.String({ examples: ['ana@example.org'] }),
    status: Status,
    last_event: Type.Union([EventRecordSchema, Type.Null()], {
      description: "The recipient's newest event; null before it has one",
    }),
    updated_at: Timestamp,
    last_reply: Type.Union([Type.String(), Type.Null()], {
      description:
        "While another attempt is to come: why the last one failed, usually the receiving server's reply (`451 4.3.0 …`). Deferrals are not events, so this is where they show.",
      examples: ['451 4.3.0 Temporary failure, try again later'],
    }),
    next_attempt_at: Type.Union([Timestamp, Type.Null()], {
      description: 'When the next attempt is due, while one is (null during an attempt and once done)',
    }),
  },
  { additionalProperties: false },
);

const Template = Type.Union(
  [
    Type.Object({ name: Type.String(), version: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
    Type.Null(),
  ],
  { description: 'The template the message was rendered from; null when it was sent with its own html or text' },
);

const summaryFields = {
  id: Type.String({ examples: [ID_EXAMPLE] }),
  domain: Type.String({ description: 'The sending domain', examples: ['mail.example.com'] }),
  from: Type.String({ description: 'The sender address, after the from rules', examples: ['orders@mail.example.com'] }),
  subject: Type.String({ examples: ['Your order 4711'] }),
  tags: Type.Array(Type.String(), { examples: [['receipt']] }),
  metadata: Type.Record(Type.String(), Type.String(), {
    description: 'The metadata given at send',
    examples: [{ order: '4711' }],
  }),
  created_at: Timestamp,
  template: Template,
  recipients: Type.Array(Recipient),
};

export const MessageSummarySchema = Type.Object(summaryFields, { additionalProperties: false });

export const MessageSchema = Type.Object(
  {
    ...summaryFields,
    events: Type.Array(EventRecordSchema, {
      description: "The message's events, oldest first (at most 1,000: see events_truncated)",
    }),
    events_truncated: Type.Boolean({
      description: 'True when the message has more than 1,000 events: page GET /v1/events?message_id= for all',
    }),
  },
  { additionalProperties: false },
);

export const MessagesQuery = Type.Object(
  {
    status: Type.Optional(Status),
    to: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 998,
        description: 'Messages to this recipient (case-insensitive)',
        examples: ['ana@example.org'],
      }),
    ),
    tag: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Messages with this tag' })),
    start: Type.Optional(
      Type.String({
        description: 'Sent at or after: Unix seconds or ISO 8601, as in GET /v1/events',
        examples: ['2026-11-21'],
      }),
    ),
    end: Type.Optional(
      Type.String({ description: 'Sent at or before, in the forms of start', examples: ['2026-11-21T12:00:00Z'] }),
    ),
    domain: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 253,
        description:
          "With an account token: which of the account's domains (required when it has more than one). A sending key reads its own domain.",
        examples: ['mail.example.com'],
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 25 })),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 512, description: 'next_cursor of the previous page' }),
    ),
  },
  { additionalProperties: false },
);

export const MessagesPageSchema = Type.Object(
  {
    messages: Type.Array(MessageSummarySchema, { description: 'Newest first, ties by id' }),
    next_cursor: NextCursor,
  },
  { additionalProperties: false },
);

export const ContentQuery = Type.Object(
  {
    recipient: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 998,
        description:
          'The copy signed for this recipient (copies differ per recipient with tracking, and per recipient domain in their DKIM-Signature); default: the copy signed last',
        examples: ['ana@example.org'],
      }),
    ),
  },
  { additionalProperties: false },
);

/** The 200 of GET /v1/messages/{id}/content: not JSON, the message itself. */
export const MessageContent = {
  description: 'The signed message (RFC 5322) as handed to delivery: its DKIM-Signature fields, then the message.',
  content: {
    'message/rfc822': {
      schema: Type.String({ description: 'The message, byte for byte' }),
    },
  },
};
