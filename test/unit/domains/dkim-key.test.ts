import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { generateDkimKey, newSelector, rotationSelector } from '../../../src/domains/dkim-key.js';

test('generateDkimKey makes a 2048-bit RSA pair: PKCS#8 PEM private, base64 SPKI DER public', async () => {
  const key = await generateDkimKey();
  assert.match(key.privateKeyPem, /^-----BEGIN PRIVATE KEY-----\n/);
  assert.match(key.publicKeyB64, /^[A-Za-z0-9+/]+=*$/);
  const publicKey = createPublicKey({ key: Buffer.from(key.publicKeyB64, 'base64'), format: 'der', type: 'spki' });
  assert.equal(publicKey.asymmetricKeyType, 'rsa');
  assert.equal(publicKey.asymmetricKeyDetails?.modulusLength, 2048);
  const signature = sign('sha256', Buffer.from('hello'), createPrivateKey(key.privateKeyPem));
  assert.equal(verify('sha256', Buffer.from('hello'), publicKey, signature), true);
  assert.notEqual((await generateDkimKey()).publicKeyB64, key.publicKeyB64);
});

test('newSelector is ph + the UTC year and month of the given time', () => {
  assert.equal(newSelector(Date.UTC(2026, 10, 5, 12)), 'ph202611');
  assert.equal(newSelector(Date.UTC(2027, 0, 1, 0, 0, 0)), 'ph202701');
  // 23:59:59.999 UTC on 31 Dec is still December, whatever the local time zone says.
  assert.equal(newSelector(Date.UTC(2026, 11, 31, 23, 59, 59, 999)), 'ph202612');
  assert.match(newSelector(0), /^[a-z0-9]{1,63}$/);
});

test('rotationSelector is ph + the UTC day, with -2, -3, … past the selectors the domain still has', () => {
  const day = Date.UTC(2026, 10, 26, 23, 59);
  assert.equal(rotationSelector(day, ['ph202611', null, 'ph202611e']), 'ph20261126');
  assert.equal(rotationSelector(day, ['ph20261126', null]), 'ph20261126-2');
  assert.equal(rotationSelector(day, ['ph20261126-2', 'ph20261126']), 'ph20261126-3');
  // Never the month form of newSelector, nor its Ed25519 form: the day form is longer.
  assert.notEqual(rotationSelector(day, []), newSelector(day));
  assert.match(rotationSelector(day, ['ph20261126']), /^[a-z0-9-]{1,63}$/);
});
