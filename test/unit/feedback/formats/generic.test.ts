import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseReport } from '../../../../src/feedback/parse-report.js';
import { bounceHeaders, message } from './helpers.js';

test('generic: a Notes-style report with the reason on the line before the address', async () => {
  const body = `------- Failure Reasons  --------

User not listed in public Name & Address Book
someone@example.org

------- Returned Message --------
To: someone@example.org
From: sender@example.com
Subject: hello
`;
  const got = await parseReport(message(bounceHeaders('Undeliverable message', 'postmaster@example.org'), body));
  assert.equal(got.format, 'generic');
  assert.deepEqual(
    got.recipients.map((r) => [r.address, r.class, r.reason]),
    [['someone@example.org', 'hard', 'user_unknown']],
  );
});

test('generic: ISO-2022-JP text is decoded and its wording read (Japanese "not found")', async () => {
  // "ユーザー someone@example.jp は見つかりません。" in ISO-2022-JP (RFC 1468), no charset declared.
  const jis = Buffer.concat([
    Buffer.from('\x1b$B%f!<%6!<\x1b(B someone@example.jp \x1b$B$O8+$D$+$j$^$;$s!#\x1b(B\r\n', 'latin1'),
  ]).toString('latin1');
  const body = `Your message could not be delivered.\n\n${jis}\n`;
  const got = await parseReport(message(bounceHeaders('Returned mail'), body));
  assert.deepEqual(
    got.recipients.map((r) => [r.address, r.class, r.reason]),
    [['someone@example.jp', 'hard', 'user_unknown']],
  );
  assert.match(got.recipients[0]?.diagnostic ?? '', /見つかりません/);
});

test('generic: a carrier notice with a full mailbox is soft', async () => {
  const body = `Your mail sent on: Thu, 1 May 2025 10:00:00 +0900
     Could not be delivered to: <someone@example.ne.jp>
     As their mailbox is full.
`;
  const got = await parseReport(message(bounceHeaders('Mail delivery failed', 'no-reply@example.ne.jp'), body));
  assert.deepEqual(
    got.recipients.map((r) => [r.address, r.class, r.reason]),
    [['someone@example.ne.jp', 'soft', 'mailbox_full']],
  );
});

test("generic: the report's own addresses and the sender of the original are never recipients", async () => {
  const body = `Unable to deliver your message to <someone@example.org>.
For help contact <postmaster@mx.example.net> or write to bounce+abc@send.example.com.
550 5.1.1 User unknown

----- Original message -----
From: sender@example.com
To: someone@example.org
`;
  const got = await parseReport(message(bounceHeaders('Returned mail: see transcript'), body));
  assert.deepEqual(
    got.recipients.map((r) => r.address),
    ['someone@example.org'],
  );
});

test('auto-replies are not bounces', async () => {
  const got = await parseReport(
    message(
      {
        From: 'someone@example.org',
        To: 'sender@example.com',
        Subject: 'Out of Office: hello',
        'Auto-Submitted': 'auto-replied',
      },
      'I am away until Monday. For urgent matters write to other@example.org.\n',
    ),
  );
  assert.equal(got.kind, 'unknown');
  assert.deepEqual(got.recipients, []);
});
