import { test } from 'node:test';
import assert from 'node:assert/strict';
import { feedbackId, feedbackIdField } from '../../../src/delivery/feedback-id.js';

const m = { tags: ['welcome'], accountId: 'acc_01JD3Q6W8V4Z1T2N5R7X9K0M4B', domain: 'acme.example' };

test("Gmail's format: campaign:account:domain:SenderId, four fields", () => {
  assert.equal(feedbackId(m, 'posthorn'), 'welcome:acc_01JD3Q6W8V4Z1T2N5R7X9K0M4B:acme.example:posthorn');
  assert.equal(feedbackIdField(m, 'ph'), 'Feedback-ID: welcome:acc_01JD3Q6W8V4Z1T2N5R7X9K0M4B:acme.example:ph\r\n');
});

test('the first tag is the campaign; none: untagged', () => {
  assert.equal(feedbackId({ ...m, tags: ['a', 'b'] }, 'x').split(':')[0], 'a');
  assert.equal(feedbackId({ ...m, tags: [] }, 'x').split(':')[0], 'untagged');
});

test('colons, spaces, control and non-ASCII characters in a value never add a field or break the header', () => {
  const value = feedbackId({ ...m, tags: ['spring:sale 2026\r\nBcc: x@y', 'ünïcode'] }, 'x');
  assert.equal(value.split(':').length, 4);
  assert.equal(value.split(':')[0], 'spring_sale_2026__Bcc__x@y');
  assert.doesNotMatch(value, /[^\x21-\x7e]/);
  assert.equal(feedbackId({ ...m, tags: ['é'] }, 'x').split(':')[0], '_');
  assert.equal(feedbackId({ ...m, tags: ['t'.repeat(200)] }, 'x').split(':')[0]!.length, 64);
});
