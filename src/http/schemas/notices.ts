import { Type } from 'typebox';
import { Timestamp } from './common.js';

export const NoticesQuery = Type.Object(
  {
    domain: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 253,
        description: 'Only the notices of this domain of the account.',
        examples: ['example.com'],
      }),
    ),
  },
  { additionalProperties: false },
);

export const Notice = Type.Object(
  {
    id: Type.String({ description: 'The notice’s id.', examples: ['ntc_01JD3Q6W8V4Z1T2N5R7X9K0M4B'] }),
    kind: Type.String({
      description:
        'What it is about: `domain.warning`, `domain.unverified`, `domain.complaint_rate`, `webhook.disabled`, …',
      examples: ['domain.complaint_rate'],
    }),
    domain: Type.Union([Type.String(), Type.Null()], {
      description: 'The domain it concerns; null for an account-wide notice.',
      examples: ['example.com'],
    }),
    message: Type.String({
      description: 'What happened and what to do, in words.',
      examples: ['example.com: complaint rate 0.09% over 30 days is near the 0.1% limit'],
    }),
    details: Type.Record(Type.String(), Type.Unknown(), { description: 'The figures behind the message.' }),
    created_at: Timestamp,
  },
  { additionalProperties: false },
);

export const NoticeList = Type.Object(
  {
    notices: Type.Array(Notice, {
      description: 'The newest notices first, at most 100.',
    }),
  },
  { additionalProperties: false },
);
