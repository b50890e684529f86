import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { splitMessage } from '../../../src/mime/split-message.js';
import { isOwnedHeader } from '../../../src/send/custom-headers.js';
import { decodeEncodedWords } from '../../../src/mime/header-text.js';
import { parseSubmission, type Submission, type SubmissionError } from '../../../src/smtp/parse-submission.js';
import { rewriteSubmission } from '../../../src/smtp/rewrite-submission.js';
import {
  headerDisposition,
  SUBMITTED_HEADER_PREFIXES,
  SUBMITTED_HEADER_RULES,
} from '../../../src/smtp/submitted-headers.js';

const pdf = randomBytes(200_000);
const envelope = {
  mailFrom: 'bounces@acme.test',
  rcptTo: ['user@example.org', 'USER@example.org', 'hidden@example.net', 'cc@example.com'],
};
const out = {
  from: { name: 'Acme Büro', address: 'hello@acme.test' },
  messageId: '<msg_01JD@mail.posthorn.test>',
  date: 'Sat, 21 Nov 2026 12:00:00 +0000',
};

/** A message as an application would submit it with nodemailer, Bcc header kept as a client sends it. */
async function nodemailerMessage(extra: Partial<Mail.Options> = {}): Promise<Buffer> {
  const node = new MailComposer({
    from: 'Acme Büro <hello@news.acme.test>',
    to: 'User <user@example.org>',
    cc: 'cc@example.com',
    bcc: 'hidden@example.net',
    subject: 'Ihre Bestätigung ✓ — Bestellung 42',
    text: 'Hallo, danke für Ihre Bestellung.\n',
    html: '<p>Hallo, danke für Ihre <b>Bestellung</b>.</p>',
    attachments: [
      { filename: 'rechnung.pdf', content: pdf, contentType: 'application/pdf' },
      { filename: 'notiz äöü.txt', content: 'eine Notiz\n' },
    ],
    headers: {
      'X-Posthorn-Tags': 'welcome, onboarding , welcome',
      'X-Posthorn-Track-Opens': 'no',
      'Idempotency-Key': 'order-42',
      'DKIM-Signature': 'v=1; a=rsa-sha256; d=elsewhere.test; s=x; b=AAAA',
      Received: 'from app.internal (10.0.0.7) by relay.internal; Sat, 21 Nov 2026 11:59:00 +0000',
      'X-Custom': 'keep me',
    },
    ...extra,
  }).compile();
  node.keepBcc = true;
  return node.build();
}

function ok(r: Submission | SubmissionError): Submission {
  if ('error' in r) assert.fail(`unexpected refusal: ${r.error.message}`);
  return r;
}

function refused(r: Submission | SubmissionError): SubmissionError['error'] {
  if (!('error' in r)) assert.fail('expected a refusal');
  assert.equal(r.error.type, 'invalid_request');
  return r.error;
}

const headOf = (raw: Buffer): string => raw.toString('latin1', 0, splitMessage(raw).bodyStart);
const bodyOf = (raw: Buffer): Buffer => raw.subarray(splitMessage(raw).bodyStart);
const msg = (...lines: string[]): Buffer => Buffer.from(lines.join('\r\n'), 'latin1');

test('a nodemailer message: From, decoded Subject, envelope recipients, tags, options and key', async () => {
  const raw = await nodemailerMessage();
  const s = ok(parseSubmission(raw, envelope));
  assert.deepEqual(s.from, {
    name: 'Acme Büro',
    address: 'hello@news.acme.test',
    local: 'hello',
    domain: 'news.acme.test',
  });
  assert.equal(s.subject, 'Ihre Bestätigung ✓ — Bestellung 42');
  assert.deepEqual(
    s.recipients.map((r) => r.address),
    ['user@example.org', 'hidden@example.net', 'cc@example.com'],
    'deduplicated case-insensitively',
  );
  assert.deepEqual(s.tags, ['welcome', 'onboarding']);
  assert.deepEqual(s.options, { trackOpens: false });
  assert.equal(s.idempotencyKey, 'order-42');
  assert.match(s.fingerprint, /^[0-9a-f]{64}$/);
  assert.equal(
    ok(parseSubmission(Buffer.from(raw), envelope)).fingerprint,
    s.fingerprint,
    'same bytes and envelope: same fingerprint',
  );
  assert.notEqual(ok(parseSubmission(raw, { ...envelope, rcptTo: ['user@example.org'] })).fingerprint, s.fingerprint);
  assert.notEqual(ok(parseSubmission(Buffer.concat([raw, Buffer.from('x\r\n')]), envelope)).fingerprint, s.fingerprint);
});

