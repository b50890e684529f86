import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSmtpReply } from '../../../src/core/smtp-reply.js';
import { classifyReply, REPLY_RULES, type Classification } from '../../../src/delivery/classify-reply.js';

type Expect = Pick<Classification, 'outcome' | 'bounceClass' | 'suppress'>;
const DELIVERED: Expect = { outcome: 'delivered', bounceClass: null, suppress: false };
const DEFER_SOFT: Expect = { outcome: 'deferred', bounceClass: 'soft', suppress: false };
const DEFER_BLOCK: Expect = { outcome: 'deferred', bounceClass: 'block', suppress: false };
const HARD: Expect = { outcome: 'failed', bounceClass: 'hard', suppress: true };
const BLOCK: Expect = { outcome: 'failed', bounceClass: 'block', suppress: false };
const SOFT: Expect = { outcome: 'failed', bounceClass: 'soft', suppress: false };

interface Case {
  /** The reply as the server sent it: code, and for multi-line replies every line with its prefix. */
  reply: string;
  /** Who sends it. "constructed" marks a reply built from the cited wording rather than copied from a log. */
  from: string;
  expect: Expect;
  rule: string;
}

const CASES: Case[] = [
  // 2yz
  {
    reply: '250 2.0.0 OK  1700000000 a1-20020a170906000000b00a0000000000si123456ejc.123 - gsmtp',
    from: 'Gmail',
    expect: DELIVERED,
    rule: 'accepted',
  },
  { reply: '250 Ok: queued as 4F2C81C0A2B', from: 'Postfix', expect: DELIVERED, rule: 'accepted' },
  {
    reply: '250 2.6.0 <id@example.com> [InternalId=123456789] Queued mail for delivery',
    from: 'Microsoft 365',
    expect: DELIVERED,
    rule: 'accepted',
  },
  // 4yz
  {
    reply: '421 4.7.0 Try again later, closing connection.',
    from: 'Gmail',
    expect: DEFER_SOFT,
    rule: 'transient-greylisted',
  },
  {
    reply:
      '450 4.2.0 <user@example.org>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/help/example.org.html',
    from: 'Postfix with Postgrey',
    expect: DEFER_SOFT,
    rule: 'transient-greylisted',
  },
  {
    reply: '451 4.7.1 Greylisting in action, please come back in 00:05:00',
    from: 'milter-greylist',
    expect: DEFER_SOFT,
    rule: 'transient-greylisted',
  },
  {
    reply:
      '451 4.7.500 Server busy. Please try again later from [192.0.2.1]. (S77714) [DM6NAM11FT011.eop-nam11.prod.protection.outlook.com]',
    from: 'Microsoft 365',
    expect: DEFER_SOFT,
    rule: 'transient-greylisted',
  },
  {
    reply:
      '421 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred due to unexpected volume or user complaints - 4.16.55.1; see https://postmaster.yahooinc.com/error-codes',
    from: 'Yahoo',
    expect: DEFER_BLOCK,
    rule: 'transient-block',
  },
  {
    reply:
      '421-4.7.28 [192.0.2.1      15] Our system has detected an unusual rate of\n421-4.7.28 unsolicited mail originating from your IP address. To protect our\n421-4.7.28 users from spam, mail sent from your IP address has been temporarily\n421 4.7.28 rate limited. a1si123 - gsmtp',
    from: 'Gmail',
    expect: DEFER_BLOCK,
    rule: 'transient-block',
  },
  {
    reply: '451 4.7.1 Service unavailable - try again later; Client host [192.0.2.1] blocked using zen.spamhaus.org',
    from: 'constructed: a Spamhaus-checking MTA answering 4xx',
    expect: DEFER_BLOCK,
    rule: 'transient-block',
  },
  {
    reply:
      '452-4.2.2 The email account that you tried to reach is over quota. Please direct\n452 4.2.2 the recipient to https://support.google.com/mail/?p=OverQuotaTemp a1si123 - gsmtp',
    from: 'Gmail',
    expect: DEFER_SOFT,
    rule: 'transient',
  },
  {
    reply: '451 4.3.0 Mail server temporarily rejected message. a1si123 - gsmtp',
    from: 'Gmail',
    expect: DEFER_SOFT,
    rule: 'transient',
  },
  {
    reply:
      '450 4.1.1 <user@example.org>: Recipient address rejected: unverified address: host mx.example.org[192.0.2.1] said: 550 5.1.1 User unknown',
    from: 'Postfix address verification',
    expect: DEFER_SOFT,
    rule: 'transient',
  },
  // 5yz, blocks
  {
    reply:
      '554 5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org; https://www.spamhaus.org/query/ip/192.0.2.1',
    from: 'Postfix with Spamhaus ZEN',
    expect: BLOCK,
    rule: 'block-wording',
  },
  {
    reply:
      '550-5.7.1 [192.0.2.1      12] Our system has detected that this message is\n550-5.7.1 likely unsolicited mail. To reduce the amount of spam sent to Gmail,\n550-5.7.1 this message has been blocked. Please visit\n550 5.7.1  https://support.google.com/mail/?p=UnsolicitedMessageError a1si123 - gsmtp',
    from: 'Gmail',
    expect: BLOCK,
    rule: 'block-wording',
  },
  {
    reply:
      '553 5.3.0 flpd575 DNSBL:RBL 521< 192.0.2.1 >_is_blocked.For assistance forward this error to abuse_rbl@abuse-att.net',
    from: 'AT&T',
    expect: BLOCK,
    rule: 'block-wording',
  },
  {
    reply:
      "550 SC-001 (BAY004-MC1F12) Unfortunately, messages from 192.0.2.1 weren't sent. Please contact your Internet service provider since part of their network is on our block list.",
    from: 'Outlook.com',
    expect: BLOCK,
    rule: 'block-wording',
  },
  {
    reply:
      "550 5.7.1 Unfortunately, messages from [192.0.2.1] weren't sent. Please contact your Internet service provider since part of their network is on our block list (S3150).",
    from: 'Outlook.com',
    expect: BLOCK,
    rule: 'block-wording',
  },
  {
    reply:
      '554 5.7.1 [CS01] Message rejected due to local policy. Please visit https://support.apple.com/en-us/HT204137',
    from: 'iCloud',
    expect: BLOCK,
    rule: 'block-wording',
  },
  {
    reply: '554 5.7.9 Message not accepted for policy reasons.  See https://postmaster.yahooinc.com/error-codes',
    from: 'Yahoo',
    expect: BLOCK,
    rule: 'block-wording',
  },
  {
    reply: '554 Service unavailable; Client host [192.0.2.1] blocked using b.barracudacentral.org',
    from: 'Barracuda',
    expect: BLOCK,
    rule: 'block-wording',
  },
  {
    reply: '554 Blocked - see https://ipcheck.proofpoint.com/?ip=192.0.2.1',
    from: 'Proofpoint',
    expect: BLOCK,
    rule: 'block-wording',
  },
  {
    reply:
      '554 resimta-po-12v.sys.comcast.net comcast 192.0.2.1 Comcast block for spam.  Please see http://postmaster.comcast.net/smtp-error-codes.php#BL000000',
    from: 'Comcast',
    expect: BLOCK,
    rule: 'block-wording',
  },
  {
    reply:
      '554-Transaction failed\n554-Reject due to policy restrictions.\n554 For explanation visit https://postmaster.gmx.net/en/case?c=r0601',
    from: 'GMX',
    expect: BLOCK,
    rule: 'block-wording',
  },
  {
    reply:
      '550-5.7.1 [192.0.2.1] Our system has detected that this message is likely suspicious\n550-5.7.1 due to the very low reputation of the sending IP address. To best protect\n550 5.7.1 our users from spam, the message has been blocked. a1si123 - gsmtp',
    from: 'Gmail',
    expect: BLOCK,
    rule: 'block-wording',
  },
  {
    reply: '550 5.2.1 <user@example.org>: Recipient address rejected: this mailbox has been blocked',
    from: 'constructed: block wording beside a hard code must not suppress',
    expect: BLOCK,
    rule: 'block-wording',
  },
  {
    reply:
      '553 5.7.2 [TSS09] All messages from 192.0.2.1 will be permanently deferred; Retrying will NOT succeed. See https://postmaster.yahooinc.com/error-codes',
    from: 'Yahoo',
    expect: BLOCK,
    rule: 'policy-5.7.x',
  },
  {
    reply:
      '550 5.7.606 Access denied, banned sending IP [192.0.2.1]. To request removal from this list please visit https://sender.office.com/',
    from: 'Microsoft 365',
    expect: BLOCK,
    rule: 'policy-5.7.x',
  },
  {
    reply: '550 5.7.1 RESOLVER.RST.AuthRequired; authentication required [Stage: CreateMessage]',
    from: 'Microsoft 365 (restricted group)',
    expect: BLOCK,
    rule: 'sender-authentication',
  },
  { reply: '554 5.7.1 <user@example.org>: Relay access denied', from: 'Postfix', expect: BLOCK, rule: 'policy-5.7.x' },
  {
    reply: '530 5.7.0 Must issue a STARTTLS command first. a1si123 - gsmtp',
    from: 'Gmail',
    expect: BLOCK,
    rule: 'policy-5.7.x',
  },
  // 5yz, our sender's fault
  {
    reply: '553 5.1.8 <bounce@example.com>: Sender address rejected: Domain not found',
    from: 'Postfix reject_unknown_sender_domain',
    expect: SOFT,
    rule: 'sender-address',
  },
  {
    reply: '550 5.1.0 <bounce@example.com>: Sender address rejected: User unknown in local recipient table',
    from: 'Postfix reject_unlisted_sender',
    expect: SOFT,
    rule: 'sender-address',
  },
  {
    reply: '550-Verification failed for <bounce@example.com>\n550-Unrouteable address\n550 Sender verify failed',
    from: 'Exim sender callout',
    expect: SOFT,
    rule: 'sender-address',
  },
  // 5yz, the address is at fault
  {
    reply:
      "550-5.1.1 The email account that you tried to reach does not exist. Please try\n550-5.1.1 double-checking the recipient's email address for typos or\n550-5.1.1 unnecessary spaces. Learn more at\n550 5.1.1  https://support.google.com/mail/?p=NoSuchUser a1si123 - gsmtp",
    from: 'Gmail',
    expect: HARD,
    rule: 'bad-address-5.1.x',
  },
  {
    reply:
      "553-5.1.2 We weren't able to find the recipient domain. Please check for any\n553-5.1.2 spelling errors, and make sure you didn't enter any spaces, periods,\n553 5.1.2 or other punctuation after the recipient's email address. a1si123 - gsmtp",
    from: 'Gmail',
    expect: HARD,
    rule: 'bad-address-5.1.x',
  },
  {
    reply: '550 5.1.1 <nobody@example.org>: Recipient address rejected: User unknown in virtual mailbox table',
    from: 'Postfix',
    expect: HARD,
    rule: 'bad-address-5.1.x',
  },
  {
    reply: '550 5.1.1 User not listed in public Name & Address Book',
    from: 'Lotus Domino ("listed" here is not a blocklist)',
    expect: HARD,
    rule: 'bad-address-5.1.x',
  },
  {
    reply: '550 5.1.1 RESOLVER.ADR.RecipNotFound; not found',
    from: 'Exchange',
    expect: HARD,
    rule: 'bad-address-5.1.x',
  },
  {
    reply: '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup',
    from: 'Microsoft 365',
    expect: HARD,
    rule: 'no-recipient-5.1.10',
  },
  {
    reply: '556 5.1.10 Recipient address has null MX',
    from: 'RFC 7504 / RFC 7505 §4 wording',
    expect: HARD,
    rule: 'null-mx-wording',
  },
  {
    reply: '550 5.1.6 Mailbox has moved, no forwarding address',
    from: 'constructed from RFC 3463 §3.2 X.1.6',
    expect: HARD,
    rule: 'mailbox-moved-5.1.6',
  },
  {
    reply:
      '550-5.2.1 The email account that you tried to reach is disabled. Learn more at\n550 5.2.1 https://support.google.com/mail/?p=DisabledUser a1si123 - gsmtp',
    from: 'Gmail',
    expect: HARD,
    rule: 'mailbox-disabled-5.2.1',
  },
  {
    reply:
      '550 5.5.0 Requested action not taken: mailbox unavailable. [BN8NAM11FT047.eop-nam11.prod.protection.outlook.com]',
    from: 'Outlook.com',
    expect: HARD,
    rule: 'no-mailbox-wording',
  },
  {
    reply:
      "554 delivery error: dd This user doesn't have a yahoo.com account (nobody@yahoo.com) [0] - mta1234.mail.ne1.yahoo.com",
    from: 'Yahoo',
    expect: HARD,
    rule: 'no-mailbox-wording',
  },
  {
    reply:
      '554 delivery error: dd Sorry your message to nobody@yahoo.com cannot be delivered. This account has been disabled or discontinued [#102]. - mta1234.mail.bf1.yahoo.com',
    from: 'Yahoo',
    expect: HARD,
    rule: 'no-mailbox-wording',
  },
  { reply: '550 Unrouteable address', from: 'Exim', expect: HARD, rule: 'no-mailbox-wording' },
  {
    reply: '550 sorry, no mailbox here by that name. (#5.1.1)',
    from: 'qmail',
    expect: HARD,
    rule: 'no-mailbox-wording',
  },
  {
    reply: '550 Requested action not taken: mailbox unavailable',
    from: 'RFC 5321 §4.2.3 default text (Exim, many others)',
    expect: HARD,
    rule: 'no-mailbox-wording',
  },
  {
    reply:
      '550 5.4.1 Recipient address rejected: Access denied. AS(201806281) [DM6NAM11FT003.eop-nam11.prod.protection.outlook.com]',
    from: 'Microsoft 365 directory-based edge blocking (no such recipient)',
    expect: HARD,
    rule: 'no-mailbox-wording',
  },
  // 5yz, neither the address nor a block
  {
    reply:
      "552-5.2.2 The recipient's inbox is out of storage space. Please direct the\n552-5.2.2 recipient to\n552 5.2.2  https://support.google.com/mail/?p=OverQuotaPerm a1si123 - gsmtp",
    from: 'Gmail',
    expect: SOFT,
    rule: 'mailbox-full',
  },
  {
    reply: '552 Requested mail action aborted: exceeded storage allocation',
    from: 'RFC 5321 §4.2.3 default text',
    expect: SOFT,
    rule: 'mailbox-full',
  },
  {
    reply:
      "552-5.3.4 Your message exceeded Google's message size limits. Please visit\n552 5.3.4  https://support.google.com/mail/?p=MaxSizeError to view our size guidelines. a1si123 - gsmtp",
    from: 'Gmail',
    expect: SOFT,
    rule: 'message-too-big',
  },
  { reply: '552 5.3.4 Message size exceeds fixed limit', from: 'Postfix', expect: SOFT, rule: 'message-too-big' },
  {
    reply: '552 Message size exceeds fixed maximum message size',
    from: 'Postfix (enhanced codes off)',
    expect: SOFT,
    rule: 'message-too-big',
  },
  {
    reply: '554 5.4.14 Hop count exceeded - possible mail loop ATTR34 [AM0PR01MB1234.eurprd01.prod.exchangelabs.com]',
    from: 'Microsoft 365',
    expect: SOFT,
    rule: 'permanent-other',
  },
  { reply: '503 5.5.1 Error: need MAIL command', from: 'Postfix', expect: SOFT, rule: 'permanent-other' },
  {
    reply:
      '550-5.2.1 The user you are trying to contact is receiving mail at a rate that\n550 5.2.1 prevents additional messages from being delivered. a1si123 - gsmtp',
    from: 'Gmail',
    expect: SOFT,
    rule: 'rate-limited',
  },
  {
    reply:
      '550 5.4.4 Host or domain name not found. Name service error for name=example.invalid type=A: Host not found',
    from: 'Postfix',
    expect: HARD,
    rule: 'no-route-5.4.4',
  },
  {
    reply: '554 5.4.4 Name service error for name=example.org type=MX: Malformed or unexpected name server reply',
    from: 'Postfix (a broken name server is not a missing domain)',
    expect: SOFT,
    rule: 'permanent-other',
  },
  { reply: '550 No such domain.', from: 'Courier', expect: HARD, rule: 'no-host-wording' },
  // Not a final reply at all
  {
    reply: '354 End data with <CR><LF>.<CR><LF>',
    from: 'Postfix, where a final reply was due',
    expect: DEFER_SOFT,
    rule: 'default',
  },
];

