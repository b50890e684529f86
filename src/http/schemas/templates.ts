import { Type } from 'typebox';
import { Timestamp } from './common.js';

const NAME_PATTERN = '^[a-z0-9][a-z0-9-_]{0,63}$';

/** `{name}` in a path: the template's slug name. */
export const TemplateParams = Type.Object(
  {
    name: Type.String({
      pattern: NAME_PATTERN,
      description: 'The template name: a slug, unique in the account',
      examples: ['welcome'],
    }),
  },
  { additionalProperties: false },
);

const Subject = Type.String({
  minLength: 1,
  maxLength: 2000,
  description:
    'The subject line, a template: variables are written as they are, with any line break or control character turned into a space.',
  examples: ['Welcome to Acme, {{user.first_name}}!'],
});
const Html = Type.Union([Type.String({ maxLength: 1024 * 1024 }), Type.Null()], {
  description: 'The HTML part, a template: `{{value}}` is HTML-escaped, `{{{value}}}` is written as it is.',
  examples: [
    '<p>Hello {{user.first_name}},</p>{{#if trial}}<p>Your trial ends {{date trial.ends_at "D MMMM"}}.</p>{{/if}}',
  ],
});
const Text = Type.Union([Type.String({ maxLength: 1024 * 1024 }), Type.Null()], {
  description: 'The plain-text part, a template: values are written as they are.',
  examples: ['Hello {{user.first_name}},'],
});

export const CreateTemplateBody = Type.Object(
  {
    name: Type.String({ pattern: NAME_PATTERN, description: 'A slug, unique in the account', examples: ['welcome'] }),
    subject: Subject,
    html: Type.Optional(Html),
    text: Type.Optional(Text),
  },
  { additionalProperties: false, description: 'At least one of html and text.' },
);

export const UpdateTemplateBody = Type.Object(
  { subject: Subject, html: Type.Optional(Html), text: Type.Optional(Text) },
  {
    additionalProperties: false,
    description: 'The whole new version: a part left out is not in it. At least one of html and text.',
  },
);

export const TemplateVersionView = Type.Object(
  {
    id: Type.String({ examples: ['tmpl_01JDQ8Y4X3R9G6M2A7B5C8D0EF'] }),
    name: Type.String({ examples: ['welcome'] }),
    version: Type.Integer({ minimum: 1, description: 'This version', examples: [2] }),
    latest_version: Type.Integer({ minimum: 1, description: 'The newest version, what a send without `version` uses' }),
    subject: Type.String(),
    html: Type.Union([Type.String(), Type.Null()]),
    text: Type.Union([Type.String(), Type.Null()]),
    variables: Type.Array(Type.String(), {
      description:
        'The variable paths this version uses, sorted; `[]` marks an element of an `#each` list. A path used outside an `#if`, `#unless` or `#each` must be given to send.',
      examples: [['items', 'items[].name', 'items[].price', 'user.first_name']],
    }),
    created_at: Timestamp,
    updated_at: { ...Timestamp, description: 'When the newest version was made' },
  },
  { additionalProperties: false, description: 'One version of a template.' },
);

export const TemplateSummary = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    version: Type.Integer({ minimum: 1, description: 'The newest version' }),
    updated_at: Timestamp,
  },
  { additionalProperties: false },
);

export const TemplateList = Type.Object(
  { templates: Type.Array(TemplateSummary, { description: 'By name' }) },
  { additionalProperties: false },
);

export const TemplateVersionQuery = Type.Object(
  { version: Type.Optional(Type.Integer({ minimum: 1, description: 'A version; the newest when left out' })) },
  { additionalProperties: false },
);

export const TemplateVersionList = Type.Object(
  {
    versions: Type.Array(
      Type.Object({ version: Type.Integer({ minimum: 1 }), created_at: Timestamp }, { additionalProperties: false }),
      { description: 'Newest first' },
    ),
  },
  { additionalProperties: false },
);

export const RenderTemplateBody = Type.Object(
  {
    variables: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'The values the template uses, as a send would give them (at most 256 KiB as JSON).',
        examples: [{ user: { first_name: 'Ada' }, trial: { ends_at: '2026-12-09' } }],
      }),
    ),
    version: Type.Optional(Type.Integer({ minimum: 1, description: 'A version; the newest when left out' })),
  },
  { additionalProperties: false },
);

export const RenderedTemplate = Type.Object(
  {
    subject: Type.String(),
    html: Type.Union([Type.String(), Type.Null()], { description: 'Null when the template has no html part' }),
    text: Type.Union([Type.String(), Type.Null()], { description: 'Null when the template has no text part' }),
  },
  { additionalProperties: false },
);
