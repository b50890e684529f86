import { Type } from 'typebox';
import { DOMAIN_STATUSES } from '../../storage/database.js';
import { NullableTimestamp, Timestamp } from './common.js';

const DomainStatus = (description?: string) =>
  Type.Enum([...DOMAIN_STATUSES], description === undefined ? {} : { description });

/** A domain's rolling 30-day complaint rate (docs/inbound.md, Complaint rate). */
export const ComplaintRate = Type.Object(
  {
    complaints: Type.Integer({ minimum: 0, description: '`complained` events in the window' }),
    delivered: Type.Integer({ minimum: 0, description: '`delivered` events in the window' }),
    rate: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], {
      description: 'complaints / delivered; null when nothing was delivered in the window',
    }),
    threshold: Type.Number({ description: 'The limit of the acceptable use policy (0.001 = 0.1%)', examples: [0.001] }),
    warning_at: Type.Number({ description: 'A notice is raised above this rate', examples: [0.0008] }),
    window_days: Type.Integer({ description: 'The rolling window, in days', examples: [30] }),
    min_delivered: Type.Integer({
      description: 'Below this many deliveries in the window no notice is raised (the rate says little yet)',
      examples: [1000],
    }),
  },
  { additionalProperties: false, description: 'The rolling complaint rate: complaints over deliveries, 30 days' },
);

const RecordState = Type.Object(
  {
    purpose: Type.Enum(['spf', 'dkim', 'return_path', 'dmarc', 'dkim_ed25519', 'dkim_pending'], {
      description:
        'What the record is for. The four `spf`, `dkim`, `return_path`, `dmarc` decide verification; `dkim_ed25519` is listed while Ed25519 signing is on; `dkim_pending` while a DKIM rotation waits for its new record (signing moves to it once it is found).',
    }),
    type: Type.Enum(['TXT', 'CNAME']),
    name: Type.String({ description: 'Where to publish it', examples: ['ph202611._domainkey.mail.example.com'] }),
    value: Type.String({ description: 'What to publish', examples: ['v=DKIM1; k=rsa; p=MIIBIjANBg…'] }),
    status: Type.Union(
      [Type.Literal('ok'), Type.Literal('missing'), Type.Literal('mismatch'), Type.Literal('unknown')],
      {
        description:
          'What the last check saw: `ok`; `missing` (no record of its kind at the name); `mismatch` (a record is there but not this one); `unknown` (not checked yet, the resolver did not answer, or the record changed since)',
      },
    ),
    found: Type.Array(Type.String(), {
      description: 'The values the last check found at the name (empty when none or not checked)',
    }),
  },
  { additionalProperties: false },
);

const RecordStatusEnum = Type.Union(
  [Type.Literal('ok'), Type.Literal('missing'), Type.Literal('mismatch'), Type.Literal('unknown')],
  { description: 'What the last check saw, as for `records`' },
);

