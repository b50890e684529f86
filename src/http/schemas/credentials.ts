import { Type } from 'typebox';
import { DomainParams, Timestamp } from './common.js';

export const CreatedApiKey = Type.Object(
  {
    key: Type.String({
      description: 'The key, shown this once: send it as `Authorization: Bearer <key>`',
      examples: ['ph_1a2b3c4d_Q2hhbmdlIG1lISBUaGlzIGlzIG5vdCBhIHJlYWwga2V5Lg'],
    }),
    prefix: Type.String({ description: 'Its public part, to tell keys apart', examples: ['ph_1a2b3c4d'] }),
    created_at: Timestamp,
  },
  { additionalProperties: false, description: 'The new key; any earlier key of the domain gets 401 from now on' },
);

export const ApiKeyInfo = Type.Object(
  {
    prefix: Type.String({ examples: ['ph_1a2b3c4d'] }),
    created_at: Timestamp,
    last_used_at: Type.Union([Timestamp, Type.Null()], {
      description: 'The last request made with it, to the minute; null when never used',
    }),
  },
  { additionalProperties: false, description: "The domain's active key (never the key itself)" },
);

export const SmtpCredentialList = Type.Object(
  {
    credentials: Type.Array(
      Type.Object(
        {
          username: Type.String({ examples: ['ph_smtp_0123456789ab'] }),
          created_at: Timestamp,
          last_used_at: Type.Union([Timestamp, Type.Null()], {
            description: 'The last successful AUTH with it, to the minute; null when never used',
          }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, description: "The domain's active SMTP logins, oldest first (never a password)" },
);

export const CreatedSmtpCredential = Type.Object(
  {
    username: Type.String({ examples: ['ph_smtp_0123456789ab'] }),
    password: Type.String({
      description: 'Shown this once; only its hash is kept',
      examples: ['phs_VGhpcyBpcyBub3QgYSByZWFsIHBhc3N3b3JkLCBqdXN0IGFu'],
    }),
    host: Type.String({ description: 'The relay host (POSTHORN_HOSTNAME)', examples: ['smtp.example.net'] }),
    port: Type.Integer({
      description: 'The submission port, STARTTLS (POSTHORN_SMTP_PORT); implicit TLS is on POSTHORN_SMTPS_PORT',
      examples: [587],
    }),
  },
  { additionalProperties: false, description: 'The new SMTP login' },
);

export const SmtpCredentialParams = Type.Object(
  {
    ...DomainParams.properties,
    username: Type.String({ minLength: 1, maxLength: 64, examples: ['ph_smtp_0123456789ab'] }),
  },
  { additionalProperties: false },
);
