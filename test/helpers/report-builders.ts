import type { Deps } from '../../src/deps.js';
import type { Seeded } from './seed.js';

/** One recipient block of a DSN (RFC 3464 §2.3). */
export interface DsnRecipient {
  address: string;
  action: string;
  status: string;
  diagnostic?: string;
}

/**
 * A DSN as a receiving MTA sends it (RFC 3464 §2, RFC 6522 multipart/report): addressed to `to`
 * (the return path), a text part, the delivery-status part, and the original's headers carrying
 * `messageId` when given.
 */
export function buildDsn(opts: {
  to: string;
  recipients: DsnRecipient[];
  messageId?: string;
  returnPath?: string;
}): Buffer {
  const blocks = opts.recipients.flatMap((r) => [
    '',
    `Final-Recipient: rfc822; ${r.address}`,
    `Action: ${r.action}`,
    `Status: ${r.status}`,
    ...(r.diagnostic ? [`Diagnostic-Code: smtp; ${r.diagnostic}`] : []),
  ]);
  return Buffer.from(
    [
      'From: MAILER-DAEMON@mx.example.org (Mail Delivery System)',
      `To: <${opts.to}>`,
      'Subject: Undelivered Mail Returned to Sender',
      'Date: Sat, 21 Nov 2026 12:00:05 +0000',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="dsn-b"',
      '',
      '--dsn-b',
      'Content-Type: text/plain; charset=us-ascii',
      '',
      'This is the mail system at host mx.example.org. Your message could not be delivered.',
      '',
      '--dsn-b',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.example.org',
      'Arrival-Date: Sat, 21 Nov 2026 12:00:01 +0000',
      ...blocks,
      '',
      '--dsn-b',
      'Content-Type: text/rfc822-headers',
      '',
      ...(opts.returnPath ? [`Return-Path: <${opts.returnPath}>`] : []),
      'From: Acme <hello@acme.test>',
      `To: ${opts.recipients[0]?.address ?? 'someone@example.org'}`,
      'Subject: Your receipt',
      ...(opts.messageId ? [`Message-ID: ${opts.messageId}`] : []),
      '',
      '--dsn-b--',
      '',
    ].join('\r\n'),
  );
}

/**
 * An ARF complaint (RFC 5965 §2) as a feedback loop sends it to the complaint address: Original-Mail-From
 * (the return path, when given), Original-Rcpt-To (when given, else redacted as many providers do),
 * and the reported message's headers with `messageId`.
 */
export function buildArf(opts: {
  to: string;
  originalMailFrom?: string;
  rcptTo?: string;
  messageId?: string;
  feedbackType?: string;
}): Buffer {
  return Buffer.from(
    [
      'From: Feedback Loop <fbl@isp.example.net>',
      `To: <${opts.to}>`,
      'Subject: Abuse report',
      'Date: Sat, 21 Nov 2026 12:30:00 +0000',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=feedback-report; boundary="arf-b"',
      '',
      '--arf-b',
      'Content-Type: text/plain; charset=us-ascii',
      '',
      'This is an email abuse report.',
      '',
      '--arf-b',
      'Content-Type: message/feedback-report',
      '',
      `Feedback-Type: ${opts.feedbackType ?? 'abuse'}`,
      'User-Agent: ExampleFBL/1.0',
      'Version: 1',
      ...(opts.originalMailFrom ? [`Original-Mail-From: <${opts.originalMailFrom}>`] : []),
      ...(opts.rcptTo ? [`Original-Rcpt-To: <${opts.rcptTo}>`] : []),
      '',
      '--arf-b',
      'Content-Type: text/rfc822-headers',
      '',
      'From: Acme <hello@acme.test>',
      'To: redacted@isp.example.net',
      'Subject: Your receipt',
      ...(opts.messageId ? [`Message-ID: ${opts.messageId}`] : []),
      '',
      '--arf-b--',
      '',
    ].join('\r\n'),
  );
}

/** A sent message as the tests need it: ids, Message-ID and per-address recipient ids. */
export interface SentMessage {
  id: string;
  messageId: string;
  recipients: Map<string, string>;
}

/**
 * Inserts a message that was delivered to `to` (message row, recipients with status delivered,
 * `delivered` events at `at`), as the delivery engine would leave it.
 */
export async function insertDelivered(
  deps: Pick<Deps, 'db' | 'ids' | 'clock' | 'config'>,
  sender: Seeded,
  to: string[],
  opts: { at?: number; tags?: string[] } = {},
): Promise<SentMessage> {
  const now = opts.at ?? deps.clock.now();
  const id = deps.ids.next('msg', now);
  const from = `hello@${sender.domain}`;
  await deps.db
    .insertInto('messages')
    .values({
      id,
      account_id: sender.accountId,
      domain_id: sender.domainId,
      from_address: from,
      subject: 'Your receipt',
      tags: JSON.stringify(opts.tags ?? ['receipt']),
      metadata: '{}',
      content: null,
      mime: null,
      size: 100,
      created_at: now,
      track_opens: 0,
      track_clicks: 0,
      unsubscribe: 0,
    })
    .execute();
  const recipients = new Map<string, string>();
  for (const address of to) {
    const rid = deps.ids.next('rcp', now);
    recipients.set(address, rid);
    await deps.db
      .insertInto('recipients')
      .values({
        id: rid,
        message_id: id,
        address,
        domain: address.split('@')[1]!.toLowerCase(),
        status: 'delivered',
        updated_at: now,
      })
      .execute();
    await deps.db
      .insertInto('events')
      .values({
        id: deps.ids.next('evt', now),
        account_id: sender.accountId,
        domain_id: sender.domainId,
        message_id: id,
        event: 'delivered',
        recipient: address,
        from_address: from,
        subject: 'Your receipt',
        tags: JSON.stringify(opts.tags ?? ['receipt']),
        details: '{}',
        occurred_at: now,
      })
      .execute();
  }
  return { id, messageId: `<${id}@${deps.config.hostname}>`, recipients };
}
