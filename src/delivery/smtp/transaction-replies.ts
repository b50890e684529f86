import type SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';
import { parseSmtpReply, type SmtpReply } from '../../core/smtp-reply.js';
import type { RecipientReply } from '../transport.js';

type SmtpError = SMTPConnection.SMTPError & { recipient?: string };

/**
 * The envelope object handed to `SMTPConnection.send()`: nodemailer writes the RCPT results into
 * it as the transaction runs (`accepted`, `rejected`, `rejectedErrors` with each refusal's reply),
 * and its error for a failed DATA carries only the DATA reply, so these are read from here.
 */
export interface LiveEnvelope extends SMTPConnection.Envelope {
  accepted?: string[];
  rejectedErrors?: SmtpError[];
}

/** Each recipient's reply, or why the session was lost before the server answered the end of DATA. */
export type SendResult = { kind: 'replies'; recipients: RecipientReply[] } | { kind: 'lost'; error: string };

/**
 * Turns the outcome of nodemailer's `send()` into one reply per recipient, in the order given:
 * a refused RCPT keeps its own reply (RFC 5321 §3.3), the others get the reply to the end of DATA,
 * or to DATA itself when that was refused; a refused MAIL FROM answers for everyone.
 */
export function transactionReplies(
  recipients: string[],
  envelope: LiveEnvelope,
  err: SmtpError | null,
  info: SMTPConnection.SentMessageInfo | undefined,
): SendResult {
  if (err === null && info !== undefined)
    return { kind: 'replies', recipients: withRcptReplies(recipients, envelope, parseSmtpReply(info.response)) };
  if (err === null) return { kind: 'lost', error: 'nodemailer reported neither a result nor an error' };
  if (typeof err.response !== 'string') {
    // nodemailer refuses on its own, before MAIL FROM, a message over the SIZE the server announced.
    if (err.code === 'EMESSAGE' && err.command === 'MAIL FROM')
      return everyone(recipients, localReply(552, '5.3.4', `${err.message} (RFC 1870 §6.1)`));
    return { kind: 'lost', error: describeError(err) };
  }
  const reply = parseSmtpReply(err.response);
  switch (err.command) {
    case 'MAIL FROM':
      return everyone(recipients, reply);
    case 'RCPT TO': // every RCPT refused, so DATA was never sent
    case 'DATA': // DATA or the end of DATA refused
      return { kind: 'replies', recipients: withRcptReplies(recipients, envelope, reply) };
    default:
      return { kind: 'lost', error: describeError(err) };
  }
}

function withRcptReplies(recipients: string[], envelope: LiveEnvelope, otherwise: SmtpReply): RecipientReply[] {
  const refused = new Map<string, SmtpReply>();
  for (const e of envelope.rejectedErrors ?? []) {
    if (e.recipient !== undefined && typeof e.response === 'string')
      refused.set(e.recipient, parseSmtpReply(e.response));
  }
  return recipients.map((address) => ({ address, reply: refused.get(address) ?? otherwise }));
}

/** A reply Posthorn makes up for a refusal that never reached the server (e.g. SIZE), marked as local. */
function localReply(code: number, enhanced: string, text: string): SmtpReply {
  return parseSmtpReply(`${code} ${enhanced} ${text} (generated locally by Posthorn, not sent)`);
}

function everyone(recipients: string[], reply: SmtpReply): SendResult {
  return { kind: 'replies', recipients: recipients.map((address) => ({ address, reply })) };
}

/** One line for events and logs: nodemailer's message, with its error code when it has one. */
export function describeError(err: Error & { code?: string }): string {
  return err.code !== undefined && !err.message.includes(err.code) ? `${err.code}: ${err.message}` : err.message;
}
