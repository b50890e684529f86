import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verifyDomain } from '../../../src/domains/verify-domain.js';
import { hosts, selector, useDomainFixture } from './domain-fixture.js';

const fx = useDomainFixture();

test('no CNAME at bounce.<domain>: not ok, found empty, names the target', async () => {
  const { return_path: check } = await fx.verify('nocname.example');
  assert.equal(check.ok, false);
  assert.equal(check.expected, 'bounce.posthorn.test');
  assert.deepEqual(check.found, []);
  assert.equal(check.problem, 'No CNAME at bounce.nocname.example; add a CNAME to bounce.posthorn.test.');
});

test('A and TXT records instead of a CNAME are reported', async () => {
  fx.zone['bounce.arecord.example'] = { A: ['192.0.2.7'], TXT: [['v=spf1 -all']] };
  const { return_path: check } = await fx.verify('arecord.example');
  assert.equal(check.ok, false);
  assert.deepEqual(check.found, ['A 192.0.2.7', 'TXT "v=spf1 -all"']);
  assert.match(check.problem ?? '', /has A 192\.0\.2\.7, TXT "v=spf1 -all" but no CNAME/);
});

test('a CNAME to another host: not ok, says where it points', async () => {
  fx.zone['bounce.wrong.example'] = { CNAME: ['bounces.other-esp.test.'] };
  const { return_path: check } = await fx.verify('wrong.example');
  assert.equal(check.ok, false);
  assert.deepEqual(check.found, ['bounces.other-esp.test']);
  assert.match(check.problem ?? '', /is a CNAME to bounces\.other-esp\.test, not to bounce\.posthorn\.test/);
});

test('case and trailing dots on either side do not matter', async () => {
  fx.zone['bounce.case.example'] = { CNAME: ['Bounce.POSTHORN.test.'] };
  assert.equal((await fx.verify('case.example')).return_path.ok, true);
  const input = {
    domain: 'case.example.',
    selector,
    publicKeyB64: fx.key.publicKeyB64,
    ...hosts,
    bounceHost: 'BOUNCE.posthorn.test.',
  };
  const checks = await verifyDomain(fx.resolver, input);
  assert.equal(checks.return_path.ok, true, checks.return_path.problem);
});

test('a CNAME whose target is in the zone still reads as the CNAME', async () => {
  fx.zone['bounce.posthorn.test'] = { A: ['192.0.2.25'] };
  fx.zone['bounce.chained.example'] = { CNAME: ['bounce.posthorn.test'] };
  const { return_path: check } = await fx.verify('chained.example');
  assert.equal(check.ok, true, check.problem);
  assert.deepEqual(check.found, ['bounce.posthorn.test']);
});
