import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from '../../../src/webhooks/webhook-secret.js';
import { signWebhook } from '../../../src/webhooks/sign-webhook.js';
import { webhookPayload } from '../../../src/events/webhook-payload.js';
import type { EventRecord } from '../../../src/events/event-record.js';

const record: EventRecord = {
  id: 'evt_01JD8X4Y2Z3A4B5C6D7E8F9G0H',
  event: 'delivered',
  occurred_at: '2026-11-21T16:09:00.000Z',
  message_id: 'msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H',
  from: 'Shop <orders@shop.example>',
  to: 'ana@example.org',
  subject: 'Your order — ünïcode',
  tags: ['receipt', 'eu'],
  metadata: { order_id: '4711' },
  details: { smtp_reply: '250 2.0.0 OK' },
};
// standardwebhooks rejects timestamps more than five minutes from its own clock.
const nowSeconds = () => Math.floor(Date.now() / 1000);

test('a new secret is whsec_ + base64 of 32 bytes from the injected source', () => {
  const secret = newWebhookSecret((n) => Buffer.alloc(n, 7));
  assert.equal(secret, `whsec_${Buffer.alloc(32, 7).toString('base64')}`);
  assert.match(newWebhookSecret(randomBytes), /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.equal(Buffer.from(newWebhookSecret(randomBytes).slice(6), 'base64').length, 32);
  assert.throws(() => newWebhookSecret((n) => Buffer.alloc(n - 1)));
});

test('one secret: the signature verifies with standardwebhooks and returns the payload', () => {
  const secret = newWebhookSecret(randomBytes);
  const body = webhookPayload(record);
  const headers = signWebhook({ id: record.id, timestampSeconds: nowSeconds(), body, secrets: [secret] });
  assert.equal(headers['webhook-id'], record.id);
  assert.match(headers['webhook-timestamp'], /^\d+$/);
  assert.match(headers['webhook-signature'], /^v1,[A-Za-z0-9+/]{43}=$/);
  assert.deepEqual(new Webhook(secret).verify(body, { ...headers }), record);
});

test('our signature is byte-for-byte the one standardwebhooks computes', () => {
  const secret = newWebhookSecret(randomBytes);
  const ts = nowSeconds();
  const headers = signWebhook({ id: 'evt_1', timestampSeconds: ts, body: '{"a":1}', secrets: [secret] });
  assert.equal(headers['webhook-signature'], new Webhook(secret).sign('evt_1', new Date(ts * 1000), '{"a":1}'));
});

test('rotation: both secrets sign, two signatures are sent, and each verifies with its own secret', () => {
  const [next, old] = [newWebhookSecret(randomBytes), newWebhookSecret(randomBytes)];
  const body = webhookPayload(record);
  const headers = signWebhook({ id: record.id, timestampSeconds: nowSeconds(), body, secrets: [next, old] });
  const parts = headers['webhook-signature'].split(' ');
  assert.equal(parts.length, 2);
  assert.ok(parts.every((p) => p.startsWith('v1,')));
  assert.deepEqual(new Webhook(next).verify(body, { ...headers }), record);
  assert.deepEqual(new Webhook(old).verify(body, { ...headers }), record);
  // Each part alone verifies with exactly its own secret.
  assert.doesNotThrow(() => new Webhook(next).verify(body, { ...headers, 'webhook-signature': parts[0]! }));
  assert.doesNotThrow(() => new Webhook(old).verify(body, { ...headers, 'webhook-signature': parts[1]! }));
  assert.throws(() => new Webhook(old).verify(body, { ...headers, 'webhook-signature': parts[0]! }));
  assert.throws(() => new Webhook(newWebhookSecret(randomBytes)).verify(body, { ...headers }));
});

test('a tampered body, id or timestamp fails verification', () => {
  const secret = newWebhookSecret(randomBytes);
  const body = webhookPayload(record);
  const headers = signWebhook({ id: record.id, timestampSeconds: nowSeconds(), body, secrets: [secret] });
  const wh = new Webhook(secret);
  assert.throws(() => wh.verify(body.replace('delivered', 'bounced'), { ...headers }), /signature/i);
  assert.throws(() => wh.verify(body, { ...headers, 'webhook-id': 'evt_other' }), /signature/i);
  assert.throws(() => wh.verify(body, { ...headers, 'webhook-timestamp': String(nowSeconds() - 1) }), /signature/i);
});

test('signWebhook refuses no secrets and non-integer timestamps', () => {
  assert.throws(() => signWebhook({ id: 'e', timestampSeconds: 1, body: '{}', secrets: [] }), /at least one secret/);
  assert.throws(
    () => signWebhook({ id: 'e', timestampSeconds: 1.5, body: '{}', secrets: ['whsec_AAAA'] }),
    /whole Unix seconds/,
  );
});

test('the payload is the snake_case event record, with exactly its ten fields in order', () => {
  const body = webhookPayload({ ...record, extra: 'not sent' } as EventRecord);
  const parsed = JSON.parse(body) as Record<string, unknown>;
  assert.deepEqual(Object.keys(parsed), [
    'id',
    'event',
    'occurred_at',
    'message_id',
    'from',
    'to',
    'subject',
    'tags',
    'metadata',
    'details',
  ]);
  assert.deepEqual(parsed, record);
});
