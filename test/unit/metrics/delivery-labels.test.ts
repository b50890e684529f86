import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deferralClass } from '../../../src/metrics/delivery-labels.js';

test('deferralClass: enhanced code class and subject, else the reply class, else what went wrong', () => {
  assert.equal(deferralClass({ enhanced_status: '4.7.1', response: '451 4.7.1 Greylisted' }, ''), '4.7.x');
  assert.equal(deferralClass({ enhanced_status: '4.2.2', response: '452 4.2.2 Mailbox full' }, ''), '4.2.x');
  assert.equal(deferralClass({ response: '421 Try again later' }, ''), '4xx');
  assert.equal(
    deferralClass(
      { hosts_tried: ['mx.example.org'] },
      'mx.example.org: connection to mx.example.org:25 timed out after 30000 ms',
    ),
    'timeout',
  );
  assert.equal(
    deferralClass({ hosts_tried: ['mx.example.org'] }, 'mx.example.org: connect ECONNREFUSED'),
    'connection',
  );
  assert.equal(deferralClass({ reason: 'MX lookup failed: ESERVFAIL' }, 'MX lookup failed: ESERVFAIL'), 'dns');
  const refused = { policy: 'mta-sts', mode: 'enforce', validated: false, failure: 'the certificate of mx…' };
  assert.equal(
    deferralClass({ hosts_tried: ['mx.example.org'], tls: refused }, 'mx.example.org: the certificate…'),
    'tls',
  );
  assert.equal(deferralClass({ reason: 'the MTA-STS policy…', tls: refused }, 'the MTA-STS policy…'), 'tls');
  assert.equal(
    deferralClass({ response: '451 4.3.0 later', tls: { policy: 'mta-sts', mode: 'enforce', validated: true } }, ''),
    '4xx',
  );
  assert.equal(deferralClass({ reason: 'signing failed' }, 'signing failed: bad key'), 'signing');
  assert.equal(deferralClass({ reason: 'internal error: boom' }, 'internal error: boom'), 'internal');
});
