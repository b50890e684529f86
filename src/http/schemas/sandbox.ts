import { Type } from 'typebox';
import { NextCursor, PageQuery, Timestamp } from './common.js';

export const SandboxMessagesQuery = Type.Object(PageQuery, { additionalProperties: false });

export const SandboxMessageParams = Type.Object(
  {
    id: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The kept message’s id, `sbx_…`',
      examples: ['sbx_01JD8X4Y2Z3A4B5C6D7E8F9G0H'],
    }),
  },
  { additionalProperties: false },
);

const summaryFields = {
  id: Type.String({ description: 'The kept message’s id', examples: ['sbx_01JD8X4Y2Z3A4B5C6D7E8F9G0H'] }),
  message_id: Type.String({
    description: 'The id of the message it was delivered for (its events carry it)',
    examples: ['msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H'],
  }),
  mail_from: Type.String({
    description: 'The envelope sender it was delivered with: the signed return path on the bounce host',
    examples: ['b-grp_01jd8x4y2z3a4b5c6d7e8f9g0h.ab12cd34@bounce.sandbox.posthorn.test'],
  }),
  to: Type.Array(Type.String(), {
    description: 'The envelope recipients the sandbox accepted in this delivery',
    examples: [['bounce@example.com']],
  }),
  from: Type.String({ description: 'The From header', examples: ['hello@sandbox.posthorn.test'] }),
  subject: Type.String({ description: 'The Subject header, decoded', examples: ['Hello from Posthorn'] }),
  received_at: Timestamp,
};

export const SandboxMessageSummary = Type.Object(summaryFields, { additionalProperties: false });

export const SandboxMessagePage = Type.Object(
  {
    messages: Type.Array(SandboxMessageSummary, { description: 'Newest first' }),
    next_cursor: NextCursor,
  },
  { additionalProperties: false },
);

export const SandboxMessage = Type.Object(
  {
    ...summaryFields,
    size: Type.Integer({ minimum: 0, description: 'The raw message’s size in bytes, as signed' }),
    html: Type.Union([Type.String(), Type.Null()], {
      description: 'The HTML body, decoded; null when the message has none',
    }),
    text: Type.Union([Type.String(), Type.Null()], {
      description: 'The plain-text body, decoded; null when the message has none',
    }),
  },
  { additionalProperties: false },
);

export const SandboxRawResponse = {
  description:
    'The message byte for byte as the sandbox received it: DKIM-signed, tracking URLs in place (RFC 5322, served as `message/rfc822`).',
  content: {
    'message/rfc822': {
      schema: {
        type: 'string',
        examples: [
          'DKIM-Signature: v=1; a=rsa-sha256; d=sandbox.posthorn.test; …\r\nFrom: hello@sandbox.posthorn.test\r\n…',
        ],
      },
    },
  },
};

export const TestSendBody = Type.Object(
  {
    to: Type.String({
      minLength: 3,
      maxLength: 254,
      description:
        'One recipient. In the sandbox its local part picks the outcome: `bounce@`, `block@`, `defer@`, `open@`, `click@`, `unsubscribe@`, `complain@` (any other address is delivered).',
      examples: ['bounce@example.com'],
    }),
    subject: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 998,
        description: 'The subject; `Test message from Posthorn` when left out',
        examples: ['Hello from Posthorn'],
      }),
    ),
  },
  { additionalProperties: false },
);
