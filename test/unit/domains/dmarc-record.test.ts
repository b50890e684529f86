import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDmarcRecord, validateDmarc } from '../../../src/domains/dmarc-record.js';

test('isDmarcRecord wants a leading v=DMARC1 tag', () => {
  assert.equal(isDmarcRecord('v=DMARC1; p=none'), true);
  assert.equal(isDmarcRecord('v = DMARC1'), true);
  assert.equal(isDmarcRecord('p=none; v=DMARC1'), false);
  assert.equal(isDmarcRecord('v=DMARC10; p=none'), false);
});

// Each row: a record and the error it must produce (RFC 7489 §6.3, §6.4).
const INVALID: [string, RegExp][] = [
  ['v=DMARC1', /required p tag is missing/],
  ['v=dmarc1; p=none', /v must be DMARC1/],
  ['v=DMARC1; p=none; sp=all', /sp must be one of none, quarantine, reject/],
  ['v=DMARC1; p=none; adkim=x', /adkim must be one of r, s/],
  ['v=DMARC1; p=none; aspf=strict', /aspf must be one of r, s/],
  ['v=DMARC1; p=none; pct=-1', /pct must be 0 to 100/],
  ['v=DMARC1; p=none; pct=101', /pct must be 0 to 100/],
  ['v=DMARC1; p=none; ri=1.5', /ri must be a whole number/],
  ['v=DMARC1; p=none; fo=1,d', /fo must be a colon-separated list of 0, 1, d, s; "1,d"/],
  ['v=DMARC1; p=none; rf=json', /rf must be a colon-separated list of afrf, iodef; "json"/],
  ['v=DMARC1; p=none; rua=reports@example.com', /rua must list URIs.*"reports@example.com"/],
  ['v=DMARC1; p=none; rua=mailto:reports', /rua has "mailto:reports", which is not a mailto: address/],
  ['v=DMARC1; p=none; ruf=mailto:a@b.test!big', /ruf must list URIs/],
  ['v=DMARC1; p=none; p=reject', /tag p appears twice/],
  ['v=DMARC1; p=none; garbage', /"garbage" is not a tag=value pair/],
];

for (const [record, error] of INVALID) {
  test(`invalid: ${record}`, () => {
    const { errors } = validateDmarc(record);
    assert.ok(
      errors.some((e) => error.test(e)),
      `got ${JSON.stringify(errors)}`,
    );
  });
}

test('valid records have no errors, and unknown tags only warn', () => {
  for (const record of [
    'v=DMARC1; p=none',
    'v=DMARC1;p=reject;pct=0;',
    'v=DMARC1; p=none; fo=0 : s; rf=afrf:iodef',
    'v=DMARC1; p=none; rua=mailto:a@b.test!20k,https://r.example/dmarc',
  ]) {
    assert.deepEqual(validateDmarc(record), { errors: [], warnings: [] }, record);
  }
  assert.deepEqual(validateDmarc('v=DMARC1; p=none; x=1').warnings, ['unknown tag x is ignored (RFC 7489 §6.3)']);
});
