// `posthorn secrets status` and `secrets rotate` as an operator runs them, and a server start that
// lacks the key the database's secrets were sealed with: refused, naming the variable.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { runCli } from '../helpers/run-cli.js';
import { createCliDb, type CliDb } from '../helpers/cli-db.js';
import { testDialects } from '../helpers/test-db.js';

for (const dialect of testDialects()) {
  describe(`secrets commands (${dialect})`, () => {
    let db: CliDb;
    after(async () => {
      await db?.close();
    });

    test('status, a refused start without the key, rotate to a new key', async () => {
      db = await createCliDb(dialect);
      const env = { ...db.env, POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: 'mail.posthorn.test' };
      const k1 = randomBytes(32).toString('base64');
      const k2 = randomBytes(32).toString('base64');
      assert.equal((await db.cli('account', 'create', 'acme')).code, 0);
      assert.equal((await db.cli('domain', 'add', 'plain.test', '--account', 'acme')).code, 0);
      const added = await runCli(['domain', 'add', 'sealed.test', '--account', 'acme', '--json'], {
        ...env,
        POSTHORN_SECRETS_KEY: k1,
      });
      assert.equal(added.code, 0, added.stderr);

      const unknown = await db.cli('secrets', 'status', '--json');
      assert.equal(unknown.code, 1, 'a key is missing: non-zero');
      assert.equal(unknown.json.key, null);
      assert.deepEqual(unknown.json.fields[0], {
        field: 'domains.dkim_private_key',
        plaintext: 1,
        current_key: 0,
        old_keys: 0,
        unknown_key: 1,
      });

      const serve = await runCli(['serve'], {
        ...env,
        POSTHORN_HTTP_PORT: '0',
        POSTHORN_SMTP_PORT: '0',
        POSTHORN_SMTPS_PORT: '0',
        POSTHORN_INBOUND_PORT: '0',
      });
      assert.notEqual(serve.code, 0);
      assert.match(
        serve.stderr,
        /posthorn: POSTHORN_SECRETS_KEY: not set, but the database holds 1 secret .* encrypted with key [0-9a-f]{16}/,
      );

      const rotated = await runCli(['secrets', 'rotate', '--json'], {
        ...env,
        POSTHORN_SECRETS_KEY: k2,
        POSTHORN_SECRETS_OLD_KEYS: k1,
      });
      assert.equal(rotated.code, 0, rotated.stderr);
      assert.deepEqual(
        { encrypted: rotated.json.encrypted, reencrypted: rotated.json.reencrypted, unchanged: rotated.json.unchanged },
        { encrypted: 1, reencrypted: 1, unchanged: 0 },
      );
      const status = await runCli(['secrets', 'status'], { ...env, POSTHORN_SECRETS_KEY: k2 });
      assert.equal(status.code, 0, status.stderr);
      assert.match(status.stdout, /every secret is encrypted with the current key/);
      const shown = await runCli(['domain', 'show', 'plain.test', '--json'], { ...env, POSTHORN_SECRETS_KEY: k2 });
      assert.equal(shown.code, 0, shown.stderr);
    });
  });
}
