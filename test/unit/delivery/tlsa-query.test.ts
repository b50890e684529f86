import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { queryTlsa } from '../../../src/delivery/security/tlsa-query.js';
import { startDnsServer, type DnsServer } from '../../helpers/dns-server.js';

// The TLSA client against the loopback DNS server: the AD bit is what a validating resolver sets
// for DNSSEC-secure answers (RFC 4035 §3.2.3), and DANE acts only on answers that carry it.
let dns: DnsServer;
const record = (byte: number) => ({ usage: 3, selector: 1, matchingType: 1, data: Buffer.alloc(32, byte) });

before(async () => {
  dns = await startDnsServer({
    '_25._tcp.mx.signed.test': { TLSA: [record(1), record(2)], AD: true },
    '_25._tcp.mx.unsigned.test': { TLSA: [record(3)] },
    // More records than fit in 1232 bytes of UDP: the answer comes truncated, and again over TCP.
    '_25._tcp.mx.big.test': { TLSA: Array.from({ length: 40 }, (_, i) => record(i)), AD: true },
    '_25._tcp.mx.broken.test': { SERVFAIL: true },
    'mx.none.test': { A: ['192.0.2.1'] },
  });
});
after(() => dns.close());

test('an authenticated answer: the records and authenticated = true', async () => {
  const answer = await queryTlsa([dns.address], '_25._tcp.mx.signed.test');
  assert.equal(answer.authenticated, true);
  assert.deepEqual(answer.records, [record(1), record(2)]);
});

test('the same records without AD are not authenticated', async () => {
  const answer = await queryTlsa([dns.address], '_25._tcp.mx.unsigned.test');
  assert.deepEqual(answer, { authenticated: false, records: [record(3)] });
});

test('a truncated UDP answer is asked again over TCP', async () => {
  const answer = await queryTlsa([dns.address], '_25._tcp.mx.big.test');
  assert.equal(answer.authenticated, true);
  assert.equal(answer.records.length, 40);
  assert.deepEqual(answer.records[39], record(39));
});

test('NXDOMAIN gives no records; SERVFAIL and a silent server reject with a code', async () => {
  assert.deepEqual(await queryTlsa([dns.address], '_25._tcp.mx.none.test'), { authenticated: false, records: [] });
  await assert.rejects(queryTlsa([dns.address], '_25._tcp.mx.broken.test'), {
    code: 'ESERVFAIL',
    message: 'TLSA lookup of _25._tcp.mx.broken.test: SERVFAIL',
  });
  // A port nothing answers on (the DNS server's, once closed by another test server) times out.
  const silent = await startDnsServer({});
  const address = silent.address;
  await silent.close();
  await assert.rejects(queryTlsa([address], '_25._tcp.mx.signed.test', 300), { code: 'ETIMEOUT' });
});
