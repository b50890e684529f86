import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reverseName } from '../../src/doctor/doctor.js';

test('reverse-DNS names of IPv4 (RFC 1035 §3.5) and IPv6 (RFC 3596 §2.5) addresses', () => {
  assert.equal(reverseName('203.0.113.10'), '10.113.0.203.in-addr.arpa');
  assert.equal(reverseName('2001:db8::1'), '1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa');
  assert.equal(
    reverseName('2001:db8:1:2:3:4:5:6'),
    '6.0.0.0.5.0.0.0.4.0.0.0.3.0.0.0.2.0.0.0.1.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa',
  );
});
