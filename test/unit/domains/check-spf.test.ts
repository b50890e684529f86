import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DomainRecord } from '../../../src/domains/dns-records.js';
import { useDomainFixture } from './domain-fixture.js';

const fx = useDomainFixture();

/** Publishes everything but SPF for `domain`, then the given TXT records at the domain itself. */
function publishWithSpf(domain: string, ...txt: string[]): DomainRecord {
  const [spf, ...rest] = fx.records(domain);
  fx.publish(rest);
  fx.zone[domain] = { ...fx.zone[domain], TXT: txt.map((value) => [value]) };
  return spf;
}

test('no SPF record: not ok, found lists the TXT records that are there', async () => {
  const expected = publishWithSpf('nospf.example', 'google-site-verification=abc');
  const { spf } = await fx.verify('nospf.example');
  assert.equal(spf.ok, false);
  assert.equal(spf.expected, expected.value);
  assert.deepEqual(spf.found, ['google-site-verification=abc']);
  assert.match(spf.problem ?? '', /No SPF record at nospf\.example/);
});

test('"v=spf10" is not an SPF record: the version must end at a space', async () => {
  publishWithSpf('spf10.example', 'v=spf10 include:spf.posthorn.test ~all');
  const { spf } = await fx.verify('spf10.example');
  assert.equal(spf.ok, false);
  assert.match(spf.problem ?? '', /No SPF record/);
});

test('two SPF records: not ok, a permanent error per RFC 7208 §4.5', async () => {
  publishWithSpf('twospf.example', 'v=spf1 include:spf.posthorn.test ~all', 'V=SPF1 mx -all');
  const { spf } = await fx.verify('twospf.example');
  assert.equal(spf.ok, false);
  assert.equal(spf.found.length, 2);
  assert.match(spf.problem ?? '', /has 2 SPF records/);
});

test('an SPF record without our include: not ok, says which include is missing', async () => {
  fx.zone['_spf.other.test'] = { TXT: [['v=spf1 ip4:198.51.100.0/24 -all']] };
  publishWithSpf('noinclude.example', 'v=spf1 include:_spf.other.test ~all');
  const { spf } = await fx.verify('noinclude.example');
  assert.equal(spf.ok, false);
  assert.deepEqual(spf.found, ['v=spf1 include:_spf.other.test ~all']);
  assert.match(spf.problem ?? '', /does not have include:spf\.posthorn\.test/);
});

test('our include with the "-" qualifier fails; with "?" or "~" it passes', async () => {
  publishWithSpf('minus.example', 'v=spf1 -include:spf.posthorn.test ~all');
  assert.match((await fx.verify('minus.example')).spf.problem ?? '', /-include:spf\.posthorn\.test/);
  publishWithSpf('soft.example', 'v=spf1 ~include:spf.posthorn.test ?all');
  assert.equal((await fx.verify('soft.example')).spf.ok, true);
});

test('our include is matched case-insensitively and with a trailing dot', async () => {
  publishWithSpf('case.example', 'v=spf1 mx +include:SPF.Posthorn.Test. -all');
  const { spf } = await fx.verify('case.example');
  assert.equal(spf.ok, true, spf.problem);
});

test('our include after "all" is never evaluated, so it fails', async () => {
  publishWithSpf('late.example', 'v=spf1 -all include:spf.posthorn.test');
  const { spf } = await fx.verify('late.example');
  assert.equal(spf.ok, false);
  assert.match(spf.problem ?? '', /after "all"/);
});

test('nested includes over 10 lookups: not ok with the count; exactly 10 passes', async () => {
  // 3 (include, include, mx) + n1: 3 (a, mx, include) + n2: 4 (a, mx, exists, redirect) + n3: 3 = 13.
  fx.zone['n1.lookups.test'] = { TXT: [['v=spf1 a mx include:n2.lookups.test ~all']] };
  fx.zone['n2.lookups.test'] = { TXT: [['v=spf1 a mx exists:%{i}.x.test redirect=n3.lookups.test']] };
  fx.zone['n3.lookups.test'] = { TXT: [['v=spf1 a mx ptr -all']] };
  publishWithSpf('many.example', 'v=spf1 include:spf.posthorn.test include:n1.lookups.test mx ~all');
  const over = (await fx.verify('many.example')).spf;
  assert.equal(over.ok, false);
  assert.match(over.problem ?? '', /13 DNS lookups, over the 10-lookup limit/);
  assert.ok(over.warnings?.some((w) => w.includes('13 DNS lookups')));

  fx.zone['n3.lookups.test'] = { TXT: [['v=spf1 ip4:203.0.113.1 -all']] };
  const atLimit = (await fx.verify('many.example')).spf;
  assert.equal(atLimit.ok, true, atLimit.problem);
});

test('an include loop terminates, is counted once round, and is noted', async () => {
  fx.zone['loop-a.test'] = { TXT: [['v=spf1 include:loop-b.test ~all']] };
  fx.zone['loop-b.test'] = { TXT: [['v=spf1 include:loop-a.test ~all']] };
  publishWithSpf('loop.example', 'v=spf1 include:spf.posthorn.test include:loop-a.test ~all');
  const { spf } = await fx.verify('loop.example');
  assert.equal(spf.ok, true, spf.problem);
  assert.ok(
    spf.warnings?.some((w) => /include loop: .*loop-a\.test -> loop-b\.test -> loop-a\.test/.test(w)),
    String(spf.warnings),
  );
});

test('a self-include over the limit still terminates and fails on the count', async () => {
  publishWithSpf('self.example', `v=spf1 include:spf.posthorn.test ${'a '.repeat(9)}include:self.example ~all`);
  const { spf } = await fx.verify('self.example');
  assert.equal(spf.ok, false);
  assert.match(spf.problem ?? '', /11 DNS lookups/);
});

test('an include that does not resolve is noted but does not fail the check', async () => {
  publishWithSpf('dangling.example', 'v=spf1 include:spf.posthorn.test include:gone.test ~all');
  const { spf } = await fx.verify('dangling.example');
  assert.equal(spf.ok, true, spf.problem);
  assert.deepEqual(spf.warnings, ['gone.test has no SPF record, so including it is an error']);
});

test('an include that fails to resolve is noted with the DNS error code', async () => {
  fx.zone['flaky.test'] = { SERVFAIL: true };
  publishWithSpf('flaky.example', 'v=spf1 include:spf.posthorn.test include:flaky.test ~all');
  const { spf } = await fx.verify('flaky.example');
  assert.equal(spf.ok, true, spf.problem);
  assert.deepEqual(spf.warnings, ['could not look up the SPF record of flaky.test (ESERVFAIL)']);
});

test('redirect= is not counted when the record has an "all" mechanism (RFC 7208 §6.1)', async () => {
  fx.zone['r1.lookups.test'] = { TXT: [['v=spf1 a mx -all']] };
  publishWithSpf('redirect.example', `v=spf1 include:spf.posthorn.test ${'a '.repeat(9)}redirect=r1.lookups.test -all`);
  assert.equal((await fx.verify('redirect.example')).spf.ok, true);
  publishWithSpf('redirect2.example', `v=spf1 include:spf.posthorn.test ${'a '.repeat(7)}redirect=r1.lookups.test`);
  // Without "all" the redirect counts, and so do r1's a and mx: 1 + 7 + 1 + 2 = 11.
  assert.match((await fx.verify('redirect2.example')).spf.problem ?? '', /11 DNS lookups/);
});