test(`${CASES.length} real-world replies classify as expected`, () => {
  assert.ok(CASES.length >= 30);
  const wrong = CASES.flatMap((c) => {
    const { reason: _reason, ...got } = classifyReply(parseSmtpReply(c.reply));
    const want = { ...c.expect, rule: c.rule };
    return JSON.stringify(got) === JSON.stringify(want) ? [] : [{ from: c.from, reply: c.reply, got, want }];
  });
  assert.deepEqual(wrong, []);
});

test('every rule in REPLY_RULES is hit by at least one case', () => {
  const hit = new Set(CASES.map((c) => classifyReply(parseSmtpReply(c.reply)).rule));
  const missed = REPLY_RULES.map((r) => r.id).filter((id) => !hit.has(id));
  assert.deepEqual(missed, []);
  assert.ok(hit.has('default'));
});

test('the table is well formed: unique ids, a source each, only hard bounces suppress', () => {
  assert.equal(new Set(REPLY_RULES.map((r) => r.id)).size, REPLY_RULES.length);
  for (const rule of REPLY_RULES) {
    assert.ok(/RFC \d+|"\d{3}[ -]/.test(rule.source), `${rule.id} cites an RFC or a real reply`);
    if (rule.suppress) assert.deepEqual([rule.outcome, rule.bounceClass], ['failed', 'hard'], rule.id);
    assert.equal(rule.outcome === 'delivered', rule.bounceClass === null, rule.id);
  }
});

const HARD_TEXTS = [
  'User unknown',
  'No such user here',
  'mailbox unavailable',
  'Recipient address rejected: User unknown',
  'account disabled',
];
const BLOCK_TEXTS = [
  'Client host [192.0.2.1] blocked using zen.spamhaus.org',
  'Your IP is listed on a blacklist',
  'sending IP is on our blocklist',
  'rejected for policy reasons',
  'poor reputation of the sending IP',
  'IP 192.0.2.1 block in effect',
  'listed by SpamCop',
];

test('no 5.7.x or blocklist reply ever suppresses, whatever code and wording come with it', () => {
  for (const code of [550, 551, 553, 554, 421, 450, 451]) {
    const cls = String(code)[0];
    for (const detail of ['1.1', '2.1', '1.10', '0.0', '7.0', '7.1', '7.26', '7.606', null]) {
      const enhanced = detail === null ? null : `${cls}.${detail}`;
      for (const text of [
        ...HARD_TEXTS,
        ...BLOCK_TEXTS,
        ...HARD_TEXTS.flatMap((h) => BLOCK_TEXTS.map((b) => `${h}; ${b}`)),
      ]) {
        const isBlock = detail?.startsWith('7.') === true || BLOCK_TEXTS.some((b) => text.includes(b));
        if (!isBlock) continue;
        const result = classifyReply({ code, enhanced, message: text });
        assert.equal(result.suppress, false, `${code} ${enhanced ?? ''} ${text} → ${result.rule}`);
        if (code >= 500)
          assert.equal(result.bounceClass, 'block', `${code} ${enhanced ?? ''} ${text} → ${result.rule}`);
      }
    }
  }
});

test('4xx never suppresses, even with a 5.1.1-style text', () => {
  for (const text of HARD_TEXTS)
    assert.deepEqual(classifyReply({ code: 450, enhanced: '4.1.1', message: text }), {
      ...DEFER_SOFT,
      rule: 'transient',
      reason: 'user_unknown',
    });
});
