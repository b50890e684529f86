// SMTP passwords are stored with a slow password hash (scrypt), self-describing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scryptSync } from 'node:crypto';
import { DEFAULT_SCRYPT, hashPassword, verifyPassword } from '../../../src/credentials/password-hash.js';

const PASSWORD = 'correct horse battery staple';

test('a hash verifies its own password and names its parameters, salt and key', async () => {
  const stored = await hashPassword(PASSWORD);
  assert.match(stored, /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  assert.equal(DEFAULT_SCRYPT.N, 2 ** 15);
  assert.equal(await verifyPassword(PASSWORD, stored), true);
  assert.ok(!stored.includes(PASSWORD));
});

test('a wrong password is false', async () => {
  const stored = await hashPassword(PASSWORD);
  assert.equal(await verifyPassword('correct horse battery stapler', stored), false);
  assert.equal(await verifyPassword('', stored), false);
});

test('the same password hashes differently each time (fresh salt)', async () => {
  const params = { N: 1024, r: 8, p: 1 };
  assert.notEqual(await hashPassword(PASSWORD, params), await hashPassword(PASSWORD, params));
});

test('a tampered hash, salt or parameter is false', async () => {
  const stored = await hashPassword(PASSWORD, { N: 1024, r: 8, p: 1 });
  const parts = stored.split('$');
  const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
  const variants = [
    [...parts.slice(0, 5), flip(parts[5])],
    [...parts.slice(0, 4), flip(parts[4]), parts[5]],
    [parts[0], '2048', ...parts.slice(2)],
    [parts[0], parts[1], '4', ...parts.slice(3)],
  ];
  for (const v of variants) assert.equal(await verifyPassword(PASSWORD, v.join('$')), false, v.join('$'));
});

test('malformed or out-of-bounds strings are false, not exceptions', async () => {
  const stored = await hashPassword(PASSWORD, { N: 1024, r: 8, p: 1 });
  const [, , r, p, salt, key] = stored.split('$');
  for (const bad of [
    '',
    'plain',
    PASSWORD,
    stored.replace('scrypt', 'bcrypt'),
    `${stored}$extra`,
    `scrypt$1000$${r}$${p}$${salt}$${key}`, // N not a power of two
    `scrypt$${2 ** 24}$${r}$${p}$${salt}$${key}`, // would need gigabytes
    `scrypt$1024$0$${p}$${salt}$${key}`,
  ]) {
    assert.equal(await verifyPassword(PASSWORD, bad), false, bad);
  }
});

test('a hash written with other parameters and key length still verifies (parameters come from the string)', async () => {
  // Built here with scryptSync rather than hashPassword, so the format is checked independently.
  const salt = Buffer.from('0123456789abcdef');
  const key = scryptSync(PASSWORD, salt, 64, { N: 2 ** 12, r: 4, p: 2 });
  const stored = `scrypt$4096$4$2$${salt.toString('base64url')}$${key.toString('base64url')}`;
  assert.equal(await verifyPassword(PASSWORD, stored), true);
  assert.equal(await verifyPassword(`${PASSWORD}!`, stored), false);
  const other = await hashPassword(PASSWORD, { N: 2 ** 14, r: 8, p: 1 });
  assert.match(other, /^scrypt\$16384\$8\$1\$/);
  assert.equal(await verifyPassword(PASSWORD, other), true);
});
