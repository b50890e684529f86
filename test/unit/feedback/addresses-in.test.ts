import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressesIn } from '../../../src/feedback/arf.js';
import { parseReport } from '../../../src/feedback/parse-report.js';

test('addressesIn: angle-bracketed addresses first, else bare addr-specs between separators', () => {
  assert.deepEqual(addressesIn('Jane <jane@example.org>, <joe@example.org>'), ['jane@example.org', 'joe@example.org']);
  assert.deepEqual(addressesIn('jane@example.org, joe@example.org; "x" ann@example.org'), [
    'jane@example.org',
    'joe@example.org',
    'ann@example.org',
  ]);
  assert.deepEqual(addressesIn('@example.org, jane@, a@@b, user@host@x'), ['a@@b', 'user@host@x']);
  assert.deepEqual(addressesIn('no address here'), []);
  assert.deepEqual(addressesIn(null), []);
});

// Found by the fuzz suite: the bare addr-spec regex backtracked over a long run from every start
// position, so one 300 KB To line without an `@` held the event loop for minutes (quadratic). The
// test's own timeout fails it on that code; the linear scan takes milliseconds.
test('a report whose To is one long run without an @ is parsed at once', { timeout: 60_000 }, async () => {
  const raw = Buffer.from(
    `From: MAILER-DAEMON@mx.example.org\r\nTo: <${'é'.repeat(150_000)}\r\nSubject: x\r\n\r\nbody\r\n`,
    'utf8',
  );
  const parsed = await parseReport(raw);
  assert.equal(parsed.kind, 'unknown');
  assert.equal(parsed.returnPath, null);
});
