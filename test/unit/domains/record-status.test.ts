// The status each record of the management API's domain object shows (docs/api.md, Management
// API), derived from the check stored by the last verification.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recordStatus } from '../../../src/domains/domain-resource.js';
import { checkResult } from '../../../src/domains/check-result.js';
import { lookupFailed } from '../../../src/domains/dns-lookup.js';

const SPF = 'v=spf1 include:spf.mail.posthorn.test ~all';

test('not checked yet, or checked against another value: unknown, nothing found', () => {
  assert.deepEqual(recordStatus('spf', SPF, undefined), { status: 'unknown', found: [] });
  const stale = checkResult('v=DKIM1; k=ed25519; p=old', ['v=DKIM1; k=ed25519; p=old'], undefined);
  assert.deepEqual(recordStatus('dkim_ed25519', 'v=DKIM1; k=ed25519; p=new', stale), { status: 'unknown', found: [] });
});

test('a passing check is ok, with what was found', () => {
  assert.deepEqual(recordStatus('spf', SPF, checkResult(SPF, [SPF, 'other=1'], undefined)), {
    status: 'ok',
    found: [SPF, 'other=1'],
  });
});

test('a resolver that did not answer says nothing about the record: unknown', () => {
  assert.deepEqual(
    recordStatus('dmarc', 'v=DMARC1; p=none', checkResult('v=DMARC1; p=none', [], lookupFailed('ESERVFAIL'))),
    {
      status: 'unknown',
      found: [],
    },
  );
});

test('SPF and DMARC count only records of their own kind as present; others count anything found', () => {
  const siteCheck = checkResult(SPF, ['google-site-verification=abc'], 'No SPF record');
  assert.equal(recordStatus('spf', SPF, siteCheck).status, 'missing');
  assert.equal(recordStatus('spf', SPF, checkResult(SPF, ['v=spf1 -all'], 'no include')).status, 'mismatch');
  const dmarc = 'v=DMARC1; p=none; adkim=r; aspf=r';
  assert.equal(recordStatus('dmarc', dmarc, checkResult(dmarc, ['hello'], 'No DMARC record')).status, 'missing');
  assert.equal(recordStatus('dmarc', dmarc, checkResult(dmarc, ['v=DMARC1; p=bogus'], 'invalid')).status, 'mismatch');
  assert.equal(
    recordStatus('dkim', 'v=DKIM1; p=x', checkResult('v=DKIM1; p=x', [], 'No DKIM record')).status,
    'missing',
  );
  assert.equal(
    recordStatus('dkim', 'v=DKIM1; p=x', checkResult('v=DKIM1; p=x', ['v=DKIM1; p=y'], 'other key')).status,
    'mismatch',
  );
  assert.equal(
    recordStatus('return_path', 'bounce.x', checkResult('bounce.x', ['A 192.0.2.1'], 'no CNAME')).status,
    'mismatch',
  );
});
