import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BUILT_IN_PROVIDERS, providerOf, providerTable } from '../../../src/delivery/providers.js';
import { parseProviders } from '../../../src/config/parse-providers.js';

test('providerOf: the large providers by their MX host suffixes or mail domains, everything else other', () => {
  const cases: [string | null, string][] = [
    ['gmail-smtp-in.l.google.com', 'gmail'],
    ['ASPMX.L.GOOGLE.COM.', 'gmail'],
    ['alt1.gmail-smtp-in.l.google.com:2525', 'gmail'],
    ['gmail.com', 'gmail'],
    ['example-com.mail.protection.outlook.com', 'outlook'],
    ['hotmail-com.olc.protection.outlook.com', 'outlook'],
    ['mta7.am0.yahoodns.net', 'yahoo'],
    ['aol.com', 'yahoo'],
    ['mx01.mail.icloud.com', 'apple'],
    ['me.com', 'apple'],
    ['mx.example.org', 'other'],
    ['notgoogle.com', 'other'],
    ['google.com.evil.example', 'other'],
    ['127.0.0.1:2525', 'other'],
    [null, 'other'],
  ];
  for (const [host, provider] of cases) assert.equal(providerOf(host), provider, String(host));
});

test('the built-in table: other last, with the per-host limits; every named provider adaptive and paced', () => {
  const table = providerTable([], 10);
  assert.deepEqual(
    table.list.map((p) => p.name),
    ['gmail', 'outlook', 'yahoo', 'apple', 'other'],
  );
  const other = table.spec('other');
  assert.deepEqual(
    [other.connections, other.messagesPerConnection, other.perMinute, other.adaptive],
    [10, 1000, null, false],
  );
  for (const p of BUILT_IN_PROVIDERS) {
    const spec = table.spec(p.name);
    assert.equal(spec.adaptive, true);
    assert.ok(spec.perMinute !== null && spec.perMinute > 0);
  }
  assert.equal(table.spec('unknown').name, 'other');
});

test('POSTHORN_PROVIDERS adds suffixes to a built-in provider, changes its limits, and makes new providers', () => {
  const table = providerTable(
    parseProviders(
      JSON.stringify({
        gmail: { suffixes: ['test-gmail.example'], per_minute: 60 },
        corp: { suffixes: ['mx.corp.example'], connections: 3 },
        other: { connections: 4 },
      }),
    ),
    10,
  );
  assert.equal(table.of('mx.test-gmail.example'), 'gmail');
  assert.equal(table.of('gmail-smtp-in.l.google.com'), 'gmail', 'the built-in suffixes stay');
  assert.equal(table.spec('gmail').perMinute, 60);
  assert.equal(table.spec('gmail').connections, 20, 'a limit not given keeps the built-in one');
  assert.equal(table.of('a.mx.corp.example'), 'corp');
  assert.deepEqual(
    [table.spec('corp').connections, table.spec('corp').perMinute, table.spec('corp').adaptive],
    [3, null, true],
  );
  assert.equal(table.spec('other').connections, 4);
  assert.equal(table.list.at(-1)?.name, 'other');
});

test('the longest suffix wins across providers', () => {
  const table = providerTable(parseProviders('corp=example;gmail=mx.google.example'), 10);
  assert.equal(table.of('mx.google.example'), 'gmail');
  assert.equal(table.of('a.mx.google.example'), 'gmail');
  assert.equal(table.of('mx.other.example'), 'corp');
});

test('parseProviders: the short form, and every bad input refused naming what is wrong', () => {
  assert.deepEqual(parseProviders('gmail=test-gmail.example, google.example ; corp=mx.corp.example'), [
    { name: 'gmail', suffixes: ['test-gmail.example', 'google.example'] },
    { name: 'corp', suffixes: ['mx.corp.example'] },
  ]);
  assert.deepEqual(parseProviders('  '), []);
  const bad: [string, RegExp][] = [
    ['gmail', /expected name=suffix,suffix/],
    ['Gmail!=x.example', /provider name "Gmail!" must be/],
    ['a=x.example;a=y.example', /provider a is given twice/],
    ['a=not a name', /provider a: "not a name" is not a DNS name suffix/],
    ['{"a": 1}', /provider a: expected an object/],
    ['{"a": {"speed": 1}}', /provider a: unknown field "speed"/],
    ['{"a": {"connections": 0}}', /provider a: connections must be a whole number from 1 to 1000, got 0/],
    ['{"a": {"per_minute": 1.5}}', /provider a: per_minute must be a whole number .* \(or null: no limit\), got 1.5/],
    ['{"a": {"suffixes": "x.example"}}', /provider a: suffixes must be an array/],
    ['{"a": ', /expected a JSON object of providers/],
    ['[]', /expected name=suffix/],
  ];
  for (const [text, message] of bad) assert.throws(() => parseProviders(text), message, text);
  assert.deepEqual(parseProviders('{"a": {"per_minute": null}}'), [{ name: 'a', suffixes: [], perMinute: null }]);
});
