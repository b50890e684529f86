import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseReport } from '../../../../src/feedback/parse-report.js';
import { message } from './helpers.js';

const headers = {
  From: 'AWS Notifications <no-reply@sns.amazonaws.com>',
  To: 'ops@example.com',
  Subject: 'AWS Notification Message',
};

test('an SES permanent bounce gives the recipient its status and a hard class', async () => {
  const json = JSON.stringify({
    notificationType: 'Bounce',
    bounce: {
      bounceType: 'Permanent',
      bounceSubType: 'General',
      bouncedRecipients: [
        {
          emailAddress: 'gone@example.org',
          action: 'failed',
          status: '5.1.1',
          diagnosticCode: 'smtp; 550 5.1.1 user unknown',
        },
      ],
    },
  });
  // Long lines arrive folded: a line break and one space inserted in the middle of the JSON.
  const folded = `${json.slice(0, 60)}\n ${json.slice(60)}`;
  const got = await parseReport(message(headers, folded));
  assert.equal(got.format, 'amazon-ses');
  assert.deepEqual(
    got.recipients.map((r) => [r.address, r.status, r.class, r.reason]),
    [['gone@example.org', '5.1.1', 'hard', 'user_unknown']],
  );
});

test('an SES transient bounce (mailbox full) never suppresses, and an SNS envelope is unwrapped', async () => {
  const inner = JSON.stringify({
    notificationType: 'Bounce',
    bounce: {
      bounceType: 'Transient',
      bounceSubType: 'MailboxFull',
      bouncedRecipients: [{ emailAddress: 'full@example.org' }],
    },
  });
  const got = await parseReport(message(headers, JSON.stringify({ Type: 'Notification', Message: inner }, null, 2)));
  assert.deepEqual(
    got.recipients.map((r) => [r.address, r.class, r.reason]),
    [['full@example.org', 'soft', 'mailbox_full']],
  );
});

test('an SES complaint is a complaint', async () => {
  const json = JSON.stringify({
    notificationType: 'Complaint',
    complaint: { complainedRecipients: [{ emailAddress: 'angry@example.org' }], complaintFeedbackType: 'abuse' },
  });
  const got = await parseReport(message(headers, json));
  assert.equal(got.kind, 'complaint');
  assert.deepEqual(
    got.recipients.map((r) => r.address),
    ['angry@example.org'],
  );
});
