import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateDkimKey } from '../../../src/domains/dkim-key.js';
import { selector, useDomainFixture } from './domain-fixture.js';

const fx = useDomainFixture();

/** Publishes everything for `domain` except the DKIM record, and returns the DKIM record's name. */
function publishWithoutDkim(domain: string): string {
  const records = fx.records(domain);
  fx.publish(records.filter((r) => r.purpose !== 'dkim'));
  return `${selector}._domainkey.${domain}`;
}

test('no DKIM record: not ok, names the record to add', async () => {
  const name = publishWithoutDkim('nodkim.example');
  const { dkim } = await fx.verify('nodkim.example');
  assert.equal(dkim.ok, false);
  assert.deepEqual(dkim.found, []);
  assert.equal(dkim.expected, `v=DKIM1; k=rsa; p=${fx.key.publicKeyB64}`);
  assert.match(dkim.problem ?? '', new RegExp(`No DKIM record at ${name.replace(/\./g, '\\.')}`));
});

test('a DKIM record with a different key: not ok, says the key differs, shows what is there', async () => {
  const name = publishWithoutDkim('otherkey.example');
  const other = await generateDkimKey();
  const published = `v=DKIM1; k=rsa; p=${other.publicKeyB64}`;
  fx.zone[name] = { TXT: [[published]] };
  const { dkim } = await fx.verify('otherkey.example');
  assert.equal(dkim.ok, false);
  assert.deepEqual(dkim.found, [published]);
  assert.match(dkim.problem ?? '', /publishes a different key/);
});

test('our key split across several TXT strings, with folding whitespace, still passes', async () => {
  const name = publishWithoutDkim('split.example');
  const key = fx.key.publicKeyB64;
  fx.zone[name] = {
    TXT: [['v=DKIM1;  k=rsa ;', ' p=', key.slice(0, 100), key.slice(100, 250), ' ', key.slice(250), ';']],
  };
  const { dkim } = await fx.verify('split.example');
  assert.equal(dkim.ok, true, dkim.problem);
  assert.equal(dkim.found.length, 1);
});

test('our key with v= or k= that is not DKIM1/rsa fails with the tag named', async () => {
  const name = publishWithoutDkim('badtags.example');
  fx.zone[name] = { TXT: [[`v=DKIM1; k=ed25519; p=${fx.key.publicKeyB64}`]] };
  assert.match((await fx.verify('badtags.example')).dkim.problem ?? '', /k= is not rsa/);
  fx.zone[name] = { TXT: [[`v=DKIM2; p=${fx.key.publicKeyB64}`]] };
  assert.match((await fx.verify('badtags.example')).dkim.problem ?? '', /v= is not DKIM1/);
});

test('a record with only p= (v and k absent) passes', async () => {
  const name = publishWithoutDkim('bare.example');
  fx.zone[name] = { TXT: [[`p=${fx.key.publicKeyB64}`]] };
  assert.equal((await fx.verify('bare.example')).dkim.ok, true);
});

test('an empty p= is a revoked key', async () => {
  const name = publishWithoutDkim('revoked.example');
  fx.zone[name] = { TXT: [['v=DKIM1; k=rsa; p=']] };
  const { dkim } = await fx.verify('revoked.example');
  assert.equal(dkim.ok, false);
  assert.match(dkim.problem ?? '', /revokes the key/);
});

test('our record next to another TXT record passes, with a warning', async () => {
  const name = publishWithoutDkim('two.example');
  fx.zone[name] = { TXT: [['some other text'], [`v=DKIM1; k=rsa; p=${fx.key.publicKeyB64}`]] };
  const { dkim } = await fx.verify('two.example');
  assert.equal(dkim.ok, true, dkim.problem);
  assert.equal(dkim.found.length, 2);
  assert.equal(dkim.warnings?.length, 1);
});
