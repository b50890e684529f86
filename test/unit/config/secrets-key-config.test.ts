// POSTHORN_SECRETS_KEY, POSTHORN_SECRETS_KEY_FILE and POSTHORN_SECRETS_OLD_KEYS: a bad value stops
// the start with a message that begins with the variable's name.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../src/config/load.js';
import { keyId, keyringOf } from '../../../src/secrets/keyring.js';

const dir = mkdtempSync(join(tmpdir(), 'posthorn-keys-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const base = { POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: 'mail.posthorn.test' };

function refused(env: Record<string, string>, pattern: RegExp): void {
  assert.throws(
    () => loadConfig({ ...base, ...env }),
    (err: Error) => err instanceof ConfigError && pattern.test(err.message),
    JSON.stringify(env),
  );
}

test('a key is the base64 of exactly 32 bytes; anything else names POSTHORN_SECRETS_KEY and says how to make one', () => {
  const key = randomBytes(32);
  assert.deepEqual(loadConfig({ ...base, POSTHORN_SECRETS_KEY: key.toString('base64') }).secretsKey, key);
  refused(
    { POSTHORN_SECRETS_KEY: randomBytes(16).toString('base64') },
    /^POSTHORN_SECRETS_KEY: .*openssl rand -base64 32.*got 16 bytes/,
  );
  refused({ POSTHORN_SECRETS_KEY: 'not base64 at all!' }, /^POSTHORN_SECRETS_KEY: .*not base64/);
  refused({ POSTHORN_SECRETS_KEY: key.toString('hex') }, /^POSTHORN_SECRETS_KEY: /);
  assert.equal(loadConfig(base).secretsKey, null);
});

test('a key file holds base64 text or 32 raw bytes; a missing or bad file names POSTHORN_SECRETS_KEY_FILE', () => {
  const key = randomBytes(32);
  writeFileSync(join(dir, 'b64'), `${key.toString('base64')}\n`);
  writeFileSync(join(dir, 'raw'), key);
  writeFileSync(join(dir, 'short'), randomBytes(20));
  assert.deepEqual(loadConfig({ ...base, POSTHORN_SECRETS_KEY_FILE: join(dir, 'b64') }).secretsKeyFile, key);
  assert.deepEqual(loadConfig({ ...base, POSTHORN_SECRETS_KEY_FILE: join(dir, 'raw') }).secretsKeyFile, key);
  refused({ POSTHORN_SECRETS_KEY_FILE: join(dir, 'missing') }, /^POSTHORN_SECRETS_KEY_FILE: cannot read /);
  refused({ POSTHORN_SECRETS_KEY_FILE: join(dir, 'short') }, /^POSTHORN_SECRETS_KEY_FILE: .*32 raw bytes/);
  refused(
    { POSTHORN_SECRETS_KEY_FILE: join(dir, 'b64'), POSTHORN_SECRETS_KEY: key.toString('base64') },
    /^POSTHORN_SECRETS_KEY and POSTHORN_SECRETS_KEY_FILE: set one/,
  );
  const ring = keyringOf(loadConfig({ ...base, POSTHORN_SECRETS_KEY_FILE: join(dir, 'raw') }));
  assert.deepEqual([ring.current?.id, ring.currentSource], [keyId(key), 'POSTHORN_SECRETS_KEY_FILE']);
});

test('old keys are a comma-separated list; a bad one is named by its position', () => {
  const [a, b] = [randomBytes(32), randomBytes(32)];
  const config = loadConfig({
    ...base,
    POSTHORN_SECRETS_KEY: a.toString('base64'),
    POSTHORN_SECRETS_OLD_KEYS: `${b.toString('base64')}, ${a.toString('base64')}`,
  });
  // The current key is not kept twice.
  assert.deepEqual(
    keyringOf(config).old.map((k) => k.id),
    [keyId(b)],
  );
  refused({ POSTHORN_SECRETS_OLD_KEYS: `${b.toString('base64')},abc` }, /^POSTHORN_SECRETS_OLD_KEYS: key 2: /);
});
