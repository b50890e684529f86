import { test } from 'node:test';
import assert from 'node:assert/strict';
import { replyText } from '../../../src/smtp-server/enhanced-replies.js';

// Found by the fuzz suite: refusals quoted `RFC 5322 §3.6` and echoed UTF-8 addresses, while
// RFC 5321 §4.2 reply text is HT and printable US-ASCII only.
test('reply text is printable US-ASCII: § becomes "section", other characters "?"', () => {
  assert.equal(
    replyText('5.6.0', 'Subject appears more than once (RFC 5322 §3.6 allows one)'),
    '5.6.0 Subject appears more than once (RFC 5322 section 3.6 allows one)',
  );
  assert.equal(
    replyText('5.1.3', 'Recipient ü@example.org is not valid'),
    '5.1.3 Recipient ?@example.org is not valid',
  );
  assert.equal(replyText('5.6.0', 'a\tb'), '5.6.0 a\tb');
  assert.match(replyText('5.6.0', 'x\r\ny\u0000z😀'), /^[\t\x20-\x7e]*$/);
});
