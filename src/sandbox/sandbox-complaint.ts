/** What the sandbox's `complain@` recipient reports about. */
export interface SandboxComplaintInput {
  /** The message as the sandbox received it (signed), whose header section is attached. */
  original: Buffer;
  /** The envelope sender it was delivered with: Posthorn's signed return path. */
  envelopeFrom: string;
  /** The complaining recipient. */
  recipient: string;
  /** Where mailbox providers send complaints (config.complaintAddress). */
  complaintAddress: string;
  now: number;
}

/**
 * Builds the complaint a mailbox provider's feedback loop would send for one sandbox recipient:
 * an ARF report (RFC 5965 §2: multipart/report; report-type=feedback-report, a human-readable
 * part, a message/feedback-report part, then the reported message's header section as
 * text/rfc822-headers, which RFC 5965 §2 item d allows in place of the whole message). The inbound path
 * then parses and matches it exactly as it would a real provider's report.
 */
export function buildSandboxComplaint(input: SandboxComplaintInput): Buffer {
  const text = input.original.toString('latin1');
  const end = text.search(/\r?\n\r?\n/);
  const headerSection = (end === -1 ? text : text.slice(0, end)).replace(/\r?\n/g, '\r\n');
  const date = new Date(input.now).toUTCString().replace('GMT', '+0000');
  const boundary = `sandbox-arf-${input.now.toString(36)}`;
  const lines = [
    'From: Sandbox Feedback Loop <fbl@sandbox.posthorn.test>',
    `To: <${input.complaintAddress}>`,
    'Subject: Complaint about a message (sandbox)',
    `Date: ${date}`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=feedback-report; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=us-ascii',
    '',
    `The recipient ${input.recipient} marked this message as spam (Posthorn sandbox, complain@ address).`,
    '',
    `--${boundary}`,
    'Content-Type: message/feedback-report',
    '',
    'Feedback-Type: abuse',
    'User-Agent: Posthorn-Sandbox-FBL/1.0',
    'Version: 1',
    `Original-Mail-From: <${input.envelopeFrom}>`,
    `Original-Rcpt-To: <${input.recipient}>`,
    `Arrival-Date: ${date}`,
    '',
    `--${boundary}`,
    'Content-Type: text/rfc822-headers',
    '',
    headerSection,
    '',
    `--${boundary}--`,
    '',
  ];
  return Buffer.from(lines.join('\r\n'), 'latin1');
}