/** The DKIM keys through a rotation (docs/delivery.md). */
const DkimState = Type.Object(
  {
    selector: Type.String({ description: 'The selector mail is signed with now', examples: ['ph202611'] }),
    key_created_at: Type.String({ format: 'date-time', description: 'When the signing key began to sign' }),
    rotate_days: Type.Union([Type.Integer({ minimum: 0, maximum: 3650 }), Type.Null()], {
      description:
        "The domain's own rotation period in days (0: never on schedule); null follows the server's POSTHORN_DKIM_ROTATE_DAYS",
    }),
    next_rotation_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the schedule starts the next rotation; null when it never will, or one is pending',
    }),
    pending: Type.Union(
      [
        Type.Object(
          {
            selector: Type.String({ examples: ['ph20261126'] }),
            type: Type.Literal('TXT'),
            name: Type.String({
              description: 'Where to publish it',
              examples: ['ph20261126._domainkey.mail.example.com'],
            }),
            value: Type.String({ description: 'What to publish', examples: ['v=DKIM1; k=rsa; p=MIIBIjANBg…'] }),
            status: RecordStatusEnum,
            found: Type.Array(Type.String()),
            problem: Type.Union([Type.String(), Type.Null()], {
              description: 'What the last check found wrong; null before the first check',
            }),
            since: Type.String({ format: 'date-time', description: 'When the rotation started' }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      {
        description:
          'A rotation waiting for its new record: mail is signed with `selector` until the record is found in DNS, then with this one',
      },
    ),
    retired: Type.Union(
      [
        Type.Object(
          {
            selector: Type.String({ examples: ['ph202605'] }),
            type: Type.Literal('TXT'),
            name: Type.String(),
            value: Type.String(),
            remove_after: Type.String({
              format: 'date-time',
              description:
                'Keep the record published until then (mail signed before the switch may still be checked); remove it after',
            }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'The selector signing left at the last rotation' },
    ),
  },
  { additionalProperties: false, description: 'The DKIM signing key, and a rotation in progress' },
);

/** The domain object of the management API (docs/api.md, Management API); a shared component. */
export const Domain = Type.Object(
  {
    name: Type.String({ examples: ['mail.example.com'] }),
    status: DomainStatus(
      '`pending` (never verified), `verified`, `warning` (verified, a record stopped matching; sending continues during the grace period), `unverified` (sends are refused with 403)',
    ),
    created_at: Timestamp,
    verified_at: NullableTimestamp,
    last_checked_at: Type.Union([Timestamp, Type.Null()], {
      description: 'When the records were last checked (POST …/verify, or the daily re-check)',
    }),
    records: Type.Array(RecordState, { description: 'The DNS records to publish, with their status' }),
    tracking: Type.Object(
      {
        opens: Type.Boolean({ description: 'Open tracking pixel' }),
        clicks: Type.Boolean({ description: 'Click tracking (links rewritten)' }),
        unsubscribe: Type.Boolean({ description: 'List-Unsubscribe and one-click unsubscribe headers (RFC 8058)' }),
      },
      {
        additionalProperties: false,
        description: "Defaults for this domain's messages; each message may override them",
      },
    ),
    ed25519: Type.Boolean({
      description: 'Messages are also signed with Ed25519 (RFC 8463); its record is then among `records`',
    }),
    dkim: DkimState,
    sandbox: Type.Boolean({
      description:
        'The sandbox domain (sandbox mode only): verified without DNS; its mail is kept in the sandbox mailbox, never sent',
    }),
    complaint_rate: ComplaintRate,
    month: Type.Object(
      {
        accepted: Type.Integer({
          minimum: 0,
          description: 'Recipients the account had accepted this calendar month (UTC), across all its domains',
        }),
        quota: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], {
          description: "The account's monthly quota; null is unlimited",
        }),
        domain_accepted: Type.Integer({
          minimum: 0,
          description: 'Recipients this domain had accepted this calendar month (UTC): its share of `accepted`',
        }),
      },
      { additionalProperties: false, description: 'The account’s month against its quota (the quota is account-wide)' },
    ),
  },
  { $id: 'Domain', title: 'Domain', additionalProperties: false, description: 'A sending domain' },
);

export const DomainList = Type.Object(
  { domains: Type.Array(Type.Ref('Domain')) },
  { additionalProperties: false, description: "The account's domains, by name" },
);

export const AddDomainBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 253,
      description: 'The domain to send from, e.g. `mail.example.com` (a subdomain keeps its DNS apart)',
      examples: ['mail.example.com'],
    }),
  },
  { additionalProperties: false },
);

export const UpdateDomainBody = Type.Object(
  {
    tracking: Type.Optional(
      Type.Object(
        {
          opens: Type.Optional(Type.Boolean()),
          clicks: Type.Optional(Type.Boolean()),
          unsubscribe: Type.Optional(Type.Boolean()),
        },
        { additionalProperties: false, description: 'Any of the three tracking defaults' },
      ),
    ),
    ed25519: Type.Optional(
      Type.Boolean({ description: 'On: a new Ed25519 key and record (publish it); off: the key is dropped' }),
    ),
    dkim: Type.Optional(
      Type.Object(
        {
          rotate_days: Type.Union([Type.Integer({ minimum: 0, maximum: 3650 }), Type.Null()], {
            description:
              "Rotate this domain's DKIM key once it is this many days old; 0 never; null follows the server's POSTHORN_DKIM_ROTATE_DAYS",
          }),
        },
        { additionalProperties: false, description: 'The DKIM rotation schedule' },
      ),
    ),
  },
  { additionalProperties: false, examples: [{ tracking: { opens: true, clicks: true }, ed25519: true }] },
);

/** GET /v1/domain: the sending key's own domain. */
export const OwnDomain = Type.Object(
  {
    domain: Type.String({ examples: ['mail.example.com'] }),
    status: DomainStatus(),
    verified_at: NullableTimestamp,
    complaint_rate: ComplaintRate,
  },
  { additionalProperties: false, description: "The key's sending domain" },
);
