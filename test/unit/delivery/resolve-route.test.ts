import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import { createResolver } from '../../../src/domains/create-resolver.js';
import type { DnsResolver } from '../../../src/core/dns-resolver.js';
import { parseRelayHost, resolveRoute, type Route } from '../../../src/delivery/resolve-route.js';
import { startDnsServer, type DnsServer } from '../../helpers/dns-server.js';

const direct = { mxPort: 2525, relayHost: null };

let server: DnsServer;
let resolver: DnsResolver;

before(async () => {
  server = await startDnsServer({
    'mx.example': {
      MX: [
        { exchange: 'backup.mx.example', priority: 20 },
        { exchange: 'MX1.Example.', priority: 5 },
        { exchange: 'mx2.example', priority: 10 },
      ],
    },
    'nullmx.example': { MX: [{ exchange: '.', priority: 0 }], A: ['192.0.2.10'] },
    'mixed-null.example': {
      MX: [
        { exchange: '.', priority: 0 },
        { exchange: 'real.mixed-null.example', priority: 10 },
      ],
    },
    'address-only.example': { A: ['127.0.0.1'] },
    'v6-only.example': { AAAA: ['::1'] },
    'alias.example': { CNAME: ['address-only.example'] },
    'nothing.example': { TXT: ['v=spf1 -all'] },
    'literal-mx.example': {
      MX: [
        { exchange: '127.0.0.1', priority: 10 },
        { exchange: 'localhost', priority: 20 },
      ],
    },
    'broken.example': { SERVFAIL: true },
    'half-broken.example': { TXT: ['no mail records here'] },
    'dup.example': {
      MX: [
        { exchange: 'a.dup.example', priority: 10 },
        { exchange: 'a.dup.example', priority: 30 },
        { exchange: 'b.dup.example', priority: 20 },
      ],
    },
    'ties.example': {
      MX: [
        { exchange: 'one.ties.example', priority: 10 },
        { exchange: 'two.ties.example', priority: 10 },
        { exchange: 'three.ties.example', priority: 10 },
      ],
    },
  });
  resolver = createResolver([server.address], { timeoutMs: 2000, tries: 1 });
});

after(() => server.close());

const hosts = (route: Route) => {
  assert.equal(route.kind, 'deliver', JSON.stringify(route));
  return route.kind === 'deliver' ? route.destinations : [];
};

test('MX hosts come sorted by preference, normalised, on the configured port', async () => {
  assert.deepEqual(hosts(await resolveRoute(resolver, 'mx.example', direct)), [
    { host: 'mx1.example', port: 2525 },
    { host: 'mx2.example', port: 2525 },
    { host: 'backup.mx.example', port: 2525 },
  ]);
});

test('the domain is looked up lower-cased and without its trailing dot', async () => {
  const route = await resolveRoute(resolver, 'MX.Example.', { mxPort: 25, relayHost: null });
  assert.deepEqual(
    hosts(route).map((d) => `${d.host}:${d.port}`),
    ['mx1.example:25', 'mx2.example:25', 'backup.mx.example:25'],
  );
});

test('a host listed twice is tried once, at its best preference', async () => {
  assert.deepEqual(
    hosts(await resolveRoute(resolver, 'dup.example', direct)).map((d) => d.host),
    ['a.dup.example', 'b.dup.example'],
  );
});

test('equal preferences keep the answer order, or are shuffled by the given random source (RFC 5321 §5.1)', async () => {
  assert.deepEqual(
    hosts(await resolveRoute(resolver, 'ties.example', direct)).map((d) => d.host),
    ['one.ties.example', 'two.ties.example', 'three.ties.example'],
  );
  const draws = [0.9, 0.1, 0.5];
  const random = () => draws.shift() ?? 0;
  assert.deepEqual(
    hosts(await resolveRoute(resolver, 'ties.example', { ...direct, random })).map((d) => d.host),
    ['two.ties.example', 'three.ties.example', 'one.ties.example'],
  );
});

test('IP-literal and localhost exchanges pass through unchanged', async () => {
  assert.deepEqual(hosts(await resolveRoute(resolver, 'literal-mx.example', direct)), [
    { host: '127.0.0.1', port: 2525 },
    { host: 'localhost', port: 2525 },
  ]);
});

test('a null MX (RFC 7505 §3) is rejected even though the domain has an address record', async () => {
  assert.deepEqual(await resolveRoute(resolver, 'nullmx.example', direct), {
    kind: 'reject',
    reason: 'domain does not accept mail (null MX)',
  });
});

