// smtp-server exports its connection class under ./lib/smtp-connection.js without typings;
// src/smtp-server/enhanced-replies.ts needs only its prototype.
declare module 'smtp-server/lib/smtp-connection.js' {
  export const SMTPConnection: { prototype: object };
}
