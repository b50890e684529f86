import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeReturnPath } from '../../../src/delivery/return-path.js';
import { messageIdOf, readToken } from '../../../src/feedback/match-report.js';
import { FAILED_OUTCOMES, NO_EVENT_ACTIONS, reportOutcome } from '../../../src/feedback/report-outcome.js';
import { createClientRateLimit } from '../../../src/inbound/client-rate-limit.js';

test('failed: only the hard class suppresses; every class still records failed', () => {
  for (const cls of ['hard', 'block', 'soft', 'unknown'] as const) {
    const o = reportOutcome('dsn', { action: 'failed', class: cls });
    assert.equal(o.kind, 'failed');
    assert.equal(o.kind === 'failed' && o.suppress, cls === 'hard', cls);
    assert.equal(o.kind === 'failed' && o.bounceClass, cls);
  }
  assert.deepEqual(Object.keys(FAILED_OUTCOMES).sort(), ['block', 'hard', 'soft', 'unknown']);
});

test('delayed and the success actions never record anything, whatever the class', () => {
  for (const action of Object.keys(NO_EVENT_ACTIONS)) {
    for (const cls of ['hard', 'block', 'soft', 'unknown'] as const) {
      assert.equal(reportOutcome('bounce', { action, class: cls }).kind, 'none', `${action}/${cls}`);
    }
  }
  assert.equal(reportOutcome('dsn', { action: null, class: 'hard' }).kind, 'none', 'no action, no failure');
});

test('a complaint is complained; an unknown report is nothing', () => {
  assert.equal(reportOutcome('complaint', { action: null, class: 'complaint' }).kind, 'complained');
  assert.equal(reportOutcome('unknown', { action: 'failed', class: 'hard' }).kind, 'none');
});

test('readToken: ours and verified, ours and forged, not ours; the bounce host too', () => {
  const secret = Buffer.alloc(32, 7);
  const path = makeReturnPath(secret, 'rcp_01JD0000000000000000000001', 'acme.test');
  assert.deepEqual(readToken(secret, 'bounce.mail.example', path), {
    shaped: true,
    id: 'rcp_01JD0000000000000000000001',
  });
  assert.deepEqual(readToken(secret, 'bounce.mail.example', path.toUpperCase()), {
    shaped: true,
    id: 'rcp_01JD0000000000000000000001',
  });
  assert.deepEqual(readToken(secret, 'returns.example', path.replace(/@.*/, '@returns.example')), {
    shaped: true,
    id: 'rcp_01JD0000000000000000000001',
  });
  assert.deepEqual(readToken(Buffer.alloc(32, 8), 'bounce.mail.example', path), { shaped: true, id: null });
  assert.deepEqual(readToken(secret, 'bounce.mail.example', 'b-x@elsewhere.example'), { shaped: false, id: null });
  assert.deepEqual(readToken(secret, 'bounce.mail.example', 'fbl@bounce.mail.example'), { shaped: false, id: null });
});

test('messageIdOf: only <msg_…@{hostname}>', () => {
  assert.equal(
    messageIdOf('<msg_01jd0000000000000000000001@Mail.Example>', 'mail.example'),
    'msg_01JD0000000000000000000001',
  );
  assert.equal(messageIdOf('<msg_01JD0000000000000000000001@other.example>', 'mail.example'), null);
  assert.equal(messageIdOf('<custom-id@mail.example>', 'mail.example'), null);
  assert.equal(messageIdOf(null, 'mail.example'), null);
});

test("client rate limit: a minute's allowance as a burst, then one per interval", () => {
  const limit = createClientRateLimit(3);
  const t0 = 1_000_000;
  for (let i = 0; i < 3; i++) assert.equal(limit.take('192.0.2.1', t0).ok, true);
  const refused = limit.take('192.0.2.1', t0);
  assert.deepEqual(refused, { ok: false, retryAfterMs: 20_000 });
  assert.equal(limit.take('192.0.2.2', t0).ok, true, 'per IP');
  assert.equal(limit.take('192.0.2.1', t0 + 20_000).ok, true);
  assert.equal(limit.take('192.0.2.1', t0 + 20_000).ok, false);
});
