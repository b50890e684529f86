import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSmtpReply } from '../../../src/core/smtp-reply.js';
import { REASON_INFO } from '../../../src/core/bounce-reason.js';
import { classifyReply } from '../../../src/delivery/classify-reply.js';
import { parseReport } from '../../../src/feedback/parse-report.js';

/** Replies that must read the same live (at RCPT or after DATA) and quoted in a DSN's Diagnostic-Code. */
const REPLIES = [
  '550 5.1.1 <u@example.org>: Recipient address rejected: User unknown in local recipient table',
  '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup',
  '553 5.1.2 We were not able to find the recipient domain.',
  '550 5.2.1 The email account that you tried to reach is disabled.',
  '552 5.2.2 The email account that you tried to reach is over quota.',
  '552 5.3.4 Message size exceeds fixed limit',
  '554 5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org',
  '550 5.7.26 This mail is unauthenticated, which poses a security risk to the sender.',
  '550 5.2.1 The user you are trying to contact is receiving mail at a rate that prevents additional messages from being delivered.',
  '553 5.1.8 <bounce@example.com>: Sender address rejected: Domain not found',
  '550 Requested action not taken: mailbox unavailable',
  '550 Host does not accept mail',
  '554 5.4.14 Hop count exceeded - possible mail loop',
  '550 5.4.4 Host or domain name not found. Name service error for name=example.invalid type=A: Host not found',
  "554 delivery error: dd This user doesn't have a yahoo.com account",
];

function dsn(reply: string): Buffer {
  const status = /\b5\.\d{1,3}\.\d{1,3}\b/.exec(reply)?.[0] ?? '5.0.0';
  return Buffer.from(
    [
      'From: MAILER-DAEMON@mx.example.net',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
      '',
      '--b',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.example.net',
      '',
      'Final-Recipient: rfc822; u@example.org',
      'Action: failed',
      `Status: ${status}`,
      `Diagnostic-Code: smtp; ${reply}`,
      '--b--',
      '',
    ].join('\r\n'),
  );
}

test('the live-reply table and the DSN reading give the same class, reason and suppression', async () => {
  for (const reply of REPLIES) {
    const live = classifyReply(parseSmtpReply(reply));
    const report = (await parseReport(dsn(reply))).recipients[0];
    assert.ok(report, reply);
    assert.equal(report.class, live.bounceClass, reply);
    assert.equal(report.reason, live.reason, reply);
    // Suppression follows the class on both sides, and the reason table agrees with it.
    assert.equal(live.suppress, live.bounceClass === 'hard', reply);
    if (live.reason) assert.equal(REASON_INFO[live.reason].suppress && live.outcome === 'failed', live.suppress, reply);
  }
});

test('a 4xx never suppresses, live or reported as delayed', async () => {
  for (const reply of ['450 4.1.1 User unknown', '452 4.2.2 Over quota', '421 4.7.0 Try again later']) {
    const live = classifyReply(parseSmtpReply(reply));
    assert.equal(live.suppress, false, reply);
    const raw = dsn(reply)
      .toString()
      .replace('Action: failed', 'Action: delayed')
      .replace(/Status: [\d.]+/, 'Status: 4.0.0');
    const report = (await parseReport(Buffer.from(raw))).recipients[0];
    assert.ok(report && report.class !== 'hard', reply);
  }
});
