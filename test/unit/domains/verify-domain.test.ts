import { test } from 'node:test';
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import { createResolver } from '../../../src/domains/create-resolver.js';
import { generateDkimKey } from '../../../src/domains/dkim-key.js';
import { RECORD_PURPOSES } from '../../../src/domains/dns-records.js';
import { verifyDomain } from '../../../src/domains/verify-domain.js';
import { hosts, selector, useDomainFixture } from './domain-fixture.js';

const fx = useDomainFixture();

test('all four checks pass with exactly the records domainRecords asks for', async () => {
  const records = fx.records('ok.example');
  fx.publish(records);
  const checks = await fx.verify('ok.example');
  assert.deepEqual(Object.keys(checks).sort(), [...RECORD_PURPOSES].sort());
  for (const record of records) {
    const check = checks[record.purpose];
    assert.equal(check.ok, true, `${record.purpose}: ${check.problem}`);
    assert.equal(check.problem, undefined);
    assert.equal(check.expected, record.value);
    assert.deepEqual(check.found, [record.value]);
  }
  // The 2048-bit key record crossed the wire whole (it is over 255 bytes, so in several strings).
  assert.ok(records[1].value.length > 400);
});

test('a domain with no records fails all four checks with found empty, without throwing', async () => {
  const checks = await fx.verify('nothing.example');
  for (const purpose of RECORD_PURPOSES) {
    assert.equal(checks[purpose].ok, false, purpose);
    assert.deepEqual(checks[purpose].found, [], purpose);
    assert.match(checks[purpose].problem ?? '', /^No /, purpose);
  }
});

test('a record changed between two verifications changes the result', async () => {
  fx.publish(fx.records('change.example'));
  const first = await fx.verify('change.example');
  assert.equal(first.dkim.ok, true);
  const other = await generateDkimKey();
  fx.zone[`${selector}._domainkey.change.example`] = { TXT: [[`v=DKIM1; k=rsa; p=${other.publicKeyB64}`]] };
  delete fx.zone['_dmarc.change.example'];
  const second = await fx.verify('change.example');
  assert.equal(second.dkim.ok, false);
  assert.match(second.dkim.problem ?? '', /different key/);
  assert.equal(second.dmarc.ok, false);
  assert.deepEqual(second.dmarc.found, []);
  assert.equal(second.spf.ok, true);
  assert.equal(second.return_path.ok, true);
});

test('SERVFAIL makes every check not ok with the error code, and verifyDomain does not throw', async () => {
  const records = fx.records('broken.example');
  for (const record of records) fx.zone[record.name] = { SERVFAIL: true };
  const checks = await fx.verify('broken.example');
  for (const purpose of RECORD_PURPOSES) {
    assert.equal(checks[purpose].ok, false, purpose);
    assert.equal(checks[purpose].problem, 'DNS lookup failed: ESERVFAIL', purpose);
    assert.deepEqual(checks[purpose].found, [], purpose);
  }
});

test('a DNS server that never answers gives ETIMEOUT, not an exception', async () => {
  const silent = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
  try {
    const resolver = createResolver([`127.0.0.1:${silent.address().port}`], { timeoutMs: 100, tries: 1 });
    const checks = await verifyDomain(resolver, {
      domain: 'ok.example',
      selector,
      publicKeyB64: fx.key.publicKeyB64,
      ...hosts,
    });
    for (const purpose of RECORD_PURPOSES)
      assert.equal(checks[purpose].problem, 'DNS lookup failed: ETIMEOUT', purpose);
  } finally {
    await new Promise<void>((resolve) => silent.close(resolve));
  }
});

test('the checks run concurrently: all four queries are in flight at once', async () => {
  let inFlight = 0;
  let peak = 0;
  const answer = async <T>(value: T): Promise<T> => {
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    inFlight -= 1;
    return value;
  };
  const slow = {
    resolveTxt: () => answer([] as string[][]),
    resolveCname: () => answer([] as string[]),
    resolveMx: () => answer([]),
    resolve4: () => answer([] as string[]),
    resolve6: () => answer([] as string[]),
  };
  const checks = await verifyDomain(slow, { domain: 'x.example', selector, publicKeyB64: 'AAAA', ...hosts });
  assert.equal(peak, 4);
  assert.equal(checks.spf.ok, false);
});
