import { replyText } from './enhanced-replies.js';

/**
 * A reply an smtp-server callback sends: smtp-server writes `responseCode` and the error's message
 * as the reply line.
 */
export type SmtpReplyError = Error & { responseCode: number };

/** A refusal, `<code> <enhanced> <message>`, for the relay and the inbound MX alike (RFC 3463 codes). */
export function smtpError(code: number, enhanced: string, message: string): SmtpReplyError {
  return Object.assign(new Error(replyText(enhanced, message)), { responseCode: code });
}

/** What one session counts: the refusals it has had. */
export interface RefusalCount {
  errors: number;
}

/**
 * Counts one refusal of a session and gives the reply to send: the refusal itself, or, once the
 * session has had more than `max`, `421 4.7.0` (RFC 5321 §4.2.3: closing the channel), after which
 * smtp-server closes the connection, so a client cannot probe addresses or hold a slot with endless bad commands.
 * A session with no count (`undefined`) is not counted.
 */
export function countRefusal(count: RefusalCount | undefined, max: number, err: SmtpReplyError): SmtpReplyError {
  if (count !== undefined && ++count.errors > max)
    return smtpError(421, '4.7.0', 'Too many errors in this session; closing.');
  return err;
}
