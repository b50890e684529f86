import { test } from 'node:test';
import assert from 'node:assert/strict';
import { API_ERROR_TYPES, ERROR_TABLE } from '../../../src/core/api-errors.js';
import { ERROR_DOCS } from '../../../src/core/api-error-docs.js';
import { errorsPage } from '../../../src/http/docs/errors-page.js';

test('every error type is explained, and nothing else is', () => {
  assert.deepEqual(Object.keys(ERROR_DOCS).sort(), [...API_ERROR_TYPES].sort());
  assert.deepEqual(Object.keys(ERROR_TABLE).sort(), [...API_ERROR_TYPES].sort());
  for (const type of API_ERROR_TYPES) {
    const doc = ERROR_DOCS[type];
    assert.ok(doc, `${type} has no entry in src/core/api-error-docs.ts`);
    for (const key of ['title', 'brief', 'cause', 'remedy'] as const)
      assert.ok(doc[key].trim().length >= (key === 'title' ? 3 : 20), `${type}.${key} is empty or a stub`);
    assert.ok(doc.example.message.trim().length > 0, `${type} has no example message`);
  }
});

test('the errors page has one section per type, in status order', () => {
  const html = errorsPage();
  const ids = [...html.matchAll(/<section id="([^"]+)"/g)].map((m) => m[1]!);
  assert.deepEqual([...ids].sort(), [...API_ERROR_TYPES].sort());
  const statuses = ids.map((id) => ERROR_TABLE[id as keyof typeof ERROR_TABLE].status);
  assert.deepEqual(
    statuses,
    [...statuses].sort((a, b) => a - b),
  );
});

test('the explanations are escaped: markup in them cannot break the page', () => {
  const html = errorsPage();
  assert.ok(!/<script/i.test(html));
  // Backtick spans become <code>, and nothing else of the text is markup.
  assert.match(html, /<code>Idempotency-Key<\/code>/);
  assert.ok(html.includes('&lt;credential&gt;'), 'the `Bearer <credential>` placeholder is text, not a tag');
});
