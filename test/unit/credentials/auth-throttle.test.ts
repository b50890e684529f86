// The SMTP AUTH brute-force brake: slowed after a few failures, refused (421) after many, per
// remote address (IPv6 per /64), driven only by the `now` it is given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressKey, createAuthThrottle, type AuthThrottleOptions } from '../../../src/credentials/auth-throttle.js';

const MIN = 60_000;
const OPTIONS: AuthThrottleOptions = {
  slowAfter: 3,
  blockAfter: 10,
  windowMs: 15 * MIN,
  blockMs: 15 * MIN,
  maxDelayMs: 5000,
};
const T0 = 1_800_000_000_000;
const IP = '198.51.100.7';

/** Records `n` failures from `ip`, one second apart from `start`; returns the time of the last. */
function fail(t: ReturnType<typeof createAuthThrottle>, ip: string, n: number, start = T0): number {
  for (let i = 0; i < n; i++) t.failure(ip, start + i * 1000);
  return start + (n - 1) * 1000;
}

test('the first failures cost nothing; the delay then doubles from 250 ms up to the cap', () => {
  const t = createAuthThrottle(OPTIONS);
  assert.deepEqual(t.check(IP, T0), { allowed: true, delayMs: 0 });
  const delays: number[] = [];
  for (let i = 0; i < 9; i++) {
    t.failure(IP, T0 + i * 1000);
    const v = t.check(IP, T0 + i * 1000 + 1);
    assert.equal(v.allowed, true);
    if (v.allowed) delays.push(v.delayMs);
  }
  assert.deepEqual(delays, [0, 0, 250, 500, 1000, 2000, 4000, 5000, 5000]);
});

test('after blockAfter failures the address is refused until blockMs has passed, then starts afresh', () => {
  const t = createAuthThrottle(OPTIONS);
  const last = fail(t, IP, 10);
  assert.deepEqual(t.check(IP, last), { allowed: false, retryAfterMs: 15 * MIN });
  assert.deepEqual(t.check(IP, last + 15 * MIN - 1), { allowed: false, retryAfterMs: 1 });
  assert.deepEqual(t.check(IP, last + 15 * MIN), { allowed: true, delayMs: 0 });
  // A fresh start: one more failure is free again, and it takes ten more to block.
  t.failure(IP, last + 15 * MIN);
  assert.deepEqual(t.check(IP, last + 15 * MIN + 1), { allowed: true, delayMs: 0 });
});

test('failures older than the window no longer count', () => {
  const t = createAuthThrottle(OPTIONS);
  const last = fail(t, IP, 5);
  assert.deepEqual(t.check(IP, last + 1), { allowed: true, delayMs: 1000 });
  // 15 minutes after the first failure it drops out; after the last, all have.
  assert.deepEqual(t.check(IP, T0 + 15 * MIN), { allowed: true, delayMs: 500 });
  assert.deepEqual(t.check(IP, last + 15 * MIN), { allowed: true, delayMs: 0 });
  // Nine failures spread so that no window holds ten never block.
  const spread = createAuthThrottle(OPTIONS);
  for (let i = 0; i < 30; i++) spread.failure(IP, T0 + i * 2 * MIN);
  assert.equal(spread.check(IP, T0 + 60 * MIN).allowed, true);
});

test('a success clears the address', () => {
  const t = createAuthThrottle(OPTIONS);
  const last = fail(t, IP, 7);
  assert.deepEqual(t.check(IP, last), { allowed: true, delayMs: 4000 });
  t.success(IP, last + 1);
  assert.deepEqual(t.check(IP, last + 2), { allowed: true, delayMs: 0 });
  assert.equal(t.size(), 0);
});

test('another address is unaffected: the real user elsewhere is never locked out', () => {
  const t = createAuthThrottle(OPTIONS);
  const last = fail(t, IP, 10);
  assert.equal(t.check(IP, last).allowed, false);
  assert.deepEqual(t.check('198.51.100.8', last), { allowed: true, delayMs: 0 });
  assert.deepEqual(t.check('2001:db8:1::1', last), { allowed: true, delayMs: 0 });
  // An IPv4-mapped IPv6 address (a dual-stack socket) is the same IPv4 address.
  assert.equal(t.check(`::ffff:${IP}`, last).allowed, false);
});

test('IPv6 addresses count per /64', () => {
  const t = createAuthThrottle(OPTIONS);
  for (let i = 0; i < 10; i++) t.failure(`2001:db8:aa:bb::${(i + 1).toString(16)}`, T0 + i);
  assert.equal(t.check('2001:db8:aa:bb:ffff:1:2:3', T0 + 10).allowed, false);
  assert.equal(t.check('2001:0db8:00aa:00bb::dead:beef', T0 + 10).allowed, false);
  assert.deepEqual(t.check('2001:db8:aa:bc::1', T0 + 10), { allowed: true, delayMs: 0 });
  assert.equal(t.size(), 1);
});

test('addressKey: IPv4 as is, IPv6 as its canonical /64, anything else verbatim', () => {
  assert.equal(addressKey('192.0.2.1'), '192.0.2.1');
  assert.equal(addressKey('::ffff:192.0.2.1'), '192.0.2.1');
  assert.equal(addressKey('2001:DB8:0:0:1:2:3:4'), '2001:db8:0:0::/64');
  assert.equal(addressKey('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
  assert.equal(addressKey('::1'), '0:0:0:0::/64');
  assert.equal(addressKey('64:ff9b::192.0.2.1'), '64:ff9b:0:0::/64');
  assert.equal(addressKey('not-an-address'), 'not-an-address');
});

test('memory is bounded: expired records are swept, and at most maxEntries are kept', () => {
  const t = createAuthThrottle(OPTIONS);
  for (let i = 0; i < 500; i++) t.failure(`203.0.113.${i % 250}`, T0 + i);
  for (let i = 0; i < 10; i++) t.failure('192.0.2.99', T0 + 1000 + i);
  assert.equal(t.size(), 251);
  // After the window, failures have aged out, but the block still holds: only it remains.
  t.check('192.0.2.1', T0 + 1009 + 15 * MIN - 1);
  assert.equal(t.size(), 1);
  assert.equal(t.check('192.0.2.99', T0 + 1009 + 15 * MIN - 1).allowed, false);
  // After the block, nothing remains, even without calling sweep directly.
  t.failure('192.0.2.2', T0 + 1009 + 30 * MIN);
  assert.equal(t.size(), 1);

  const capped = createAuthThrottle({ ...OPTIONS, maxEntries: 100 });
  const addr = (i: number) => `10.0.${Math.floor(i / 256)}.${i % 256}`;
  for (let i = 0; i < 300; i++) fail(capped, addr(i), 4, T0 + i);
  assert.equal(capped.size(), 100);
  // The least recently failing are the ones forgotten; the latest are kept.
  assert.deepEqual(capped.check(addr(299), T0 + 4000), { allowed: true, delayMs: 500 });
  assert.deepEqual(capped.check(addr(200), T0 + 4000), { allowed: true, delayMs: 500 });
  assert.deepEqual(capped.check(addr(0), T0 + 4000), { allowed: true, delayMs: 0 });
});