test('the rewrite removes Bcc, X-Posthorn-*, Idempotency-Key and trace/auth fields; body bytes are identical', async () => {
  const raw = await nodemailerMessage();
  assert.match(headOf(raw), /^Bcc: hidden@example\.net/m, 'the fixture really carries a Bcc header');
  const rewritten = rewriteSubmission(raw, { ...out, from: { name: 'Acme Büro', address: 'hello@news.acme.test' } });
  const head = headOf(rewritten);
  for (const gone of [/^bcc:/im, /^x-posthorn-/im, /^idempotency-key:/im, /^dkim-signature:/im, /^received:/im])
    assert.doesNotMatch(head, gone);
  for (const kept of [
    /^To: User <user@example\.org>$/m,
    /^Cc: cc@example\.com$/m,
    /^X-Custom: keep me$/m,
    /^MIME-Version: 1\.0$/m,
    /^Content-Type: multipart\/mixed;/m,
  ])
    assert.match(head, kept);
  assert.ok(bodyOf(rewritten).equals(bodyOf(raw)), 'body bytes untouched');
  assert.equal(rewritten.length, raw.length - (headOf(raw).length - head.length));
});

test('the rewritten message parses with mailparser and carries the same parts and attachments', async () => {
  const raw = await nodemailerMessage();
  const [before, after] = await Promise.all([simpleParser(raw), simpleParser(rewriteSubmission(raw, out))]);
  assert.equal(after.bcc, undefined);
  assert.equal(after.subject, before.subject);
  assert.equal(after.text, before.text);
  assert.equal(after.html, before.html);
  assert.equal(after.messageId, before.messageId, 'Message-ID kept when present');
  assert.equal(after.date?.toISOString(), before.date?.toISOString(), 'Date kept when present');
  assert.equal(after.attachments.length, 2);
  assert.deepEqual(
    after.attachments.map((a) => [a.filename, a.contentType, a.checksum]),
    before.attachments.map((a) => [a.filename, a.contentType, a.checksum]),
  );
  assert.ok(after.attachments[0]?.content.equals(pdf));
  assert.equal(after.attachments[1]?.filename, 'notiz äöü.txt');
});

test('From is replaced by the rewritten sender, display name kept; an unchanged From keeps its bytes', async () => {
  const raw = await nodemailerMessage();
  const s = ok(parseSubmission(raw, envelope));
  const rewritten = rewriteSubmission(raw, { ...out, from: { name: s.from.name, address: 'hello@acme.test' } });
  const parsed = await simpleParser(rewritten);
  assert.deepEqual(parsed.from?.value, [{ name: 'Acme Büro', address: 'hello@acme.test' }]);
  assert.equal(headOf(rewritten).match(/^from:/gim)?.length, 1, 'replaced, not duplicated');
  const originalFrom = /^From: .*$/m.exec(headOf(raw))?.[0] as string;
  const same = rewriteSubmission(raw, { ...out, from: { name: s.from.name, address: s.from.address } });
  assert.ok(headOf(same).includes(`${originalFrom}\r\n`), 'submitted From kept byte for byte');
  const quoted = headOf(rewriteSubmission(raw, { ...out, from: { name: 'Acme, Inc.', address: 'hello@acme.test' } }));
  assert.match(quoted, /^From: "Acme, Inc\." <hello@acme\.test>$/m);
});

test('Message-ID and Date are added when missing, after From, and kept when present', () => {
  const bare = msg('Subject: hi', 'From: Ann <ann@acme.test>', 'To: b@example.org', '', 'body', '');
  const head = headOf(rewriteSubmission(bare, { ...out, from: { name: 'Ann', address: 'ann@acme.test' } }));
  assert.equal(
    head,
    `Subject: hi\r\nFrom: Ann <ann@acme.test>\r\nMessage-ID: ${out.messageId}\r\nDate: ${out.date}\r\nTo: b@example.org\r\n\r\n`,
  );
  const full = msg(
    'From: Ann <ann@acme.test>',
    'Date: Fri, 20 Nov 2026 10:00:00 +0100',
    'Message-ID: <own@app.test>',
    '',
    'body',
    '',
  );
  const kept = headOf(rewriteSubmission(full, out));
  assert.match(kept, /^Message-ID: <own@app\.test>$/m);
  assert.match(kept, /^Date: Fri, 20 Nov 2026 10:00:00 \+0100$/m);
  assert.doesNotMatch(kept, /msg_01JD/);
  const empty = headOf(rewriteSubmission(msg('From: ann@acme.test', 'Date: ', 'Message-ID:', '', 'b', ''), out));
  assert.equal(empty.match(/^date:/gim)?.length, 1);
  assert.equal(empty.match(/^message-id:/gim)?.length, 1);
  assert.match(empty, /^Date: Sat, 21 Nov/m);
});

