import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonDepthExceeded, MAX_JSON_DEPTH } from '../../../src/send/json-depth.js';

const b = (s: string) => Buffer.from(s, 'utf8');

test('depth up to the limit passes, one more level is refused at its bracket', () => {
  const ok = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
  assert.equal(jsonDepthExceeded(b(ok)), -1);
  assert.equal(jsonDepthExceeded(b(`{"a":${ok}}`)), 5 + MAX_JSON_DEPTH - 1); // `{` is level 1, the arrays start at byte 5
  const deep = '['.repeat(5_000_000);
  assert.equal(jsonDepthExceeded(b(deep)), MAX_JSON_DEPTH);
});

test('brackets inside strings, escaped quotes and multi-byte characters do not count', () => {
  const s = JSON.stringify({ html: '['.repeat(100) + '\\"[[[' + '{'.repeat(100), text: 'é€😀"[' });
  assert.equal(jsonDepthExceeded(b(s)), -1);
  // An escaped backslash ends its escape: the quote after it closes the string, so the brackets count.
  assert.equal(jsonDepthExceeded(b(`{"a":"\\\\",${'['.repeat(2)}]]}`), 2), 11);
});

test('closing brackets bring the depth down again', () => {
  const wide = '[' + '[[]],'.repeat(1000) + '[]]';
  assert.equal(jsonDepthExceeded(b(wide), 3), -1);
});
