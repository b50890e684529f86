import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeTls, type SessionTls, type TlsRequirement } from '../../../src/delivery/security/tls-outcome.js';
import { parseTlsRptRecord } from '../../../src/delivery/security/tls-report.js';

const session = (authorized: boolean, authorizationError: string | null = null): SessionTls => ({
  version: 'TLSv1.3',
  cipher: 'TLS_AES_256_GCM_SHA384',
  authorized,
  authorizationError,
  chain: [],
});
const enforce: TlsRequirement = { policy: 'mta-sts', mode: 'enforce' };
const testing: TlsRequirement = { policy: 'mta-sts', mode: 'testing' };

test('without a policy anything goes; validated says what Node found', () => {
  assert.deepEqual(judgeTls(undefined, 'mx.a.test', session(true)), {
    refuse: false,
    outcome: { version: 'TLSv1.3', cipher: 'TLS_AES_256_GCM_SHA384', policy: 'none', validated: true },
  });
  assert.deepEqual(judgeTls(undefined, 'mx.a.test', null), {
    refuse: false,
    outcome: { version: null, cipher: null, policy: 'none', validated: false },
  });
});

test('MTA-STS enforce refuses what testing only records, with RFC 8460 result types', () => {
  const cases: [SessionTls | null, string][] = [
    [session(false, 'ERR_TLS_CERT_ALTNAME_INVALID'), 'certificate-host-mismatch'],
    [session(false, 'CERT_HAS_EXPIRED'), 'certificate-expired'],
    [session(false, 'DEPTH_ZERO_SELF_SIGNED_CERT'), 'certificate-not-trusted'],
    [session(false, 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'), 'certificate-not-trusted'],
    [session(false, 'CERT_REVOKED'), 'validation-failure'],
    [null, 'starttls-not-supported'],
  ];
  for (const [tls, resultType] of cases) {
    const enforced = judgeTls(enforce, 'mx.a.test', tls);
    assert.equal(enforced.refuse, true, resultType);
    assert.equal(enforced.outcome.result_type, resultType);
    assert.equal(enforced.outcome.validated, false);
    assert.match(String(enforced.outcome.failure), /mx\.a\.test/);
    const tested = judgeTls(testing, 'mx.a.test', tls);
    assert.equal(tested.refuse, false, resultType);
    assert.equal(tested.outcome.result_type, resultType);
    assert.equal(tested.outcome.mode, 'testing');
  }
  assert.deepEqual(judgeTls(enforce, 'mx.a.test', session(true)).outcome.validated, true);
  const unlisted = judgeTls({ ...testing, mxMismatch: true }, 'mx.other.test', session(true));
  assert.equal(unlisted.outcome.validated, false);
  assert.match(String(unlisted.outcome.failure), /not an MX host of the domain's MTA-STS policy/);
});

test('DANE without STARTTLS or without a matching record is refused', () => {
  const dane: TlsRequirement = { policy: 'dane', mode: 'enforce', tlsa: [] };
  assert.equal(judgeTls(dane, 'mx.a.test', null).outcome.result_type, 'starttls-not-supported');
  const verdict = judgeTls(dane, 'mx.a.test', session(true));
  assert.equal(verdict.refuse, true);
  assert.equal(verdict.outcome.result_type, 'tlsa-invalid');
});

test('the _smtp._tls record: mailto: and https: rua, one v=TLSRPTv1 record or none', () => {
  assert.deepEqual(parseTlsRptRecord([['v=TLSRPTv1; rua=mailto:tls@example.org,https://r.example.org/tlsrpt']]), [
    'mailto:tls@example.org',
    'https://r.example.org/tlsrpt',
  ]);
  assert.equal(parseTlsRptRecord([['v=spf1 -all']]), null);
  assert.equal(parseTlsRptRecord([['v=TLSRPTv1; rua=mailto:a@b.test'], ['v=TLSRPTv1; rua=mailto:c@d.test']]), null);
  assert.throws(() => parseTlsRptRecord([['v=TLSRPTv1;']]), /has no rua/);
  assert.throws(() => parseTlsRptRecord([['v=TLSRPTv1; rua=http://plain.test/']]), /has no mailto: or https: URI/);
});
