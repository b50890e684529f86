import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseReport } from '../../../src/feedback/parse-report.js';
import { TEXT_BOUNCE_FORMATS, matchTextFormat } from '../../../src/feedback/text-bounce-formats.js';
import { COMPLAINT_FEEDBACK_TYPES } from '../../../src/feedback/arf.js';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/bounces');

interface Expected {
  format: string;
  kind: string;
  originalMessageId: string | null;
  recipients: { address: string; action: string | null; status: string | null; class: string }[];
}

const expected = JSON.parse(readFileSync(join(DIR, 'expected.json'), 'utf8')) as Record<string, Expected>;
const samples = readdirSync(DIR)
  .filter((f) => f.endsWith('.eml'))
  .sort();
const read = (name: string) => readFileSync(join(DIR, name));

test('every corpus sample has an expected result and every expected result a sample', () => {
  assert.deepEqual(samples, Object.keys(expected).sort());
  assert.ok(samples.length >= 16, `corpus has ${samples.length} samples`);
});

for (const name of samples) {
  test(`corpus: ${name} (${expected[name]?.format ?? 'no expectation'})`, async () => {
    const want = expected[name] as Expected;
    const got = await parseReport(read(name));
    assert.equal(got.kind, want.kind);
    assert.equal(got.originalMessageId, want.originalMessageId);
    assert.deepEqual(
      got.recipients.map(({ address, action, status, class: cls }) => ({ address, action, status, class: cls })),
      want.recipients,
    );
  });
}

test('the corpus covers every kind and every class', () => {
  const all = Object.values(expected);
  assert.deepEqual(new Set(all.map((e) => e.kind)), new Set(['dsn', 'bounce', 'complaint', 'feedback', 'unknown']));
  assert.deepEqual(
    new Set(all.flatMap((e) => e.recipients.map((r) => r.class))),
    new Set(['hard', 'soft', 'block', 'complaint', 'unknown']),
  );
});

test('every non-standard format in the table is exercised by a corpus sample and cites its source', () => {
  const matched = new Set(samples.map((s) => matchTextFormat(read(s).toString('utf8'))?.id).filter(Boolean));
  for (const format of TEXT_BOUNCE_FORMATS) {
    assert.ok(format.source.length > 20 && format.mta.length > 0, `${format.id} cites its source`);
    assert.ok(matched.has(format.id), `${format.id} has a sample`);
  }
});

test('delayed is never hard: every delayed recipient in the corpus is soft', () => {
  const delayed = Object.values(expected)
    .flatMap((e) => e.recipients)
    .filter((r) => r.action === 'delayed');
  assert.ok(delayed.length >= 5);
  for (const r of delayed) assert.equal(r.class, 'soft', r.address);
});

const dsn = (recipientFields: string) =>
  Buffer.from(
    [
      'From: MAILER-DAEMON@mail.example.net',
      'To: bounces@example.com',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain',
      '',
      'Report.',
      '--b',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mail.example.net',
      '',
      recipientFields,
      '--b--',
      '',
    ].join('\r\n'),
  );

test('delayed is never hard, even when the diagnostic says the mailbox does not exist', async () => {
  const got = await parseReport(
    dsn(
      'Final-Recipient: rfc822; maybe@example.org\r\nAction: delayed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 User unknown\r\n',
    ),
  );
  assert.equal(got.kind, 'dsn');
  assert.equal(got.recipients[0]?.action, 'delayed');
  assert.equal(got.recipients[0]?.class, 'soft');
});

test('a missing Action is inferred from the status class (RFC 3464 §2.3.3, §2.3.4)', async () => {
  const got = await parseReport(dsn('Final-Recipient: rfc822; x@example.org\r\nStatus: 5.1.1\r\n'));
  assert.deepEqual(
    got.recipients.map((r) => [r.action, r.class]),
    [['failed', 'hard']],
  );
});

test('a message with no recognisable report structure is unknown with no recipients', async () => {
  for (const raw of [
    'From: a@example.com\r\nTo: b@example.org\r\nSubject: Hi\r\n\r\nJust a note: 550 5.1.1 is a code.\r\n',
    '',
    'no headers at all, no blank line',
    '\u0000\u0001\u00ff garbage',
  ]) {
    const got = await parseReport(Buffer.from(raw, 'latin1'));
    assert.equal(got.kind, 'unknown');
    assert.deepEqual(got.recipients, []);
    assert.equal(got.originalMessageId, null);
  }
});