test('folded fields: values are unfolded for reading, removed with their continuation lines, kept byte for byte', () => {
  const raw = msg(
    'From: "Ann Example"',
    '\t<ann@acme.test>',
    // One UTF-8 character ("ä" = C3 A4) split across two encoded words on two lines (RFC 2047 §6.2).
    'Subject: =?UTF-8?Q?Gr=C3=BC=C3?=',
    ' =?UTF-8?Q?=A4e_aus?= Berlin',
    'Bcc: one@example.net,',
    ' two@example.net',
    'X-Posthorn-Tags: a,',
    '  b',
    'To: first@example.org,',
    '    second@example.org',
    '',
    'body',
    '',
  );
  const s = ok(parseSubmission(raw, { mailFrom: '', rcptTo: ['first@example.org'] }));
  assert.equal(s.from.address, 'ann@acme.test');
  assert.equal(s.from.name, 'Ann Example');
  assert.equal(s.subject, 'Grüäe aus Berlin');
  assert.deepEqual(s.tags, ['a', 'b']);
  const head = headOf(rewriteSubmission(raw, { ...out, from: { name: 'Ann Example', address: 'ann@acme.test' } }));
  assert.ok(head.includes('From: "Ann Example"\r\n\t<ann@acme.test>\r\n'), 'unchanged folded From kept as is');
  assert.ok(head.includes('To: first@example.org,\r\n    second@example.org\r\n'));
  assert.doesNotMatch(head, /two@example\.net|one@example\.net|^\s+b$/m);
});

test('raw 8-bit header bytes are read as UTF-8 and pass through the rewrite unchanged', () => {
  const raw = Buffer.concat([
    Buffer.from('From: ann@acme.test\r\nSubject: ', 'latin1'),
    Buffer.from('Grüße ✓', 'utf8'),
    Buffer.from('\r\nX-Note: ', 'latin1'),
    Buffer.from('naïve', 'utf8'),
    Buffer.from('\r\n\r\nbody\r\n', 'latin1'),
  ]);
  assert.equal(ok(parseSubmission(raw, { mailFrom: '', rcptTo: ['b@example.org'] })).subject, 'Grüße ✓');
  const rewritten = rewriteSubmission(raw, out);
  assert.ok(rewritten.includes(Buffer.from('Subject: Grüße ✓\r\n', 'utf8')));
  assert.ok(rewritten.includes(Buffer.from('X-Note: naïve\r\n', 'utf8')));
});

test('obsolete and odd-case spellings of removed fields are removed too (RFC 5322 §4.5)', () => {
  const raw = msg(
    'From: ann@acme.test',
    'BCC : hidden@example.net',
    'x-posthorn-track-clicks: yes',
    'ARC-Seal: i=1; cv=none',
    'Return-Path: <x@y.test>',
    'Authentication-Results: mx.test; spf=pass',
    'Sender: other@gmail.test',
    'Feedback-ID: a:b',
    '',
    'b',
    '',
  );
  const head = headOf(rewriteSubmission(raw, out));
  assert.equal(
    head,
    `From: =?UTF-8?Q?Acme_B=C3=BCro?= <hello@acme.test>\r\nMessage-ID: ${out.messageId}\r\nDate: ${out.date}\r\n\r\n`,
  );
});

test('decodeEncodedWords: Q and B, other charsets, adjacent words joined, unknown charsets left as is', () => {
  assert.equal(decodeEncodedWords('=?ISO-8859-1?Q?Caf=E9_cr=E8me?='), 'Café crème');
  assert.equal(decodeEncodedWords('=?utf-8?B?4pyTIGRvbmU=?= now'), '✓ done now');
  assert.equal(decodeEncodedWords('=?UTF-8?Q?a?= =?UTF-8?Q?b?= c =?UTF-8?Q?d?='), 'ab c d');
  assert.equal(decodeEncodedWords('=?UTF-8*de?Q?Gr=C3=BC=C3=9Fe?='), 'Grüße', 'RFC 2231 language suffix');
  assert.equal(decodeEncodedWords('=?x-unknown?Q?abc?= plain'), '=?x-unknown?Q?abc?= plain');
  assert.equal(decodeEncodedWords('no words here'), 'no words here');
});