test('a null MX beside real MX records is ignored', async () => {
  assert.deepEqual(hosts(await resolveRoute(resolver, 'mixed-null.example', direct)), [
    { host: 'real.mixed-null.example', port: 2525 },
  ]);
});

test('a domain that does not exist (NXDOMAIN) is rejected', async () => {
  assert.deepEqual(await resolveRoute(resolver, 'no-such-domain.example', direct), {
    kind: 'reject',
    reason: 'domain does not exist',
  });
});

test('no MX but an A record: the domain is its own implicit MX (RFC 5321 §5.1)', async () => {
  assert.deepEqual(hosts(await resolveRoute(resolver, 'address-only.example', direct)), [
    { host: 'address-only.example', port: 2525 },
  ]);
});

test('no MX but an AAAA record: implicit MX too', async () => {
  assert.deepEqual(hosts(await resolveRoute(resolver, 'v6-only.example', direct)), [
    { host: 'v6-only.example', port: 2525 },
  ]);
});

test('a CNAME to a host without MX falls back to the address records', async () => {
  assert.deepEqual(hosts(await resolveRoute(resolver, 'alias.example', direct)), [
    { host: 'alias.example', port: 2525 },
  ]);
});

test('no MX and no address record: rejected as no mail host', async () => {
  assert.deepEqual(await resolveRoute(resolver, 'nothing.example', direct), { kind: 'reject', reason: 'no mail host' });
});

test('SERVFAIL defers with the code', async () => {
  assert.deepEqual(await resolveRoute(resolver, 'broken.example', direct), {
    kind: 'defer',
    reason: 'MX lookup failed: ESERVFAIL',
  });
});

test('an address lookup that fails during the implicit-MX fallback defers', async () => {
  const flaky: DnsResolver = {
    ...bind(resolver),
    resolve6: async () => Promise.reject(Object.assign(new Error('x'), { code: 'ESERVFAIL' })),
  };
  assert.deepEqual(await resolveRoute(flaky, 'half-broken.example', direct), {
    kind: 'defer',
    reason: 'address lookup failed: ESERVFAIL',
  });
});

test('a malformed domain name is rejected rather than retried', async () => {
  assert.deepEqual(await resolveRoute(resolver, 'a..b.example', direct), {
    kind: 'reject',
    reason: 'invalid domain name',
  });
});

test('a resolver that never answers: deferred with ETIMEOUT', async () => {
  const silent = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', () => resolve()));
  try {
    const mute = createResolver([`127.0.0.1:${silent.address().port}`], { timeoutMs: 50, tries: 1 });
    assert.deepEqual(await resolveRoute(mute, 'mx.example', direct), {
      kind: 'defer',
      reason: 'MX lookup failed: ETIMEOUT',
    });
  } finally {
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  }
});

test('a relay host takes everything, without asking DNS', async () => {
  const noDns: DnsResolver = new Proxy({} as DnsResolver, {
    get: () => () => assert.fail('DNS must not be asked when a relay host is set'),
  });
  const route = await resolveRoute(noDns, 'broken.example', { mxPort: 25, relayHost: 'Smarthost.Example:2525' });
  assert.deepEqual(route, { kind: 'deliver', destinations: [{ host: 'smarthost.example', port: 2525 }] });
});

test('relay host forms: host:port, [v6]:port, and a host alone on the MX port', () => {
  assert.deepEqual(parseRelayHost('127.0.0.1:1025', 25), { host: '127.0.0.1', port: 1025 });
  assert.deepEqual(parseRelayHost('[::1]:2525', 25), { host: '::1', port: 2525 });
  assert.deepEqual(parseRelayHost('[2001:db8::1]', 25), { host: '2001:db8::1', port: 25 });
  assert.deepEqual(parseRelayHost('relay.example.', 587), { host: 'relay.example', port: 587 });
  assert.deepEqual(parseRelayHost('2001:db8::25', 25), { host: '2001:db8::25', port: 25 });
  assert.throws(() => parseRelayHost('relay.example:0', 25), /out of range/);
  assert.throws(() => parseRelayHost('relay.example:smtp', 25), /host:port/);
});

/** The resolver's methods bound, so they can be spread into a partial double. */
function bind(r: DnsResolver): DnsResolver {
  return {
    resolveTxt: r.resolveTxt.bind(r),
    resolveCname: r.resolveCname.bind(r),
    resolveMx: r.resolveMx.bind(r),
    resolve4: r.resolve4.bind(r),
    resolve6: r.resolve6.bind(r),
  };
}
