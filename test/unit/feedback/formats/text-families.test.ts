import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseReport } from '../../../../src/feedback/parse-report.js';
import { bounceHeaders, message } from './helpers.js';

const summary = async (raw: Buffer) => {
  const got = await parseReport(raw);
  return { format: got.format, recipients: got.recipients.map((r) => [r.address, r.action, r.class, r.reason]) };
};

test('postfix: `<address>: reason` with continuation lines', async () => {
  const body = `This is the mail system at host mx.example.net.

I'm sorry to have to inform you that your message could not
be delivered to one or more recipients.

<gone@example.org>: host mx.example.org[192.0.2.1] said: 550 5.1.1
    <gone@example.org>: Recipient address rejected: User unknown (in reply to
    RCPT TO command)

<fine@example.org>: host mx.example.org[192.0.2.1] said: 452 4.2.2 Mailbox
    full (in reply to RCPT TO command)
`;
  assert.deepEqual(await summary(message(bounceHeaders('Undelivered Mail Returned to Sender'), body)), {
    format: 'postfix',
    recipients: [
      ['gone@example.org', 'failed', 'hard', 'user_unknown'],
      ['fine@example.org', 'failed', 'soft', 'mailbox_full'],
    ],
  });
});

test('postfix: a temporary DNS failure is never a dead domain', async () => {
  const body = `This is the Postfix program at host mx.example.net.

<someone@example.org>: Name service error for domain example.org: Host not
    found, try again
`;
  const got = await summary(message(bounceHeaders('Undelivered Mail Returned to Sender'), body));
  assert.deepEqual(got.recipients, [['someone@example.org', 'failed', 'soft', 'network_error']]);
});

test('office365: the address under "Delivery has failed" and the remote reply', async () => {
  const body = `Delivery has failed to these recipients or groups:

nobody@example.org<mailto:nobody@example.org>
The email address wasn't found at the destination domain.

Diagnostic information for administrators:

Generating server: EX1.example.net

nobody@example.org
Remote Server returned '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup'
`;
  assert.deepEqual(await summary(message(bounceHeaders('Undeliverable: hello', 'postmaster@example.net'), body)), {
    format: 'office365',
    recipients: [['nobody@example.org', 'failed', 'hard', 'user_unknown']],
  });
});

test('exchange2003: "did not reach the following recipient(s)" and its reason lines', async () => {
  const body = `Your message

  To:      someone@example.org
  Subject: hello

did not reach the following recipient(s):

someone@example.org on Thu, 1 May 2025 10:00:00 +0000
    The recipient name is not recognized
    MSEXCH:IMS:EXAMPLE:SITE:SERVER 0 (000C05A6) Unknown Recipient
`;
  assert.deepEqual(await summary(message(bounceHeaders('Undeliverable: hello', 'postmaster@example.org'), body)), {
    format: 'exchange2003',
    recipients: [['someone@example.org', 'failed', 'hard', 'user_unknown']],
  });
});

test('google-groups: a refusal to post is about permission, not a dead address', async () => {
  const body = `Hello sender@example.com,

We're writing to let you know that the group you tried to contact (team) may not exist, or you may not have permission to post messages to the group.

----- Original message -----

To: team@googlegroups.com
From: sender@example.com
Subject: hi
`;
  const got = await summary(message(bounceHeaders('Delivery Status Notification (Failure)'), body));
  assert.deepEqual(got, {
    format: 'google-groups',
    recipients: [['team@googlegroups.com', 'failed', 'soft', 'content_filtered']],
  });
});

test('rfc3464-text: delivery-status fields written into a text part', async () => {
  const body = `An error occurred while trying to deliver the mail to the following recipients:
gone@example.org

Technical report:

Reporting-MTA: dns; mx.example.net

Action: failed
Final-Recipient: rfc822; gone@example.org
Diagnostic-Code: smtp; 550 5.1.1 <gone@example.org>... User Unknown
Status: 5.1.1
`;
  assert.deepEqual(await summary(message(bounceHeaders('Delivery Status Notification (Failure)'), body)), {
    format: 'rfc3464-text',
    recipients: [['gone@example.org', 'failed', 'hard', 'user_unknown']],
  });
});

test('rfc3464: X-Actual-Recipient stands in when Final-Recipient is not an address', async () => {
  const raw = message(
    {
      ...bounceHeaders('Returned mail'),
      'Content-Type': 'multipart/report; report-type=delivery-status; boundary="b"',
    },
    `--b
Content-Type: text/plain

failed
--b
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.net

Final-Recipient: X400; /G=A/S=B/
X-Actual-Recipient: rfc822; moved@example.org
Action: failed
Status: 5.1.6
--b--
`,
  );
  const got = await summary(raw);
  assert.deepEqual(got.recipients, [['moved@example.org', 'failed', 'hard', 'mailbox_moved']]);
});
