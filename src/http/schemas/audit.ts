import { Type } from 'typebox';
import { NextCursor, PageQuery, Timestamp } from './common.js';

export const AuditQuery = Type.Object(PageQuery, { additionalProperties: false });

export const AuditEntry = Type.Object(
  {
    at: Timestamp,
    actor: Type.String({ description: '`token:<name>`, `user:<email>` or `cli`', examples: ['token:deploy-bot'] }),
    action: Type.String({ description: '`<noun>.<verb>`', examples: ['domain.add'] }),
    target: Type.String({ description: 'What changed; never a secret', examples: ['mail.example.com'] }),
    ip: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);

export const AuditPage = Type.Object(
  { entries: Type.Array(AuditEntry), next_cursor: NextCursor },
  { additionalProperties: false },
);
