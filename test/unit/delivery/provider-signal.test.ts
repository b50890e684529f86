import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSmtpReply } from '../../../src/core/smtp-reply.js';
import { providerSignal, retryAfterOf, sessionRefusal, SIGNAL_RULES } from '../../../src/delivery/provider-signal.js';

const signal = (raw: string) => providerSignal(parseSmtpReply(raw))?.kind ?? null;

test('throttling replies: 421, transient 4.7.x (not greylisting), pace wording', () => {
  const throttles = [
    '421 4.7.0 Try again later, closing connection.',
    '421-4.7.28 Our system has detected an unusual rate of unsolicited mail originating from your IP address.',
    '421 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred due to unexpected volume or user complaints',
    '451 4.7.650 The mail server [192.0.2.1] has been temporarily rate limited due to IP reputation.',
    '451 4.7.1 Rate limited, try again in 5 seconds',
    '421 Service not available',
    '450 4.2.0 Too many concurrent SMTP connections from this IP address',
  ];
  for (const raw of throttles) assert.equal(signal(raw), 'throttle', raw);
});

test('reputation blocks of the sending IP: 5.7.x or no code, with blocklist or reputation wording', () => {
  const blocks = [
    '550 5.7.1 blocked',
    '550 5.7.1 Service unavailable; client host [192.0.2.1] blocked using zen.spamhaus.org',
    "550 5.7.1 Unfortunately, messages from [192.0.2.1] weren't sent. Please contact your Internet service provider since part of their network is on our block list (S3150).",
    "554 5.7.1 [BL21] Connections will not be accepted from 192.0.2.1, because the ip is in Spamhaus's list",
    '550 5.7.1 Your IP 192.0.2.1 is listed in bl.spamcop.net',
    '550 5.7.1 Rejected due to poor reputation of the sending IP',
    "554 Your access to this mail system has been rejected due to the sending MTA's poor reputation.",
  ];
  for (const raw of blocks) assert.equal(signal(raw), 'block', raw);
});

test('what is about one recipient, one message or the domain is no provider signal', () => {
  const none = [
    '250 2.0.0 OK 1700000000 x1si123 - gsmtp',
    '450 4.2.1 The user you are trying to contact is receiving mail at a rate that prevents additional messages from being delivered.',
    '450 4.7.1 <a@example.org>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/',
    '451 4.3.0 Temporary failure, try again later',
    '550 5.1.1 The email account that you tried to reach does not exist.',
    '550 5.7.1 Recipient address rejected: Access denied, blocked by the recipient',
    '554 5.7.1 <a@example.org>: Relay access denied',
    '550-5.7.26 This mail is unauthenticated, which poses a security risk to the sender and Gmail users, and has been blocked.',
    '550 5.7.1 Message rejected: content blocked by policy',
    '552 5.2.2 Mailbox full',
    '554 5.7.1 The user or domain that you are sending to (or from) has a policy that prohibited the mail that you sent.',
  ];
  for (const raw of none) assert.equal(signal(raw), null, raw);
});

test('every rule names where it comes from', () => {
  for (const rule of SIGNAL_RULES) assert.ok(rule.source.length > 20, rule.id);
});

test('retryAfterOf: the wait a reply asks for, in seconds, minutes or hours; none without a number', () => {
  assert.equal(retryAfterOf('Rate limited, try again in 5 seconds'), 5000);
  assert.equal(retryAfterOf('Please retry in 2 minutes'), 120_000);
  assert.equal(retryAfterOf('try again after 1 hour'), 3_600_000);
  assert.equal(retryAfterOf('Try again in 30s'), 30_000);
  assert.equal(retryAfterOf('try again later'), null);
  assert.equal(retryAfterOf('come back in 10 mins'), 600_000);
  assert.equal(retryAfterOf('try again in 90000 hours'), 86_400_000, 'at most a day');
});

test('sessionRefusal: a 421 quoted in a connection error (greeting, EHLO), else null', () => {
  const r = sessionRefusal(
    'mx.test-gmail.example:2525: Invalid greeting. response=421 4.7.0 Try again in 30 seconds: 421 4.7.0 Try again in 30 seconds',
  );
  assert.equal(r?.code, 421);
  assert.equal(r?.enhanced, '4.7.0');
  assert.equal(providerSignal(r!)?.kind, 'throttle');
  assert.equal(retryAfterOf(r!.message), 30_000);
  assert.equal(sessionRefusal('mx.example.org: connect ECONNREFUSED 127.0.0.1:25'), null);
  assert.equal(sessionRefusal('mx.example.org: connection to mx.example.org:25 timed out after 4210 ms'), null);
  assert.equal(sessionRefusal('mx.example.org: greeting timed out after 421 ms'), null);
  assert.equal(sessionRefusal('mx.example.org: 421 Service not available')?.code, 421);
});