test('From is required and must be exactly one mailbox (RFC 5322 §3.6, §3.6.2)', () => {
  const rcpt = { mailFrom: '', rcptTo: ['b@example.org'] };
  const none = refused(parseSubmission(msg('To: b@example.org', 'Subject: x', '', 'b', ''), rcpt));
  assert.equal(none.field, 'From');
  assert.match(none.message, /no From header/);
  const two = refused(parseSubmission(msg('From: a@acme.test, c@acme.test', '', 'b', ''), rcpt));
  assert.equal(two.field, 'From');
  assert.match(two.message, /exactly one mailbox, got 2/);
  const twice = refused(parseSubmission(msg('From: a@acme.test', 'from: c@acme.test', '', 'b', ''), rcpt));
  assert.equal(twice.field, 'from');
  assert.match(twice.message, /more than once/);
  assert.equal(refused(parseSubmission(msg('From: not an address', '', 'b', ''), rcpt)).field, 'From');
  assert.equal(
    refused(parseSubmission(msg('From: a@acme.test', 'Subject: 1', 'Subject: 2', '', 'b', ''), rcpt)).field,
    'Subject',
  );
});

test('X-Posthorn-* headers: unknown names, bad values and over 20 tags are refused, naming the header', () => {
  const rcpt = { mailFrom: '', rcptTo: ['b@example.org'] };
  const typo = refused(parseSubmission(msg('From: a@acme.test', 'X-Posthorn-Foo: 1', '', 'b', ''), rcpt));
  assert.equal(typo.field, 'X-Posthorn-Foo');
  assert.match(
    typo.message,
    /unknown header X-Posthorn-Foo; the relay takes X-Posthorn-Tags, X-Posthorn-Track-Opens, X-Posthorn-Track-Clicks/,
  );
  const tags21 = Array.from({ length: 21 }, (_, i) => `t${i}`).join(', ');
  const many = refused(parseSubmission(msg('From: a@acme.test', `X-Posthorn-Tags: ${tags21}`, '', 'b', ''), rcpt));
  assert.equal(many.field, 'X-Posthorn-Tags');
  assert.match(many.message, /at most 20/);
  const tags20 = Array.from({ length: 20 }, (_, i) => `t${i}`).join(',');
  assert.equal(
    ok(parseSubmission(msg('From: a@acme.test', `X-Posthorn-Tags: ${tags20}`, '', 'b', ''), rcpt)).tags.length,
    20,
  );
  assert.equal(
    refused(parseSubmission(msg('From: a@acme.test', `X-Posthorn-Tags: ${'x'.repeat(101)}`, '', 'b', ''), rcpt)).field,
    'X-Posthorn-Tags',
  );
  assert.equal(
    refused(parseSubmission(msg('From: a@acme.test', 'X-Posthorn-Tags: a,,b', '', 'b', ''), rcpt)).field,
    'X-Posthorn-Tags',
  );
  const maybe = refused(parseSubmission(msg('From: a@acme.test', 'X-Posthorn-Track-Clicks: maybe', '', 'b', ''), rcpt));
  assert.equal(maybe.field, 'X-Posthorn-Track-Clicks');
  const both = ok(
    parseSubmission(
      msg('From: a@acme.test', 'X-POSTHORN-TRACK-CLICKS: YES', 'X-Posthorn-Track-Opens: no', '', 'b', ''),
      rcpt,
    ),
  );
  assert.deepEqual(both.options, { trackClicks: true, trackOpens: false });
  assert.equal(
    refused(parseSubmission(msg('From: a@acme.test', 'X-Posthorn-Tags: a', 'X-Posthorn-Tags: b', '', 'b', ''), rcpt))
      .field,
    'X-Posthorn-Tags',
  );
});

test('Idempotency-Key is optional and must be 1 to 255 printable ASCII characters', () => {
  const rcpt = { mailFrom: '', rcptTo: ['b@example.org'] };
  assert.equal(ok(parseSubmission(msg('From: a@acme.test', '', 'b', ''), rcpt)).idempotencyKey, undefined);
  assert.equal(
    refused(parseSubmission(msg('From: a@acme.test', `Idempotency-Key: ${'k'.repeat(256)}`, '', 'b', ''), rcpt)).field,
    'Idempotency-Key',
  );
});

