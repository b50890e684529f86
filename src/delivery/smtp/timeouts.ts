/**
 * How long the SMTP client waits at each step, in milliseconds. The values default to the minimums
 * RFC 5321 §4.5.3.2 asks a client to wait; tests shorten them.
 */
export interface SmtpTimeouts {
  /** TCP connect (and A/AAAA lookup). RFC 5321 sets none; 30 s as Postfix's smtp_connect_timeout, so a dead MX soon yields to the next. */
  connect: number;
  /** The 220 greeting: 5 min (RFC 5321 §4.5.3.2.1). */
  greeting: number;
  /**
   * Any other command's reply: EHLO, STARTTLS, RSET, QUIT, and MAIL (5 min, RFC 5321 §4.5.3.2.2),
   * RCPT (5 min, §4.5.3.2.3) and DATA's 354 (2 min, §4.5.3.2.4). nodemailer cannot tell these apart,
   * so this one inactivity limit covers them all; the 5 min of MAIL and RCPT is the default.
   */
  command: number;
  /**
   * From the 354 until the reply to the final `.`: 10 min (RFC 5321 §4.5.3.2.6), because a server
   * may still be filtering the message and giving up early only makes it arrive twice. It is an
   * inactivity limit, so it also bounds a stalled data block (3 min, RFC 5321 §4.5.3.2.5) from
   * above.
   */
  dataTermination: number;
  /**
   * How long an unused pooled connection stays open. Servers may drop an idle client after 5 min
   * (RFC 5321 §4.5.3.2.7); closing ours well before that spares their connection slots.
   */
  idle: number;
}

/** RFC 5321 §4.5.3.2's minimums, with a 30 s connect limit and 30 s of idle pooling. */
export const DEFAULT_SMTP_TIMEOUTS: Readonly<SmtpTimeouts> = Object.freeze({
  connect: 30_000,
  greeting: 5 * 60_000,
  command: 5 * 60_000,
  dataTermination: 10 * 60_000,
  idle: 30_000,
});
