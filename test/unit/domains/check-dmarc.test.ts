import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useDomainFixture } from './domain-fixture.js';

const fx = useDomainFixture();

/** Publishes the given TXT records at _dmarc.<domain> and verifies the domain. */
async function dmarcWith(domain: string, ...txt: string[]) {
  fx.zone[`_dmarc.${domain}`] = { TXT: txt.map((value) => [value]) };
  return (await fx.verify(domain)).dmarc;
}

test('no DMARC record: not ok, names the record to add', async () => {
  fx.zone['_dmarc.nodmarc.example'] = { TXT: [['not dmarc']] };
  const { dmarc } = await fx.verify('nodmarc.example');
  assert.equal(dmarc.ok, false);
  assert.deepEqual(dmarc.found, ['not dmarc']);
  assert.equal(dmarc.expected, 'v=DMARC1; p=none; adkim=r; aspf=r');
  assert.match(dmarc.problem ?? '', /No DMARC record at _dmarc\.nodmarc\.example/);
});

test('an unknown policy in p: not ok, names the tag and the value', async () => {
  const dmarc = await dmarcWith('badp.example', 'v=DMARC1; p=monitor');
  assert.equal(dmarc.ok, false);
  assert.deepEqual(dmarc.found, ['v=DMARC1; p=monitor']);
  assert.match(dmarc.problem ?? '', /p must be one of none, quarantine, reject, not "monitor"/);
});

test('pct over 100: not ok', async () => {
  const dmarc = await dmarcWith('badpct.example', 'v=DMARC1; p=reject; pct=150');
  assert.equal(dmarc.ok, false);
  assert.match(dmarc.problem ?? '', /pct must be 0 to 100, not "150"/);
});

test('two DMARC records: not ok, receivers would apply none', async () => {
  const dmarc = await dmarcWith('twodmarc.example', 'v=DMARC1; p=none', 'v=DMARC1; p=reject');
  assert.equal(dmarc.ok, false);
  assert.equal(dmarc.found.length, 2);
  assert.match(dmarc.problem ?? '', /has 2 DMARC records/);
});

test('a full valid record with rua passes; unknown tags are warnings only', async () => {
  const record =
    'v=DMARC1; p=Quarantine; sp=reject; pct=50; rua=mailto:d@example.com!10m, mailto:x@y.test; ' +
    'ruf=mailto:f@example.com; fo=1:d; rf=afrf; ri=3600; adkim=s; aspf=r; np=reject;';
  const dmarc = await dmarcWith('full.example', record, 'unrelated text');
  assert.equal(dmarc.ok, true, dmarc.problem);
  assert.deepEqual(dmarc.warnings, ['unknown tag np is ignored (RFC 7489 §6.3)']);
  assert.equal(dmarc.found.length, 2);
});

test('the record from domainRecords passes without warnings', async () => {
  fx.publish(fx.records('ours.example').filter((r) => r.purpose === 'dmarc'));
  const { dmarc } = await fx.verify('ours.example');
  assert.equal(dmarc.ok, true, dmarc.problem);
  assert.equal(dmarc.warnings, undefined);
});
