import { Type } from 'typebox';
import { MAX_ATTACHMENTS } from '../../send/attachments.js';
import {
  MAX_METADATA_KEY,
  MAX_METADATA_KEYS,
  MAX_METADATA_VALUE,
  MAX_RECIPIENTS,
} from '../../send/validate-send-json.js';

/**
 * The request and response of `POST /v1/send` for the OpenAPI document. The route does not
 * validate with them: the submit pipeline reads the raw body itself (it authenticates first, and
 * the relay shares its rules), by src/send/validate-send-json.ts. So these describe that validator,
 * and test/unit/send/send-schema.test.ts checks that every body it accepts fits this schema and that
 * known bad bodies fail both. Rules a JSON Schema cannot say (mailbox grammar, trimming, the
 * 50-recipient total over three fields, the 10 MiB decoded total) are in the descriptions.
 */

const Mailbox = Type.String({
  minLength: 1,
  description: '`local@domain` or `Name <local@domain>` (a name with specials in double quotes).',
  examples: ['Ana Lima <ana@example.org>'],
});

/** One address or an array: `to`, `cc`, `bcc`, `reply_to`. */
const AddressList = (description: string, minItems: number, example: unknown) =>
  Type.Union(
    [
      Mailbox,
      Type.Array(Mailbox, { minItems, maxItems: MAX_RECIPIENTS }),
      // `to` is required: only the optional fields take null for "none".
      ...(minItems === 0 ? [Type.Null()] : []),
    ],
    { description, examples: [example] },
  );

/**
 * An object of string values whose names follow `names`: JSON Schema's propertyNames, which
 * TypeBox's Record does not write (it drops constraints on the key).
 */
const StringMap = (names: object, values: Parameters<typeof Type.String>[0], options: object) =>
  Type.Object({}, { additionalProperties: Type.String(values), propertyNames: names, ...options });

export const Attachment = Type.Object(
  {
    filename: Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        'The file name readers see (any characters but control characters, `/` and `\\`; non-ASCII is sent RFC 2231-encoded). Executable and script types are refused: see docs/api.md, Attachments.',
      examples: ['invoice-4711.pdf'],
    }),
    content: Type.String({
      contentEncoding: 'base64',
      description:
        "The file's bytes, base64 (RFC 4648 §4, standard alphabet; line breaks are ignored, padding may be left out).",
      examples: ['JVBERi0xLjcKJcfsj6IK'],
    }),
    content_type: Type.Optional(
      Type.Union([Type.String({ minLength: 3, maxLength: 200 }), Type.Null()], {
        description:
          'The media type (`type/subtype`, parameters allowed); from the file name when absent. `multipart/*`, `message/*` and executable types are refused.',
        examples: ['application/pdf'],
      }),
    ),
    content_id: Type.Optional(
      Type.Union(
        [
          Type.String({
            minLength: 1,
            maxLength: 200,
            pattern: "^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.@-]+$",
          }),
          Type.Null(),
        ],
        {
          description:
            'Makes the file an inline part that the html shows with `<img src="cid:<content_id>">`; without angle brackets, unique in the message.',
          examples: ['logo@acme'],
        },
      ),
    ),
  },
  { additionalProperties: false, title: 'Attachment' },
);

