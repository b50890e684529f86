import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createIds } from '../../../src/core/ids.js';
import { newEvent, toEventRecord, toEventRow, type EventMessage } from '../../../src/events/event-record.js';

const AT = Date.UTC(2026, 10, 25, 21, 0, 0, 123);

const message: EventMessage = {
  id: 'msg_01JD8Z3V5X6Y7Z8A9B0C1D2E3F',
  accountId: 'acc_01JD8Z3V5X6Y7Z8A9B0C1D2E3F',
  domainId: 'dom_01JD8Z3V5X6Y7Z8A9B0C1D2E3F',
  from: 'orders@example.com',
  subject: 'Your receipt',
  tags: ['receipt', 'eu'],
  metadata: { order_id: '4711' },
};

test('newEvent: a fresh evt_ id of the time it happened, the message columns, the recipient and details', () => {
  const ids = createIds();
  const e = newEvent(ids, message, {
    event: 'delivered',
    recipient: 'ana@example.org',
    at: AT,
    details: { smtp_code: 250 },
  });
  assert.match(e.id, /^evt_[0-9A-Za-z]{26}$/);
  const { id, ...rest } = e;
  assert.deepEqual(rest, {
    accountId: message.accountId,
    domainId: message.domainId,
    messageId: message.id,
    event: 'delivered',
    recipient: 'ana@example.org',
    from: 'orders@example.com',
    subject: 'Your receipt',
    tags: ['receipt', 'eu'],
    metadata: { order_id: '4711' },
    details: { smtp_code: 250 },
    occurredAt: AT,
  });
  assert.ok(!('suppress' in e), 'no suppress key unless asked for');
  const second = newEvent(ids, message, { event: 'opened', recipient: 'ana@example.org', at: AT });
  assert.notEqual(second.id, id, 'each event gets its own id');
  assert.deepEqual(second.details, {}, 'details default to {}');
});

test('newEvent keeps an explicit suppress, false included (a complaint that must not suppress)', () => {
  const ids = createIds();
  const hard = newEvent(ids, message, { event: 'failed', recipient: 'a@example.org', at: AT, suppress: 'hard_bounce' });
  assert.equal(hard.suppress, 'hard_bounce');
  const kept = newEvent(ids, message, { event: 'complained', recipient: 'a@example.org', at: AT, suppress: false });
  assert.equal(kept.suppress, false);
});

test('the stored row reads back as the API record (docs/api.md, GET /v1/events)', () => {
  const e = newEvent(createIds(), message, {
    event: 'rejected-by-system',
    recipient: 'bob@example.net',
    at: AT,
    details: { reason: 'suppressed' },
  });
  const row = toEventRow(e);
  assert.equal(row.tags, '["receipt","eu"]');
  assert.equal(row.details, '{"reason":"suppressed"}');
  assert.equal(row.metadata, '{"order_id":"4711"}');
  assert.deepEqual(toEventRecord(row), {
    id: e.id,
    event: 'rejected-by-system',
    occurred_at: '2026-11-25T21:00:00.123Z',
    message_id: message.id,
    from: 'orders@example.com',
    to: 'bob@example.net',
    subject: 'Your receipt',
    tags: ['receipt', 'eu'],
    metadata: { order_id: '4711' },
    details: { reason: 'suppressed' },
  });
});

test('metadata reads back leniently: a damaged or non-object value is {}, non-string values are dropped', () => {
  const e = newEvent(createIds(), message, { event: 'delivered', recipient: 'a@example.org', at: AT });
  const row = toEventRow(e);
  assert.deepEqual(toEventRecord({ ...row, metadata: '{' }).metadata, {});
  assert.deepEqual(toEventRecord({ ...row, metadata: '["a"]' }).metadata, {});
  assert.deepEqual(toEventRecord({ ...row, metadata: '{"a":"1","b":2}' }).metadata, { a: '1' });
});
