import { BlockList, isIP } from 'node:net';

/** One range a webhook may not be delivered to, and why. */
interface BlockedRange {
  network: string;
  prefix: number;
  why: string;
}

/**
 * IPv4 ranges that are not public unicast (IANA IPv4 Special-Purpose Address Registry, RFC 6890).
 * Addresses embedded in IPv6 forms (mapped, compatible, NAT64, 6to4) are checked against this too.
 */
export const BLOCKED_V4: readonly BlockedRange[] = [
  { network: '0.0.0.0', prefix: 8, why: '"this network", incl. 0.0.0.0 unspecified (RFC 791, RFC 1122 §3.2.1.3)' },
  { network: '10.0.0.0', prefix: 8, why: 'private (RFC 1918)' },
  {
    network: '100.64.0.0',
    prefix: 10,
    why: 'carrier-grade NAT shared space (RFC 6598); 100.100.100.200 is a cloud metadata address',
  },
  { network: '127.0.0.0', prefix: 8, why: 'loopback (RFC 1122 §3.2.1.3)' },
  { network: '169.254.0.0', prefix: 16, why: 'link-local (RFC 3927), incl. 169.254.169.254 cloud metadata' },
  { network: '172.16.0.0', prefix: 12, why: 'private (RFC 1918)' },
  { network: '192.0.0.0', prefix: 24, why: 'IETF protocol assignments (RFC 6890 §2.1)' },
  { network: '192.0.2.0', prefix: 24, why: 'documentation TEST-NET-1 (RFC 5737)' },
  { network: '192.88.99.0', prefix: 24, why: '6to4 relay anycast, deprecated (RFC 7526)' },
  { network: '192.168.0.0', prefix: 16, why: 'private (RFC 1918)' },
  { network: '198.18.0.0', prefix: 15, why: 'benchmarking (RFC 2544)' },
  { network: '198.51.100.0', prefix: 24, why: 'documentation TEST-NET-2 (RFC 5737)' },
  { network: '203.0.113.0', prefix: 24, why: 'documentation TEST-NET-3 (RFC 5737)' },
  { network: '224.0.0.0', prefix: 4, why: 'multicast (RFC 5771)' },
  { network: '240.0.0.0', prefix: 4, why: 'reserved (RFC 1112 §4), incl. 255.255.255.255 limited broadcast (RFC 919)' },
];

/**
 * IPv6 ranges that are not public unicast (IANA IPv6 Special-Purpose Address Registry, RFC 6890).
 * The forms that embed an IPv4 address are not here: they are unwrapped and judged by BLOCKED_V4.
 */
export const BLOCKED_V6: readonly BlockedRange[] = [
  // Everything outside 2000::/3 is not assigned as global unicast (RFC 4291 §2.4); the entries
  // after these three name the well-known parts of that space so the table says what they are.
  { network: '::', prefix: 3, why: 'outside global unicast 2000::/3 (RFC 4291 §2.4)' },
  { network: '4000::', prefix: 2, why: 'outside global unicast 2000::/3 (RFC 4291 §2.4)' },
  { network: '8000::', prefix: 1, why: 'outside global unicast 2000::/3 (RFC 4291 §2.4)' },
  { network: '::', prefix: 128, why: 'unspecified (RFC 4291 §2.5.2)' },
  { network: '::1', prefix: 128, why: 'loopback (RFC 4291 §2.5.3)' },
  { network: '64:ff9b:1::', prefix: 48, why: 'local-use NAT64 (RFC 8215)' },
  { network: '100::', prefix: 64, why: 'discard-only (RFC 6666)' },
  { network: '2001::', prefix: 23, why: 'IETF protocol assignments incl. Teredo 2001::/32 (RFC 2928, RFC 4380)' },
  { network: '2001:db8::', prefix: 32, why: 'documentation (RFC 3849)' },
  { network: '3fff::', prefix: 20, why: 'documentation (RFC 9637)' },
  { network: '5f00::', prefix: 16, why: 'SRv6 SIDs (RFC 9602)' },
  { network: 'fc00::', prefix: 7, why: 'unique local, private (RFC 4193); fd00:ec2::254 is a cloud metadata address' },
  { network: 'fe80::', prefix: 10, why: 'link-local (RFC 4291 §2.5.6)' },
  { network: 'fec0::', prefix: 10, why: 'site-local, deprecated (RFC 3879)' },
  { network: 'ff00::', prefix: 8, why: 'multicast (RFC 4291 §2.7)' },
];

// Two lists, not one: a BlockList also matches an IPv4 address against IPv6 rules through its
// ::ffff: mapped form, so ::/3 would swallow every IPv4 address.
const blockedV4 = new BlockList();
for (const r of BLOCKED_V4) blockedV4.addSubnet(r.network, r.prefix, 'ipv4');
const blockedV6 = new BlockList();
for (const r of BLOCKED_V6) blockedV6.addSubnet(r.network, r.prefix, 'ipv6');

/**
 * True only for a public unicast IP address a webhook may be delivered to; false for loopback,
 * private, link-local (cloud metadata), CGNAT, multicast, reserved and documentation ranges, for
 * IPv6 forms that embed such an IPv4 address, and for anything that is not an IP address.
 */
export function isPublicAddress(ip: string): boolean {
  const address = ip.replace(/%.*$/, ''); // a zone id (fe80::1%eth0) does not change the range
  const family = isIP(address);
  if (family === 4) return !blockedV4.check(address, 'ipv4');
  if (family !== 6) return false;
  const bytes = ipv6Bytes(address);
  const embedded = embeddedV4(bytes);
  if (embedded !== undefined) return !blockedV4.check(embedded, 'ipv4');
  return !blockedV6.check(address, 'ipv6');
}

/**
 * The IPv4 address an IPv6 address carries, for the forms a socket or a translator turns into
 * IPv4 traffic: ::a.b.c.d compatible (RFC 4291 §2.5.5.1, also covers :: and ::1, which land in
 * 0/8), ::ffff:a.b.c.d mapped (RFC 4291 §2.5.5.2), ::ffff:0:a.b.c.d translated (RFC 2765), 64:ff9b::/96
 * NAT64 (RFC 6052) and 2002:aabb:ccdd::/16 6to4 (RFC 3056, address in bits 16–47).
 */
function embeddedV4(b: Uint8Array): string | undefined {
  const zeros = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
  const v4 = (at: number) => `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;
  if (zeros(0, 10) && ((b[10] === 0 && b[11] === 0) || (b[10] === 0xff && b[11] === 0xff))) return v4(12);
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && b[10] === 0 && b[11] === 0) return v4(12);
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return v4(12);
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2);
  return undefined;
}

/** The 16 bytes of a valid IPv6 address (already checked with isIP), dotted-quad tail included. */
function ipv6Bytes(address: string): Uint8Array {
  let text = address.toLowerCase();
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [
    ...headGroups,
    ...new Array<string>(8 - headGroups.length - tailGroups.length).fill('0'),
    ...tailGroups,
  ];
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    const n = parseInt(g, 16);
    bytes[i * 2] = n >> 8;
    bytes[i * 2 + 1] = n & 0xff;
  });
  return bytes;
}
