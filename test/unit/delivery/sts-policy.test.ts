import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  mxMatches,
  parseStsPolicy,
  parseStsRecord,
  StsSyntaxError,
} from '../../../src/delivery/security/sts-policy.js';

// RFC 8461 §3.2's example policy, with CRLF line ends as served.
const EXAMPLE =
  'version: STSv1\r\nmode: enforce\r\nmx: mail.example.com\r\nmx: *.example.net\r\nmx: backupmx.example.com\r\nmax_age: 604800\r\n';

test('the RFC 8461 example policy parses, LF or CRLF, unknown keys ignored', () => {
  const policy = parseStsPolicy(EXAMPLE);
  assert.deepEqual(policy, {
    mode: 'enforce',
    mx: ['mail.example.com', '*.example.net', 'backupmx.example.com'],
    maxAge: 604800,
    lines: [
      'version: STSv1',
      'mode: enforce',
      'mx: mail.example.com',
      'mx: *.example.net',
      'mx: backupmx.example.com',
      'max_age: 604800',
    ],
  });
  const lf = parseStsPolicy('version: STSv1\nmode: testing\nmx: MX.Example.ORG.\nmax_age: 86400\nextension: 1\n');
  assert.equal(lf.mode, 'testing');
  assert.deepEqual(lf.mx, ['mx.example.org']);
  assert.equal(parseStsPolicy('version: STSv1\nmode: none\nmax_age: 0\n').mx.length, 0, 'mode none needs no mx');
});

test('a malformed policy is refused naming the field at fault', () => {
  const cases: [string, RegExp][] = [
    ['mode: enforce\nmx: a.test\nmax_age: 1\n', /no version/],
    ['version: STSv2\nmode: enforce\nmx: a.test\nmax_age: 1\n', /version "STSv2"/],
    ['version: STSv1\nmx: a.test\nmax_age: 1\n', /no mode/],
    ['version: STSv1\nmode: strict\nmx: a.test\nmax_age: 1\n', /mode "strict"/],
    ['version: STSv1\nmode: enforce\nmx: a.test\n', /no max_age/],
    ['version: STSv1\nmode: enforce\nmx: a.test\nmax_age: 31557601\n', /max_age "31557601"/],
    ['version: STSv1\nmode: enforce\nmx: a.test\nmax_age: -1\n', /max_age "-1"/],
    ['version: STSv1\nmode: enforce\nmax_age: 10\n', /no mx/],
    ['version: STSv1\nmode: enforce\nmx: a b\nmax_age: 10\n', /mx "a b"/],
    ['version: STSv1\nmode enforce\n', /not "key: value"/],
    ['<html>not a policy</html>', /not "key: value"/],
  ];
  for (const [text, message] of cases)
    assert.throws(
      () => parseStsPolicy(text),
      (e: unknown) => e instanceof StsSyntaxError && message.test((e as Error).message),
      text,
    );
});

test('MX patterns: exact names and one-label wildcards, case-insensitive (RFC 8461 §4.1)', () => {
  const patterns = ['mail.example.com', '*.example.net'];
  assert.ok(mxMatches(patterns, 'MAIL.example.com.'));
  assert.ok(mxMatches(patterns, 'mx1.example.net'));
  assert.ok(!mxMatches(patterns, 'example.net'), 'the wildcard needs a label');
  assert.ok(!mxMatches(patterns, 'a.b.example.net'), 'the wildcard is one label only');
  assert.ok(!mxMatches(patterns, 'mail.example.com.evil.test'));
  assert.ok(!mxMatches(patterns, 'xmail.example.com'));
});

test('the _mta-sts TXT record: one v=STSv1 record with an id, or no policy', () => {
  assert.equal(parseStsRecord([['v=STSv1; id=20160831085700Z;']]), '20160831085700Z');
  assert.equal(parseStsRecord([['v=STSv1; ', 'id=abc123']]), 'abc123', 'character-strings are joined');
  assert.equal(parseStsRecord([['v=spf1 -all'], ['v=STSv1; id=a1']]), 'a1', 'other records are ignored');
  assert.equal(parseStsRecord([]), null);
  assert.equal(parseStsRecord([['v=STSv1; id=a1'], ['v=STSv1; id=a2']]), null, 'two records: no policy (§3.1)');
  assert.throws(() => parseStsRecord([['v=STSv1;']]), /has no id/);
  assert.throws(() => parseStsRecord([['v=STSv1; id=not-alnum']]), /invalid id "not-alnum"/);
  assert.throws(() => parseStsRecord([['v=STSv1; id=' + 'a'.repeat(33)]]), /invalid id/);
});
