// The forms and window of `send_at` and X-Posthorn-Send-At (send/send-at.ts), and the end of a
// hold (queue-control/hold-until.ts), which takes the same forms plus a duration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SEND_AHEAD_MS, parseSendAt, sendAtWindowError } from '../../../src/send/send-at.js';
import { parseHoldUntil } from '../../../src/queue-control/hold-until.js';

const NOW = Date.parse('2026-11-26T10:00:00.000Z');

test('send_at forms: ISO 8601 with Z or an offset, Unix seconds as a number or digits', () => {
  assert.deepEqual(parseSendAt('2026-11-26T10:05:00Z', 'send_at'), { at: NOW + 300_000 });
  assert.deepEqual(parseSendAt('2026-11-26T11:05:00+01:00', 'send_at'), { at: NOW + 300_000 });
  assert.deepEqual(parseSendAt('2026-11-26T10:05:00.250Z', 'send_at'), { at: NOW + 300_250 });
  assert.deepEqual(parseSendAt(NOW / 1000 + 60, 'send_at'), { at: NOW + 60_000 });
  assert.deepEqual(parseSendAt(String(NOW / 1000 + 60), 'send_at'), { at: NOW + 60_000 });
});

test('send_at forms refused, each message naming the field and the forms', () => {
  for (const bad of [
    '2026-11-26T10:05:00',
    '2026-11-26',
    'tomorrow',
    '',
    1.5,
    -1,
    true,
    {},
    '2026-13-01T00:00:00Z',
    '2026-02-30T09:00:00Z',
    '2026-11-26T24:00:00Z',
  ]) {
    const got = parseSendAt(bad, 'send_at');
    assert.ok('error' in got, JSON.stringify(bad));
    assert.match(got.error, /^send_at /, JSON.stringify(bad));
  }
});

test('the window: after now, at most 30 days ahead', () => {
  assert.equal(sendAtWindowError(NOW + 1, NOW, 'send_at'), null);
  assert.equal(sendAtWindowError(NOW + MAX_SEND_AHEAD_MS, NOW, 'send_at'), null);
  assert.match(sendAtWindowError(NOW, NOW, 'send_at') ?? '', /must be in the future/);
  assert.match(sendAtWindowError(NOW + MAX_SEND_AHEAD_MS + 1, NOW, 'send_at') ?? '', /at most 30 days ahead/);
});

test('a hold ends at a time or after a duration; anything else is refused naming until', () => {
  assert.equal(parseHoldUntil('2h', NOW), NOW + 7_200_000);
  assert.equal(parseHoldUntil('2026-11-26T12:00:00Z', NOW), NOW + 7_200_000);
  assert.equal(parseHoldUntil(NOW / 1000 + 30, NOW), NOW + 30_000);
  assert.throws(
    () => parseHoldUntil('soon', NOW),
    (e: Error & { field?: string }) => e.field === 'until',
  );
});
