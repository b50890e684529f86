import { Type } from 'typebox';
import { SUPPRESSION_REASONS } from '../../storage/database.js';
import { NextCursor, PageQuery, Timestamp } from './common.js';

const Reason = Type.Unsafe<(typeof SUPPRESSION_REASONS)[number]>({
  type: 'string',
  enum: [...SUPPRESSION_REASONS],
  description:
    'Why the address is suppressed: `hard_bounce`, `complaint` and `unsubscribed` are added by Posthorn from what happened to a message; `manual` by a person or an import.',
  examples: ['hard_bounce'],
});

/** An address as the API takes it: checked (and lower-cased) by the suppression feature, which names `address` when it is not one. */
const Address = Type.String({
  minLength: 1,
  maxLength: 320,
  description: 'An email address; compared case-insensitively and stored lower-cased.',
  examples: ['ana@example.org'],
});

export const SuppressionEntry = Type.Object(
  {
    address: Type.String({ description: 'The suppressed address, lower-cased.', examples: ['ana@example.org'] }),
    reason: Reason,
    created_at: Timestamp,
    domain: Type.Union([Type.String(), Type.Null()], {
      description:
        'The sending domain whose mail led to the suppression (a bounce, complaint or unsubscribe), or as imported; null when added by hand.',
      examples: ['mail.example.com'],
    }),
    message_id: Type.Union([Type.String(), Type.Null()], {
      description:
        'The message whose bounce, complaint or unsubscribe suppressed the address; null when added by hand.',
      examples: ['msg_01JD3Z8Q4WJ6V2X5K7M9N0P1QR'],
    }),
    bounce_reason: Type.Union([Type.String(), Type.Null()], {
      description:
        'For a hard_bounce: why the address failed, in the bounce reason taxonomy (user_unknown, host_unknown, not_accepting, mailbox_moved, mailbox_disabled); null otherwise.',
      examples: ['user_unknown'],
    }),
  },
  { additionalProperties: false, title: 'Suppression' },
);

export const SuppressionQuery = Type.Object(
  {
    address: Type.Optional(
      Type.String({
        maxLength: 320,
        description:
          'Only addresses containing this text (case-insensitive, anywhere in the address): `@example.com` lists a domain, `ana` every address with "ana" in it.',
        examples: ['@example.com'],
      }),
    ),
    reason: Type.Optional(Reason),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const SuppressionPage = Type.Object(
  { suppressions: Type.Array(SuppressionEntry), next_cursor: NextCursor },
  { additionalProperties: false },
);

export const AddSuppressionBody = Type.Object(
  {
    address: Address,
    reason: Type.Optional(Reason),
  },
  { additionalProperties: false, examples: [{ address: 'ana@example.org', reason: 'manual' }] },
);

export const SuppressionParams = Type.Object({ address: Address }, { additionalProperties: false });

export const ImportResult = Type.Object(
  {
    imported: Type.Integer({ minimum: 0, description: 'Rows added to the list.', examples: [998] }),
    already_suppressed: Type.Integer({
      minimum: 0,
      description: 'Valid rows whose address was already listed (or came earlier in the same file); left unchanged.',
      examples: [1],
    }),
    invalid_count: Type.Integer({
      minimum: 0,
      description: 'Rows not imported because they are invalid.',
      examples: [1],
    }),
    invalid: Type.Array(
      Type.Object(
        {
          line: Type.Integer({
            minimum: 1,
            description: 'Where the row starts in the file (the CSV header is line 1).',
          }),
          value: Type.String({
            description: 'The value at fault (cut to 200 characters); empty when the row could not be read.',
          }),
          message: Type.String({ description: 'What is wrong with it.' }),
        },
        { additionalProperties: false },
      ),
      {
        maxItems: 100,
        description: 'The first 100 invalid rows, in file order.',
        examples: [
          [
            {
              line: 7,
              value: 'bob@',
              message: 'address "bob@" is not an email address (expected local@domain.example)',
            },
          ],
        ],
      },
    ),
  },
  { additionalProperties: false },
);

const csvExample =
  'address,reason,created_at,domain,message_id\nana@example.org,hard_bounce,2026-11-21T16:09:00.000Z,mail.example.com,msg_01JD3Z8Q4WJ6V2X5K7M9N0P1QR\nbob@example.net,manual,2026-11-22T08:00:00.000Z,,\n';
const ndjsonExample =
  '{"address":"ana@example.org","reason":"hard_bounce","created_at":"2026-11-21T16:09:00.000Z","domain":"mail.example.com","message_id":"msg_01JD3Z8Q4WJ6V2X5K7M9N0P1QR"}\n';

/** The export's two media types, for the OpenAPI document (the body is a stream, never validated). */
export const ExportResponse = {
  description:
    'The whole list in address order: CSV with the header line `address,reason,created_at,domain,message_id` (RFC 4180, empty fields for null), or one JSON object per line with `Accept: application/x-ndjson`. Streamed (chunked).',
  content: {
    'text/csv': { schema: { type: 'string', examples: [csvExample] } },
    'application/x-ndjson': { schema: { type: 'string', examples: [ndjsonExample] } },
  },
};

/** The import's request body, for the OpenAPI document (the route reads it as a stream). */
export const ImportRequestBody = {
  required: true,
  description:
    'CSV with a header line (`address` required; `reason`, `created_at`, `domain`, `message_id` optional, as the export writes them), or NDJSON with one such object per line. At most 256 MiB.',
  content: {
    'text/csv': { schema: { type: 'string', examples: [csvExample] } },
    'application/x-ndjson': { schema: { type: 'string', examples: [ndjsonExample] } },
  },
};
