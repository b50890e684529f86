import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RefusedError } from '../../../src/core/refused-error.js';
import { checkWebhookUrl } from '../../../src/webhooks/check-webhook-url.js';
import { rotateSecrets, signingSecrets, type StoredSecret } from '../../../src/webhooks/endpoint-secrets.js';
import { deliveryId } from '../../../src/outbox/enqueue-webhooks.js';
import { nextWebhookAttempt } from '../../../src/webhooks/record-attempts.js';

const DAY = 86_400_000;

test('webhook URLs: https to a name or a public address passes; the rest is refused with the reason', () => {
  assert.equal(checkWebhookUrl('https://hooks.example.com/in?x=1', false), 'https://hooks.example.com/in?x=1');
  assert.equal(checkWebhookUrl('https://93.184.216.34/in', false), 'https://93.184.216.34/in');
  // The absolute form of a public name (one trailing dot) is still that name.
  assert.equal(checkWebhookUrl('https://hooks.example.com./in', false), 'https://hooks.example.com./in');
  const refused: [string, RegExp][] = [
    ['hooks.example.com/in', /is not an absolute URL/],
    ['ftp://hooks.example.com/', /must use https, not ftp/],
    ['http://hooks.example.com/', /must use https \(http is allowed only with POSTHORN_WEBHOOK_ALLOW_PRIVATE=1/],
    ['https://127.0.0.1/', /127\.0\.0\.1 is not a public address/],
    ['https://10.0.0.1/', /10\.0\.0\.1 is not a public address/],
    ['https://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is not a public address/],
    ['https://[::ffff:127.0.0.1]/', /::ffff:7f00:1 is not a public address/],
    ['https://2130706433/', /127\.0\.0\.1 is not a public address/],
    ['https://localhost:8080/', /localhost is loopback/],
    ['https://app.localhost/', /app\.localhost is loopback/],
    ['https://localhost./', /host localhost\. is loopback/],
    ['https://LocalHost.:8443/x', /host localhost\. is loopback/],
    ['https://localhost%2e/', /host localhost\. is loopback/],
    ['https://app.localhost./', /app\.localhost\. is loopback/],
    ['https://localhost../', /localhost\.\. is not a valid host name/],
    ['https://hooks..example.com/', /is not a valid host name/],
    ['https://localhost.localdomain/', /is loopback/],
    ['https://ip6-localhost/', /is loopback/],
    ['https://ip6-loopback./', /is loopback/],
    ['https://localhost6/', /is loopback/],
    ['https://127.0.0.1./', /127\.0\.0\.1 is not a public address/],
    ['https://127.1/', /127\.0\.0\.1 is not a public address/],
    ['https://0x7f.1/', /127\.0\.0\.1 is not a public address/],
    ['https://0/', /0\.0\.0\.0 is not a public address/],
    ['https://[::1]/', /::1 is not a public address/],
    ['https://[::]/', /:: is not a public address/],
    ['https://hooks.example.com/#frag', /must not have a #fragment/],
    [`https://hooks.example.com/${'a'.repeat(2100)}`, /characters long; the limit is 2048/],
  ];
  for (const [url, why] of refused) {
    assert.throws(
      () => checkWebhookUrl(url, false),
      (err: unknown) =>
        err instanceof RefusedError && err.reason === 'invalid' && err.field === 'url' && why.test(err.message),
      url,
    );
  }
});

test('with allow-private, http and loopback pass but other schemes still do not', () => {
  assert.equal(checkWebhookUrl('http://127.0.0.1:9000/hooks', true), 'http://127.0.0.1:9000/hooks');
  assert.equal(checkWebhookUrl('http://localhost/', true), 'http://localhost/');
  assert.throws(() => checkWebhookUrl('ftp://127.0.0.1/', true), /must use https, not ftp/);
});

test('rotation: the new secret signs first, the old one until the overlap ends, then it is dropped', () => {
  const start: StoredSecret[] = [{ secret: 'whsec_old', created_at: 0, expires_at: null }];
  const rotated = rotateSecrets(start, 'whsec_new', 10 * DAY, DAY);
  assert.deepEqual(rotated, [
    { secret: 'whsec_new', created_at: 10 * DAY, expires_at: null },
    { secret: 'whsec_old', created_at: 0, expires_at: 11 * DAY },
  ]);
  assert.deepEqual(signingSecrets(rotated, 10 * DAY), ['whsec_new', 'whsec_old']);
  assert.deepEqual(signingSecrets(rotated, 11 * DAY - 1), ['whsec_new', 'whsec_old']);
  assert.deepEqual(signingSecrets(rotated, 11 * DAY), ['whsec_new']);
  // A second rotation after the overlap drops the expired one for good.
  assert.deepEqual(
    rotateSecrets(rotated, 'whsec_third', 12 * DAY, DAY).map((s) => s.secret),
    ['whsec_third', 'whsec_new'],
  );
});

test('retry schedule: 2xx delivers; each failure waits the next step; after the last step it is given up', () => {
  const schedule = [5_000, 300_000, 1_800_000];
  assert.deepEqual(nextWebhookAttempt(true, 3, 100, schedule), { kind: 'delivered' });
  assert.deepEqual(nextWebhookAttempt(false, 1, 100, schedule), { kind: 'retry', at: 5_100 });
  assert.deepEqual(nextWebhookAttempt(false, 2, 100, schedule), { kind: 'retry', at: 300_100 });
  assert.deepEqual(nextWebhookAttempt(false, 3, 100, schedule), { kind: 'retry', at: 1_800_100 });
  assert.deepEqual(nextWebhookAttempt(false, 4, 100, schedule), { kind: 'failed' });
});

test('a delivery id is derived from its event or notice id', () => {
  assert.equal(deliveryId('evt_01JD8X4Y2Z3A4B5C6D7E8F9G0H'), 'whd_01JD8X4Y2Z3A4B5C6D7E8F9G0H');
  assert.equal(deliveryId('ntc_01JD8X4Y2Z3A4B5C6D7E8F9G0H'), 'whd_01JD8X4Y2Z3A4B5C6D7E8F9G0H');
});