test('envelope recipients: invalid ones and an empty list are refused with field to', () => {
  const raw = msg('From: a@acme.test', '', 'b', '');
  assert.equal(refused(parseSubmission(raw, { mailFrom: '', rcptTo: ['not-an-address'] })).field, 'to');
  assert.equal(refused(parseSubmission(raw, { mailFrom: '', rcptTo: [] })).field, 'to');
  // RFC 5321 §4.5.3.1.8: a relay takes 100 recipients per message (the HTTP API's 50 is for its
  // `to` field).
  const many = Array.from({ length: 101 }, (_, i) => `u${i}@example.org`);
  assert.match(refused(parseSubmission(raw, { mailFrom: '', rcptTo: many })).message, /1 to 100/);
  assert.equal(
    ok(parseSubmission(raw, { mailFrom: '', rcptTo: [...many.slice(0, 100), 'U0@EXAMPLE.ORG'] })).recipients.length,
    100,
  );
});

test('a header section line that is not a field (a missing empty line before the body) is refused', () => {
  const r = refused(
    parseSubmission(msg('From: a@acme.test', 'Hello there, this is the body', '', ''), {
      mailFrom: '',
      rcptTo: ['b@example.org'],
    }),
  );
  assert.equal(r.field, 'headers');
  assert.match(r.message, /empty line/);
});

test('the disposition table: removed and replaced fields are owned headers, Content-* and MIME-Version kept', () => {
  for (const [name, rule] of Object.entries(SUBMITTED_HEADER_RULES)) {
    if ((rule.disposition === 'remove' || rule.disposition === 'replace') && name !== 'idempotency-key')
      assert.ok(isOwnedHeader(name), name);
    assert.equal(headerDisposition(name.toUpperCase()), rule.disposition, name);
  }
  for (const [prefix, rule] of SUBMITTED_HEADER_PREFIXES)
    assert.equal(headerDisposition(`${prefix}Anything`), rule.disposition);
  assert.equal(headerDisposition('Content-Type'), 'keep');
  assert.equal(headerDisposition('Content-Transfer-Encoding'), 'keep');
  assert.equal(headerDisposition('MIME-Version'), 'keep');
  assert.equal(headerDisposition('List-Unsubscribe'), 'keep');
  assert.equal(headerDisposition('constructor'), 'keep');
});

test('parsing reads the header section only: a 10 MB attachment costs no more than a tiny message', async () => {
  const big = await nodemailerMessage({
    attachments: [{ filename: 'big.bin', content: randomBytes(10 * 1024 * 1024) }],
  });
  const started = performance.now();
  for (let i = 0; i < 20; i++) ok(parseSubmission(big, envelope));
  const perMessage = (performance.now() - started) / 20;
  // The fingerprint hashes the raw bytes (about 25 ms for 13 MB of base64 at worst); parsing the MIME body would take far longer.
  assert.ok(perMessage < 100, `${perMessage.toFixed(1)} ms per 13 MB message`);
});

test('control characters in a header field, raw or RFC 2047 encoded, are refused naming the field; a folding tab is fine', () => {
  const e = refused(parseSubmission(msg('From: ann@acme.test', 'Subject: hi \x1b[2J there', '', 'b', ''), envelope));
  assert.equal(e.field, 'Subject');
  assert.match(e.message, /Subject holds a control character \(U\+001B at position 4\)/);
  const encoded = refused(
    parseSubmission(msg('From: ann@acme.test', 'Subject: =?UTF-8?Q?bell=07?=', '', 'b', ''), envelope),
  );
  assert.match(encoded.message, /Subject decodes to text with a control character \(U\+0007/);
  const name = refused(
    parseSubmission(msg('From: =?UTF-8?Q?Ann=00?= <ann@acme.test>', 'Subject: x', '', 'b', ''), envelope),
  );
  assert.equal(name.field, 'From');
  assert.match(name.message, /display name that decodes to a control character \(U\+0000/);
  assert.match(
    refused(parseSubmission(msg('From: ann@acme.test', 'X-Note: a\x7fb', '', 'b', ''), envelope)).message,
    /X-Note holds a control character \(U\+007F/,
  );
  assert.match(
    ok(parseSubmission(msg('From: ann@acme.test', 'Subject: folded', '\tline', '', 'b', ''), envelope)).subject,
    /^folded\s+line$/,
  );
});
