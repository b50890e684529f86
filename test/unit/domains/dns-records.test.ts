import { test } from 'node:test';
import assert from 'node:assert/strict';
import { domainRecords, RECORD_PURPOSES } from '../../../src/domains/dns-records.js';

const hosts = { spfIncludeHost: 'spf.mail.example.net', bounceHost: 'bounce.mail.example.net' };

test('domainRecords lists the four records in purpose order with exact names and values', () => {
  assert.deepEqual(domainRecords('acme.com', 'ph202611', 'MIIBKEY', hosts), [
    { purpose: 'spf', type: 'TXT', name: 'acme.com', value: 'v=spf1 include:spf.mail.example.net ~all' },
    { purpose: 'dkim', type: 'TXT', name: 'ph202611._domainkey.acme.com', value: 'v=DKIM1; k=rsa; p=MIIBKEY' },
    { purpose: 'return_path', type: 'CNAME', name: 'bounce.acme.com', value: 'bounce.mail.example.net' },
    { purpose: 'dmarc', type: 'TXT', name: '_dmarc.acme.com', value: 'v=DMARC1; p=none; adkim=r; aspf=r' },
  ]);
  assert.deepEqual(RECORD_PURPOSES, ['spf', 'dkim', 'return_path', 'dmarc']);
});

test('domainRecords normalises case and trailing dots of the domain and hosts', () => {
  const records = domainRecords('Acme.COM.', 'ph202611', 'K', {
    spfIncludeHost: 'SPF.x.net.',
    bounceHost: 'Bounce.X.net.',
  });
  assert.deepEqual(
    records.map((r) => r.name),
    ['acme.com', 'ph202611._domainkey.acme.com', 'bounce.acme.com', '_dmarc.acme.com'],
  );
  assert.equal(records[0].value, 'v=spf1 include:spf.x.net ~all');
  assert.equal(records[2].value, 'bounce.x.net');
});
