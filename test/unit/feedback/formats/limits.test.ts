import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseReport } from '../../../../src/feedback/parse-report.js';

test('deeply nested MIME is read without recursion trouble, as unknown', async () => {
  let body = 'the end';
  for (let i = 0; i < 2000; i++)
    body = `Content-Type: multipart/mixed; boundary="b${i}"\r\n\r\n--b${i}\r\n${body}\r\n--b${i}--\r\n`;
  const got = await parseReport(Buffer.from(`From: x@example.org\r\n${body}`));
  assert.equal(got.kind, 'unknown');
});

test('a huge report is read only up to the limit and does not throw', async () => {
  const big = Buffer.concat([
    Buffer.from('From: MAILER-DAEMON@example.net\r\nSubject: Undelivered Mail Returned to Sender\r\n\r\n'),
    Buffer.alloc(8 * 1024 * 1024, 'a'),
  ]);
  const got = await parseReport(big);
  assert.deepEqual(got.recipients, []);
});

test('broken encodings and charsets read as text, never an exception', async () => {
  const raw = Buffer.from(
    'From: MAILER-DAEMON@example.net\r\nSubject: =?x-unknown?B?####?=\r\nContent-Type: text/plain; charset=no-such-charset\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!!not base64\xff\xfe\r\n',
    'latin1',
  );
  const got = await parseReport(raw);
  assert.ok(['unknown', 'bounce'].includes(got.kind));
});