export const SendBody = Type.Object(
  {
    from: Type.String({
      minLength: 1,
      description:
        "The sender: one mailbox on the key's domain or another verified domain of the account (rewritten to the key's domain).",
      examples: ['Acme Orders <orders@example.com>'],
    }),
    to: AddressList(
      `1 to ${MAX_RECIPIENTS} recipients. \`to\`, \`cc\` and \`bcc\` together hold at most ${MAX_RECIPIENTS} distinct addresses.`,
      1,
      ['ana@example.org', 'Bob <bob@example.net>'],
    ),
    cc: Type.Optional(
      AddressList(
        'Copy recipients: delivered to, and shown in the Cc header. null means none.',
        0,
        'Accounts <accounts@example.org>',
      ),
    ),
    bcc: Type.Optional(
      AddressList('Blind copy recipients: delivered to, never shown in the message. null means none.', 0, [
        'audit@example.com',
      ]),
    ),
    reply_to: Type.Optional(
      AddressList('The Reply-To header: where replies go. null means none.', 0, 'help@example.com'),
    ),
    subject: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          "Trimmed; not blank, at most 998 characters, no CR, LF, NUL or other control characters. Required unless `template` is given; with it, replaces the template's subject.",
        examples: ['Your order 4711'],
      }),
    ),
    template: Type.Optional(
      Type.Union(
        [
          Type.Object(
            {
              name: Type.String({ pattern: '^[a-z0-9][a-z0-9-_]{0,63}$', description: 'A template of the account' }),
              version: Type.Optional(
                Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'The newest when left out' }),
              ),
              variables: Type.Optional(
                Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
                  description: 'The values the template uses; at most 256 KiB as JSON (413 otherwise).',
                }),
              ),
            },
            { additionalProperties: false },
          ),
          Type.Null(),
        ],
        {
          description:
            'Render the body (and the subject, unless given) from a stored template (docs/templates.md) instead of `html` and `text`, which are then refused. A variable used outside an #if, #unless or #each and not given is 400 `template.variables.<path>`.',
          examples: [{ name: 'welcome', variables: { user: { first_name: 'Ana' } } }],
        },
      ),
    ),
    html: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'The HTML body. At least one of `html` and `text` is required; an empty string counts as absent.',
        examples: ['<p>Thanks for your order.</p><img src="cid:logo@acme" alt="Acme">'],
      }),
    ),
    text: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: 'The plain-text body; generated from `html` when absent.',
        examples: ['Thanks for your order.'],
      }),
    ),
    attachments: Type.Optional(
      Type.Union([Type.Array(Attachment, { maxItems: MAX_ATTACHMENTS }), Type.Null()], {
        description: `At most ${MAX_ATTACHMENTS} files. html, text and the decoded files together are at most 10 MiB (413 \`payload_too_large\` otherwise).`,
      }),
    ),
    tags: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        maxItems: 20,
        description: 'At most 20, each 1–100 characters, not blank, no control characters. Every event carries them.',
        examples: [['receipt']],
      }),
    ),
    metadata: Type.Optional(
      Type.Union(
        [
          StringMap(
            { minLength: 1, maxLength: MAX_METADATA_KEY },
            { maxLength: MAX_METADATA_VALUE },
            { maxProperties: MAX_METADATA_KEYS },
          ),
          Type.Null(),
        ],
        {
          description: `Your own string values (at most ${MAX_METADATA_KEYS} keys of 1–${MAX_METADATA_KEY} characters, values of at most ${MAX_METADATA_VALUE}); every event and webhook of the message carries them as \`metadata\`.`,
          examples: [{ order_id: '4711', customer: 'c_829' }],
        },
      ),
    ),
    send_at: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Integer({ minimum: 0 }), Type.Null()], {
        description:
          'Scheduled send: when to deliver, as an ISO 8601 date-time with an offset or Unix seconds; in the future and at most 30 days ahead (else 400 naming `send_at`). Until then the recipients are `scheduled`, and `POST /v1/messages/{id}/cancel` cancels it. Absent or null: at once.',
        examples: ['2026-12-01T09:00:00Z'],
      }),
    ),
    headers: Type.Optional(
      StringMap(
        { pattern: '^[\\x21-\\x39\\x3b-\\x7e]{1,76}$' },
        { maxLength: 2000 },
        {
          maxProperties: 50,
          description:
            'At most 50 custom headers, each name once (case-insensitively). Headers the service sets (From, To, Cc, Bcc, Reply-To, Subject, Date, Message-ID, Content-*, …) are refused: use the fields.',
          examples: [{ 'X-Order': '4711' }],
        },
      ),
    ),
    track_opens: Type.Optional(
      Type.Union([Type.Boolean(), Type.Null()], { description: "Overrides the domain's open tracking." }),
    ),
    track_clicks: Type.Optional(
      Type.Union([Type.Boolean(), Type.Null()], { description: "Overrides the domain's click tracking." }),
    ),
    unsubscribe: Type.Optional(
      Type.Union([Type.Boolean(), Type.Null()], {
        description: "Overrides the domain's List-Unsubscribe setting (RFC 8058).",
      }),
    ),
  },
  {
    additionalProperties: false,
    // A subject, or a template whose subject is rendered.
    anyOf: [{ required: ['subject'] }, { required: ['template'] }],
    title: 'SendRequest',
    examples: [
      {
        from: 'Acme Orders <orders@example.com>',
        to: ['ana@example.org'],
        cc: 'Accounts <accounts@example.org>',
        bcc: ['audit@example.com'],
        reply_to: 'help@example.com',
        subject: 'Your order 4711',
        html: '<p>Thanks for your order.</p><img src="cid:logo@acme" alt="Acme">',
        attachments: [
          { filename: 'invoice-4711.pdf', content: 'JVBERi0xLjcKJcfsj6IK' },
          { filename: 'logo.png', content: 'iVBORw0KGgo=', content_type: 'image/png', content_id: 'logo@acme' },
        ],
        tags: ['receipt'],
        metadata: { order_id: '4711' },
      },
    ],
  },
);

export const SendAccepted = Type.Object(
  {
    id: Type.String({
      pattern: '^msg_[0-9A-Z]{26}$',
      description: 'The message id every event of the message carries.',
      examples: ['msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H'],
    }),
    status: Type.Literal('queued'),
    dkim: Type.Literal('signed'),
    dmarc: Type.Literal('aligned'),
  },
  {
    additionalProperties: false,
    title: 'SendAccepted',
    examples: [{ id: 'msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H', status: 'queued', dkim: 'signed', dmarc: 'aligned' }],
  },
);

export const SendHeaders = Type.Object(
  {
    'idempotency-key': Type.Optional(
      Type.String({
        description:
          '1 to 255 printable ASCII characters; a retry with the same key and request gets the first answer again (docs/api.md, Idempotency).',
        examples: ['order-4711-receipt'],
      }),
    ),
  },
  { additionalProperties: true },
);