test('feedback reports that are not complaints never yield complaint recipients', async () => {
  for (const type of ['not-spam', 'auth-failure', '', 'made-up']) {
    assert.ok(!COMPLAINT_FEEDBACK_TYPES.has(type));
    const raw = `Content-Type: multipart/report; report-type=feedback-report; boundary=x\r\n\r\n--x\r\nContent-Type: message/feedback-report\r\n\r\nFeedback-Type: ${type}\r\nOriginal-Rcpt-To: <u@example.org>\r\n--x--\r\n`;
    const got = await parseReport(Buffer.from(raw));
    // Recognised as feedback (RFC 6591 auth-failure, RFC 6430 not-spam), never as a complaint.
    assert.equal(got.kind, 'feedback', type);
    assert.deepEqual(got.recipients, []);
  }
});

test('malformed reports do not throw', async () => {
  const malformed = [
    // multipart without a boundary parameter
    'Content-Type: multipart/report; report-type=delivery-status\r\n\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\nFinal-Recipient: rfc822; a@example.org\r\n',
    // truncated: no closing delimiter, field without a value, continuation before any field
    'Content-Type: multipart/report; boundary=b\r\n\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\n continuation first\r\nFinal-Recipient:\r\nAction\r\nStatus: 9.9.9.9\r\nDiagnostic-Code: smtp;\r\n',
    // garbage fields, bad status, non-SMTP diagnostic, unclosed angle bracket
    dsn(
      'Final-Recipient: rfc822; <broken@example.org\r\nAction: ???\r\nStatus: banana\r\nDiagnostic-Code: x-unix; ;;;\r\n',
    ).toString('latin1'),
    // invalid base64, unknown charset, unterminated quoted parameter
    'Content-Type: multipart/report; boundary="b\r\n\r\n--b\r\nContent-Type: message/delivery-status; charset=x-nope\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!***\r\n--b--\r\n',
    // deeply nested multiparts
    `${'Content-Type: multipart/mixed; boundary=n\r\n\r\n--n\r\n'.repeat(40)}text\r\n`,
    // a message/rfc822 part that is empty, and a feedback report with no fields
    'Content-Type: multipart/report; report-type=feedback-report; boundary=b\r\n\r\n--b\r\nContent-Type: message/feedback-report\r\n\r\n--b\r\nContent-Type: message/rfc822\r\n\r\n--b--\r\n',
    // text bounce signatures with nothing after them
    'Subject: x\r\n\r\nHi. This is the qmail-send program at x.\r\n<>:\r\n<not an address>:\r\n',
    'Subject: x\r\n\r\nThis message was created automatically by mail delivery software.\r\nThe following address(es) failed:\r\n',
  ];
  for (const raw of malformed) {
    const got = await parseReport(Buffer.from(raw, 'latin1'));
    assert.ok(['dsn', 'bounce', 'complaint', 'feedback', 'unknown'].includes(got.kind));
    for (const r of got.recipients) assert.ok(['hard', 'soft', 'block', 'complaint', 'unknown'].includes(r.class));
  }
});

test('a failed recipient with a malformed status but a diagnostic is still classified from the diagnostic', async () => {
  const got = await parseReport(
    dsn(
      'Final-Recipient: rfc822; a@example.org\r\nAction: failed\r\nStatus: banana\r\nDiagnostic-Code: smtp; 550 5.1.1 <a@example.org>: User unknown\r\n',
    ),
  );
  assert.deepEqual(
    got.recipients.map((r) => [r.address, r.status, r.class]),
    [['a@example.org', null, 'hard']],
  );
});

test('the report of a report counts once: an attached bounce inside message/rfc822 is not read as this report', async () => {
  const inner = read('postfix-user-unknown.eml').toString('latin1');
  const raw = `From: a@example.com\r\nContent-Type: multipart/mixed; boundary=outer\r\n\r\n--outer\r\nContent-Type: text/plain\r\n\r\nFYI\r\n--outer\r\nContent-Type: message/rfc822\r\n\r\n${inner}\r\n--outer--\r\n`;
  const got = await parseReport(Buffer.from(raw, 'latin1'));
  assert.equal(got.kind, 'unknown');
});

test('a report to a Posthorn return path carries it, and the copy gives the original envelope sender', async () => {
  const got = await parseReport(read('postfix-user-unknown.eml'));
  assert.equal(got.returnPath, 'b-rcp01jd0000000000000000000000-abcdefgh1234@bounce.example.com');
  assert.equal(got.originalEnvelopeFrom, 'b-rcp01jd0000000000000000000000-abcdefgh1234@bounce.example.com');
  assert.equal(
    got.recipients[0]?.diagnostic,
    '550 5.1.1 <nobody@example.org>: Recipient address rejected: User unknown in virtual mailbox table',
  );
});
