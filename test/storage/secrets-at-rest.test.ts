// Secrets at rest: with POSTHORN_SECRETS_KEY set, DKIM private keys, webhook secrets and the
// return-path and tracking HMAC keys are stored sealed (AES-256-GCM), so the raw database holds
// none of them; plaintext from before a key coexists with sealed values; a missing or wrong key is
// refused at start naming the variable; `secrets rotate` re-encrypts; hot paths do not decrypt per message.
import { findDomain } from '../../src/domains/add-domain.js';
import { CLI_ACTOR } from '../../src/core/actor.js';
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { createAccount } from '../../src/accounts/accounts.js';
import { returnPathSecret } from '../../src/delivery/return-path.js';
import { addDomain } from '../../src/domains/add-domain.js';
import { setEd25519 } from '../../src/domains/ed25519-setting.js';
import { trackingSecret } from '../../src/tracking/secret.js';
import { buildDeps } from '../../src/main.js';
import { secretBox } from '../../src/secrets/secret-box.js';
import { rotateSecrets, secretsStatus } from '../../src/secrets/manage-secrets.js';
import type { Deps } from '../../src/deps.js';
import { rotateWebhookSecret } from '../../src/webhooks/rotate-webhook-secret.js';
import { setWebhook } from '../../src/webhooks/set-webhook.js';
import { showWebhook } from '../../src/webhooks/show-webhook.js';
import { readEndpointSecrets } from '../../src/webhooks/sealed-secrets.js';
import { Webhook } from 'standardwebhooks';
import { writeEvents } from '../../src/events/write-events.js';
import { startWebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.js';
import { createDeliveryHarness, MX_DOMAIN } from '../helpers/delivery-harness.js';
import { seedDomain } from '../helpers/seed.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';

const newKey = (): string => randomBytes(32).toString('base64');

/** Deps on the same database as `base` with other secrets settings (a restart with a new configuration). */
function withEnv(base: TestDeps, env: Record<string, string>): Deps {
  const config = loadConfig({
    POSTHORN_SANDBOX: '0',
    POSTHORN_HOSTNAME: 'mail.posthorn.test',
    ...base.testDb.env,
    ...env,
  });
  return { ...base, config };
}

/** Everything a backup would hold: the SQLite files' bytes, or every row of the secret tables as text on PostgreSQL. */
async function rawDatabase(deps: TestDeps): Promise<string> {
  if (deps.dialect === 'sqlite') {
    const file = join(deps.testDb.dataDir, 'posthorn.sqlite');
    return ['', '-wal']
      .filter((s) => existsSync(file + s))
      .map((s) => readFileSync(file + s).toString('latin1'))
      .join('\n');
  }
  const parts: string[] = [];
  for (const table of ['domains', 'webhook_endpoints', 'settings']) {
    const { rows } = await sql<{ t: string }>`SELECT row_to_json(x)::text AS t FROM ${sql.table(table)} x`.execute(
      deps.db,
    );
    parts.push(...rows.map((r) => r.t));
  }
  return parts.join('\n');
}

/** The plaintext secrets a leak would expose, read through the application. */
async function plaintextSecrets(deps: Deps, domains: string[]): Promise<string[]> {
  const out: string[] = [];
  const box = secretBox(deps.config);
  for (const name of domains) {
    const d = await deps.db.selectFrom('domains').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
    const pem = box.open(d.dkim_private_key, `domains.dkim_private_key:${d.id}`);
    assert.match(pem, /BEGIN PRIVATE KEY/);
    out.push(pem.split('\n')[1]!); // a line of the key's base64 body
    if (d.ed25519_private_key !== null)
      out.push(box.open(d.ed25519_private_key, `domains.ed25519_private_key:${d.id}`).split('\n')[1]!);
  }
  for (const e of await deps.db.selectFrom('webhook_endpoints').select(['id', 'secrets']).execute()) {
    out.push(...readEndpointSecrets(deps.config, e.id, e.secrets).map((s) => s.secret));
  }
  out.push((await returnPathSecret(deps)).toString('hex'), (await trackingSecret(deps)).toString('hex'));
  return out;
}

/** A domain with both DKIM keys and a rotated webhook (two secrets), plus both HMAC keys made. */
async function makeSecrets(deps: Deps, account: string, domain: string): Promise<void> {
  await addDomain(deps, account, domain);
  await setEd25519(deps, domain, true);
  await setWebhook(deps, await findDomain(deps, domain), 'https://hooks.example.net/posthorn', CLI_ACTOR);
  await rotateWebhookSecret(deps, await findDomain(deps, domain), CLI_ACTOR);
  await returnPathSecret(deps);
  await trackingSecret(deps);
}

for (const dialect of testDialects()) {
  describe(`secrets at rest (${dialect})`, () => {
    const open: TestDeps[] = [];
    after(async () => {
      for (const d of open) await d.close();
    });

    test('with a key set, the raw database holds no PEM, webhook secret or HMAC key, and the application reads them all', async () => {
      const key = newKey();
      const deps = await createTestDeps(dialect, { env: { POSTHORN_SECRETS_KEY: key } });
      open.push(deps);
      await createAccount(deps, 'acme');
      await makeSecrets(deps, 'acme', 'acme.test');
      const secrets = await plaintextSecrets(deps, ['acme.test']);
      assert.equal(secrets.length, 6);
      if (dialect === 'sqlite') await sql`PRAGMA wal_checkpoint(PASSIVE)`.execute(deps.db);
      const raw = await rawDatabase(deps);
      assert.ok(raw.includes('phenc1:'), 'sealed values are stored');
      assert.doesNotMatch(raw, /PRIVATE KEY/);
      for (const s of secrets)
        assert.ok(!raw.includes(s), `the raw database holds a plaintext secret (${s.slice(0, 8)}…)`);
      // The same values through a second process's view (a fresh box, nothing memoised).
      const again = withEnv(deps, { POSTHORN_SECRETS_KEY: key });
      assert.deepEqual(await plaintextSecrets(again, ['acme.test']), secrets);
      const view = await showWebhook(again, await findDomain(again, 'acme.test'));
      assert.equal(view.secrets.length, 2);
      const status = await secretsStatus(again);
      assert.deepEqual(
        status.fields.map((f) => [f.field, f.plaintext, f.current_key]),
        [
          ['domains.dkim_private_key', 0, 1],
          ['domains.dkim_pending_private_key', 0, 0],
          ['domains.ed25519_private_key', 0, 1],
          ['webhook_endpoints.secrets', 0, 1],
          ['users.totp_secret', 0, 0],
          ['users.totp_pending', 0, 0],
          ['settings.value', 0, 2],
        ],
      );
      assert.equal(status.all_current, true);
    });

    test('plaintext from before a key and sealed values coexist; start-up refuses a missing or wrong key naming the variable', async () => {
      const deps = await createTestDeps(dialect);
      open.push(deps);
      await createAccount(deps, 'acme');
      await makeSecrets(deps, 'acme', 'plain.test');
      const before = await plaintextSecrets(deps, ['plain.test']);
      const key = newKey();
      const keyed = withEnv(deps, { POSTHORN_SECRETS_KEY: key });
      await addDomain(keyed, 'acme', 'sealed.test');
      const both = await plaintextSecrets(keyed, ['plain.test', 'sealed.test']);
      assert.deepEqual(
        both.filter((s) => before.includes(s)).length,
        before.length,
        'plaintext values still read with a key set',
      );
      const stored = await deps.db.selectFrom('domains').select(['name', 'dkim_private_key']).orderBy('name').execute();
      assert.deepEqual(
        stored.map((d) => [d.name, d.dkim_private_key.slice(0, 7)]),
        [
          ['plain.test', '-----BE'],
          ['sealed.test', 'phenc1:'],
        ],
      );

      // A restart without the key, or with another one: refused before anything runs.
      const env = { POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: 'mail.posthorn.test', ...deps.testDb.env };
      await assert.rejects(
        buildDeps(loadConfig(env)),
        (err: Error) =>
          err instanceof ConfigError &&
          /^POSTHORN_SECRETS_KEY: not set, but the database holds 1 secret/.test(err.message),
      );
      await assert.rejects(
        buildDeps(loadConfig({ ...env, POSTHORN_SECRETS_KEY: newKey() })),
        (err: Error) =>
          err instanceof ConfigError &&
          /^POSTHORN_SECRETS_KEY: the database holds 1 secret .* POSTHORN_SECRETS_OLD_KEYS/.test(err.message),
      );
      const right = await buildDeps(loadConfig({ ...env, POSTHORN_SECRETS_KEY: key }));
      await right.close();
    });

    test('secrets rotate seals plaintext, then moves everything to a new key; the old key is then not needed', async () => {
      const deps = await createTestDeps(dialect);
      open.push(deps);
      await createAccount(deps, 'acme');
      await makeSecrets(deps, 'acme', 'acme.test');
      const secrets = await plaintextSecrets(deps, ['acme.test']);
      const k1 = newKey();
      const first = await rotateSecrets(withEnv(deps, { POSTHORN_SECRETS_KEY: k1 }));
      assert.deepEqual(
        { encrypted: first.encrypted, reencrypted: first.reencrypted, unchanged: first.unchanged },
        { encrypted: 5, reencrypted: 0, unchanged: 0 },
      );
      assert.equal(first.old_copies_removed, true, 'the WAL emptied (SQLite) or the tables rewritten (PostgreSQL)');
      const raw = await rawDatabase(deps);
      assert.doesNotMatch(raw, /PRIVATE KEY/, 'no plaintext copy is left behind in the database files');
      for (const s of secrets)
        assert.ok(!raw.includes(s), `a plaintext secret is left in the raw database (${s.slice(0, 8)}…)`);

      const k2 = newKey();
      await assert.rejects(rotateSecrets(withEnv(deps, { POSTHORN_SECRETS_KEY: k2 })), /POSTHORN_SECRETS_OLD_KEYS/);
      const second = await rotateSecrets(
        withEnv(deps, { POSTHORN_SECRETS_KEY: k2, POSTHORN_SECRETS_OLD_KEYS: `${newKey()}, ${k1}` }),
      );
      assert.deepEqual(
        { encrypted: second.encrypted, reencrypted: second.reencrypted },
        { encrypted: 0, reencrypted: 5 },
      );
      const onlyNew = withEnv(deps, { POSTHORN_SECRETS_KEY: k2 });
      assert.deepEqual(await plaintextSecrets(onlyNew, ['acme.test']), secrets);
      assert.equal((await rotateSecrets(onlyNew)).unchanged, 5);
      await assert.rejects(rotateSecrets(deps), /POSTHORN_SECRETS_KEY: not set/);
    });

    test('a sealed value copied into another row does not open', async () => {
      const deps = await createTestDeps(dialect, { env: { POSTHORN_SECRETS_KEY: newKey() } });
      open.push(deps);
      await createAccount(deps, 'acme');
      const a = await addDomain(deps, 'acme', 'a.test');
      const b = await addDomain(deps, 'acme', 'b.test');
      assert.throws(
        () => secretBox(deps.config).open(a.dkim_private_key, `domains.dkim_private_key:${b.id}`),
        /does not open/,
      );
    });
  });

  describe(`sealed DKIM keys on the delivery path (${dialect})`, () => {
    test('messages are signed with the sealed key, which is decrypted once, not per message', async () => {
      const h = await createDeliveryHarness(dialect, { env: { POSTHORN_SECRETS_KEY: newKey() } });
      try {
        const stored = await h.deps.db
          .selectFrom('domains')
          .select('dkim_private_key')
          .where('id', '=', h.sender.domainId)
          .executeTakeFirstOrThrow();
        assert.match(stored.dkim_private_key, /^phenc1:/);
        const box = secretBox(h.deps.config);
        const before = box.decryptions;
        for (let i = 0; i < 5; i++) {
          const r = await h.send({
            from: `hello@${h.sender.domain}`,
            to: `user${i}@${MX_DOMAIN}`,
            subject: `n${i}`,
            text: 'hi',
          });
          assert.equal(r.status, 202);
        }
        await h.run();
        const got = h.sink!.messages;
        assert.equal(got.length, 5);
        for (const m of got)
          assert.deepEqual(
            (await h.verifyDkim(m.raw)).map((v) => v.result),
            ['pass'],
          );
        assert.equal(box.decryptions - before, 1, 'the domain key is decrypted once for five messages');
      } finally {
        await h.close();
      }
    });
  });

  describe(`sealed webhook secrets on the dispatch path (${dialect})`, () => {
    test('a webhook whose secret is sealed is signed with the real secret; it is decrypted once for several POSTs', async () => {
      const t = await createTestDeps(dialect, {
        env: { POSTHORN_SECRETS_KEY: newKey(), POSTHORN_WEBHOOK_ALLOW_PRIVATE: '1' },
      });
      t.clock.set(Date.now()); // standardwebhooks checks timestamps against its own clock
      const receiver = await startWebhookReceiver();
      const d = await seedDomain(t, { domain: 'acme.test' });
      const { secret } = await setWebhook(t, await findDomain(t, 'acme.test'), receiver.url, CLI_ACTOR);
      const stored = await t.db.selectFrom('webhook_endpoints').select('secrets').executeTakeFirstOrThrow();
      assert.match(stored.secrets, /^phenc1:/);
      assert.ok(secret !== null && !stored.secrets.includes(secret));
      const box = secretBox(t.config);
      const before = box.decryptions;
      const dispatcher = startWebhookDispatcher(t, { claimBatch: 1, idlePollMs: 10 });
      try {
        const now = t.clock.now();
        const events = [1, 2, 3].map((n) => ({
          id: t.ids.next('evt', now),
          accountId: d.accountId,
          domainId: d.domainId,
          messageId: t.ids.next('msg', now),
          event: 'delivered' as const,
          recipient: `r${n}@example.org`,
          from: 'a@acme.test',
          subject: `s${n}`,
          tags: [],
          details: {},
          occurredAt: now,
        }));
        await t.db.transaction().execute((trx) => writeEvents(trx, events));
        await receiver.waitFor((r) => r.length >= 3);
        for (const got of receiver.received.slice(0, 3)) {
          const body = new Webhook(secret!).verify(got.body, {
            'webhook-id': got.id,
            'webhook-timestamp': got.timestamp,
            'webhook-signature': got.signature,
          });
          assert.equal((body as { id: string }).id, got.id);
        }
        assert.equal(box.decryptions - before, 1, 'three POSTs in three claims, one decryption');
      } finally {
        await dispatcher.stop(2_000);
        await receiver.close();
        await t.close();
      }
    });
  });
}
