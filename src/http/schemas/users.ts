import { Type } from 'typebox';
import { NextCursor, NullableTimestamp, PageQuery, Timestamp } from './common.js';

const Role = Type.Union([Type.Literal('admin'), Type.Literal('viewer')], {
  description: '`admin` may do everything; `viewer` only reads and never sees a secret.',
  examples: ['admin'],
});
const Email = Type.String({
  minLength: 3,
  maxLength: 254,
  description: 'The sign-in email',
  examples: ['ada@example.com'],
});

export const SignInBody = Type.Object(
  {
    email: Email,
    password: Type.String({
      minLength: 1,
      maxLength: 1024,
      description: 'The password',
      examples: ['correct horse battery'],
    }),
    totp: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          'The current 6-digit code of the authenticator app, or an unused recovery code, when the user has two-factor sign-in on.',
        examples: ['123456'],
      }),
    ),
  },
  { additionalProperties: false },
);

export const SessionView = Type.Object(
  {
    kind: Type.Union([Type.Literal('session'), Type.Literal('token')], {
      description:
        'How the caller is signed in: `session`, a dashboard user (the session cookie); `token`, an account token sent as `Authorization: Bearer` (`GET /v1/session` only).',
      examples: ['session'],
    }),
    email: Type.Union([Email, Type.Null()], { description: "The signed-in user's email; null for an account token" }),
    token_name: Type.Union([Type.String(), Type.Null()], {
      description: "The account token's name; null for a session",
      examples: [null],
    }),
    role: Role,
    account: Type.String({ description: 'The account the user or token belongs to', examples: ['acme'] }),
    totp_enabled: Type.Boolean({ description: 'Whether two-factor sign-in is on (always false for an account token)' }),
    sandbox: Type.Boolean({
      description: 'The server runs in sandbox mode: mail is kept in the sandbox mailbox (`GET /v1/sandbox/messages`)',
    }),
    csrf_token: Type.Union([Type.String(), Type.Null()], {
      description:
        'Send it back in the `X-CSRF-Token` header on every request of the session that changes something; null for an account token, whose requests need none.',
      examples: ['kq3Vx0o2cJ8m1mE9VgXx0b1S1h0oQ1cS5m9b8PZ6eF4'],
    }),
  },
  { additionalProperties: false },
);

export const TotpEnrolment = Type.Object(
  {
    uri: Type.String({
      description: 'The `otpauth://totp/…` URI for the authenticator app',
      examples: [
        'otpauth://totp/Posthorn:ada%40example.com?issuer=Posthorn&secret=JBSWY3DPEHPK3PXP&algorithm=SHA1&digits=6&period=30',
      ],
    }),
    secret: Type.String({
      description: 'The base32 secret, for typing into an app by hand',
      examples: ['JBSWY3DPEHPK3PXP'],
    }),
    qr_code: Type.String({ description: 'The URI as a QR code: an SVG `data:` URL for an `<img>`' }),
  },
  { additionalProperties: false },
);

export const TotpCode = Type.Object(
  {
    code: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The current 6-digit code (or, to turn TOTP off, a recovery code)',
      examples: ['123456'],
    }),
  },
  { additionalProperties: false },
);

export const RecoveryCodes = Type.Object(
  {
    recovery_codes: Type.Array(Type.String({ examples: ['k3m9p-x2q7r'] }), {
      description: 'Ten single-use codes that stand in for a 6-digit code; shown only this once.',
    }),
  },
  { additionalProperties: false },
);

export const User = Type.Object(
  {
    email: Email,
    role: Role,
    account: Type.String({ examples: ['acme'] }),
    totp_enabled: Type.Boolean(),
    created_at: Timestamp,
    last_sign_in_at: NullableTimestamp,
  },
  { additionalProperties: false },
);

export const UserList = Type.Object(
  { users: Type.Array(User), next_cursor: NextCursor },
  { additionalProperties: false },
);

export const UsersQuery = Type.Object(PageQuery, { additionalProperties: false });

export const CreateUserBody = Type.Object(
  {
    email: Email,
    role: Type.Optional(Role),
    password: Type.Optional(
      Type.String({
        maxLength: 1024,
        description: 'At least 12 characters and not a common password; generated (and returned once) when left out.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CreatedUser = Type.Object(
  {
    ...User.properties,
    password: Type.Optional(Type.String({ description: 'The generated password, shown only this once' })),
  },
  { additionalProperties: false },
);

export const UserParams = Type.Object(
  {
    email: Type.String({
      minLength: 1,
      maxLength: 254,
      description: "The user's email",
      examples: ['ada@example.com'],
    }),
  },
  { additionalProperties: false },
);

export const Token = Type.Object(
  {
    name: Type.String({ examples: ['deploy-bot'] }),
    role: Role,
    prefix: Type.String({ description: 'The public part of the token, `pha_<8 hex>`', examples: ['pha_1a2b3c4d'] }),
    created_at: Timestamp,
    last_used_at: NullableTimestamp,
  },
  { additionalProperties: false },
);

export const TokenList = Type.Object(
  { tokens: Type.Array(Token), next_cursor: NextCursor },
  { additionalProperties: false },
);

export const TokensQuery = Type.Object(PageQuery, { additionalProperties: false });

export const CreateTokenBody = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'A label, unique among the live tokens',
        examples: ['deploy-bot'],
      }),
    ),
    role: Type.Optional(Role),
  },
  { additionalProperties: false },
);

export const CreatedToken = Type.Object(
  {
    ...Token.properties,
    token: Type.String({ description: 'The token, shown only this once', examples: ['pha_1a2b3c4d_…'] }),
  },
  { additionalProperties: false },
);

export const TokenParams = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The token name or prefix',
      examples: ['deploy-bot'],
    }),
  },
  { additionalProperties: false },
);
