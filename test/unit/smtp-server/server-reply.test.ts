import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countRefusal, smtpError } from '../../../src/smtp-server/server-reply.js';

test('smtpError carries the basic code for smtp-server and the enhanced code first in the text', () => {
  const err = smtpError(553, '5.1.3', 'Recipient ü@example.org is not valid (RFC 5321 §4.1.2).');
  assert.ok(err instanceof Error);
  assert.equal(err.responseCode, 553);
  assert.equal(err.message, '5.1.3 Recipient ?@example.org is not valid (RFC 5321 section 4.1.2).');
});

test('countRefusal passes refusals through up to the limit, then answers 421 4.7.0', () => {
  const count = { errors: 0 };
  const refusal = smtpError(550, '5.1.1', 'No such user.');
  const replies = Array.from({ length: 4 }, () => countRefusal(count, 3, refusal));
  assert.deepEqual(
    replies.map((r) => [r.responseCode, r.message]),
    [
      [550, '5.1.1 No such user.'],
      [550, '5.1.1 No such user.'],
      [550, '5.1.1 No such user.'],
      [421, '4.7.0 Too many errors in this session; closing.'],
    ],
  );
  assert.equal(count.errors, 4);
  assert.equal(countRefusal(count, 3, refusal).responseCode, 421, 'past the limit every reply is 421');
});

test('countRefusal does not count a session without a count', () => {
  const refusal = smtpError(530, '5.7.0', 'Authentication required.');
  for (let i = 0; i < 30; i++) assert.equal(countRefusal(undefined, 3, refusal), refusal);
});
