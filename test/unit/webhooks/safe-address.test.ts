import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BLOCKED_V4, BLOCKED_V6, isPublicAddress } from '../../../src/webhooks/safe-address.js';

/** Addresses that must be refused, with the range they stand for. */
const refused: [string, string][] = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback /8'],
  ['::1', 'IPv6 loopback'],
  ['0.0.0.0', 'unspecified'],
  ['::', 'IPv6 unspecified'],
  ['10.0.0.1', '10/8'],
  ['10.255.255.255', '10/8 end'],
  ['172.16.0.1', '172.16/12'],
  ['172.31.255.255', '172.16/12 end'],
  ['192.168.1.1', '192.168/16'],
  ['fc00::1', 'unique local'],
  ['fd12:3456:789a::1', 'unique local fd'],
  ['fd00:ec2::254', 'AWS IPv6 metadata'],
  ['169.254.169.254', 'link-local metadata'],
  ['169.254.0.1', 'link-local'],
  ['fe80::1', 'IPv6 link-local'],
  ['fe80::1%eth0', 'IPv6 link-local with zone id'],
  ['febf::1', 'IPv6 link-local end'],
  ['100.64.0.1', 'CGNAT'],
  ['100.100.100.200', 'CGNAT (Alibaba metadata)'],
  ['100.127.255.255', 'CGNAT end'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['ff02::1', 'IPv6 multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['192.0.2.1', 'TEST-NET-1'],
  ['198.51.100.7', 'TEST-NET-2'],
  ['203.0.113.9', 'TEST-NET-3'],
  ['198.18.0.1', 'benchmarking'],
  ['2001:db8::1', 'IPv6 documentation'],
  ['3fff::1', 'IPv6 documentation (RFC 9637)'],
  ['fec0::1', 'site-local'],
  ['100::1', 'discard-only'],
  ['2001::1', 'Teredo'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback, dotted'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
  ['::FFFF:7F00:0001', 'IPv4-mapped loopback, upper case'],
  ['0:0:0:0:0:ffff:a00:1', 'IPv4-mapped 10.0.0.1, uncompressed'],
  ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
  ['::ffff:0:7f00:1', 'IPv4-translated loopback (RFC 2765)'],
  ['::127.0.0.1', 'IPv4-compatible loopback'],
  ['::a00:1', 'IPv4-compatible 10.0.0.1'],
  ['64:ff9b::7f00:1', 'NAT64 of loopback'],
  ['64:ff9b::10.0.0.1', 'NAT64 of 10/8'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of metadata'],
  ['64:ff9b:1::1', 'local-use NAT64'],
  ['2002:7f00:1::', '6to4 of loopback'],
  ['2002:c0a8:101::1', '6to4 of 192.168.1.1'],
  ['2002:a9fe:a9fe::', '6to4 of metadata'],
  ['::2:3:4', 'outside global unicast'],
  ['4000::1', 'outside global unicast'],
  ['localhost', 'not an IP address'],
  ['', 'empty'],
  ['1.2.3', 'not an IP address'],
];

/** Public addresses that must pass. */
const allowed = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '172.32.0.1',
  '172.15.255.255',
  '100.63.255.255',
  '100.128.0.1',
  '169.253.255.255',
  '192.169.0.1',
  '223.255.255.255',
  '2606:4700:4700::1111',
  '2001:4860:4860::8888',
  '2a00:1450:4001:80b::200e',
  '::ffff:8.8.8.8',
  '::ffff:808:808',
  '64:ff9b::8.8.8.8',
  '2002:808:808::1',
  '2001:200::1',
];

for (const [address, why] of refused) {
  test(`refused: ${address || '(empty)'} (${why})`, () => assert.equal(isPublicAddress(address), false));
}
for (const address of allowed) {
  test(`public: ${address}`, () => assert.equal(isPublicAddress(address), true));
}

test('every range in the tables refuses its first address and says why', () => {
  for (const r of [...BLOCKED_V4, ...BLOCKED_V6]) {
    assert.ok(r.why.length > 0);
    if (r.network !== '::') assert.equal(isPublicAddress(r.network), false, `${r.network}/${r.prefix}`);
  }
});
