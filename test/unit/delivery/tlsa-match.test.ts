import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, X509Certificate } from 'node:crypto';
import { matchTlsa, usableTlsa } from '../../../src/delivery/security/tlsa-match.js';
import type { TlsaRecord } from '../../../src/core/dns-resolver.js';
import { createTestCa, type TestCa, type TestCertificate } from '../../helpers/test-ca.js';

let ca: TestCa;
let other: TestCa;
let leaf: TestCertificate;
let stranger: TestCertificate;

before(async () => {
  ca = await createTestCa();
  other = await createTestCa('Another CA');
  leaf = await ca.issue(['mx.secure.test']);
  stranger = await other.issue(['mx.secure.test']);
});
after(() => {
  ca.close();
  other.close();
});

const spki = (der: Buffer) => new X509Certificate(der).publicKey.export({ type: 'spki', format: 'der' }) as Buffer;
const sha = (alg: string, b: Buffer) => createHash(alg).update(b).digest();
const rec = (usage: number, selector: number, matchingType: number, data: Buffer): TlsaRecord => ({
  usage,
  selector,
  matchingType,
  data,
});

test('DANE-EE (3): every selector and matching type of the leaf matches, with no name check', () => {
  const chain = [leaf.leafDer];
  for (const r of [
    rec(3, 0, 0, leaf.leafDer),
    rec(3, 0, 1, sha('sha256', leaf.leafDer)),
    rec(3, 0, 2, sha('sha512', leaf.leafDer)),
    rec(3, 1, 0, spki(leaf.leafDer)),
    rec(3, 1, 1, sha('sha256', spki(leaf.leafDer))),
    rec(3, 1, 2, sha('sha512', spki(leaf.leafDer))),
  ])
    assert.deepEqual(
      matchTlsa([r], chain, ['another-name.test']),
      { ok: true, usage: 3 },
      `${r.selector} ${r.matchingType}`,
    );
  const verdict = matchTlsa([rec(3, 1, 1, sha('sha256', spki(stranger.leafDer)))], chain, ['mx.secure.test']);
  assert.deepEqual(verdict, { ok: false, reason: 'no TLSA record matches the certificate chain' });
});

test('DANE-TA (2): the CA in the chain anchors a leaf it signed, valid for the MX name', () => {
  const chain = [leaf.leafDer, ca.der];
  const ta = rec(2, 1, 1, sha('sha256', spki(ca.der)));
  assert.deepEqual(matchTlsa([ta], chain, ['mx.secure.test']), { ok: true, usage: 2 });
  assert.deepEqual(matchTlsa([ta], chain, ['other.secure.test']), {
    ok: false,
    reason: 'the certificate is not valid for other.secure.test',
  });
  // Another CA's leaf presented with our CA appended: the chain does not lead to the anchor.
  assert.deepEqual(matchTlsa([ta], [stranger.leafDer, ca.der], ['mx.secure.test']), {
    ok: false,
    reason: 'the certificate chain does not lead to the DANE-TA trust anchor',
  });
  assert.equal(matchTlsa([ta], [leaf.leafDer], ['mx.secure.test']).ok, false, 'the anchor must be in the chain');
});

test('PKIX usages (0, 1) and unknown selectors or matching types are not usable for SMTP (RFC 7672 §3.1.3)', () => {
  const records = [
    rec(0, 0, 1, sha('sha256', ca.der)),
    rec(1, 0, 1, sha('sha256', leaf.leafDer)),
    rec(3, 2, 1, Buffer.alloc(32)),
    rec(3, 1, 3, Buffer.alloc(32)),
  ];
  assert.deepEqual(usableTlsa(records), []);
  assert.deepEqual(matchTlsa(records, [leaf.leafDer, ca.der], ['mx.secure.test']), {
    ok: false,
    reason: 'no usable TLSA record (usages 2 and 3 only)',
  });
  assert.deepEqual(matchTlsa([rec(3, 0, 0, leaf.leafDer)], [], ['mx.secure.test']), {
    ok: false,
    reason: 'the server presented no certificate',
  });
});
