// SMTP relay logins on every test database: several per domain, hashed,
// resolving to the same AuthContext as the domain's API key, and independent of it both ways.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { authenticate } from '../../src/credentials/authenticate.js';
import { issueApiKey } from '../../src/credentials/issue-api-key.js';
import {
  authenticateSmtp,
  createSmtpCredential,
  listSmtpCredentials,
  revokeSmtpCredential,
} from '../../src/credentials/smtp-credentials.js';
import { RefusedError } from '../../src/core/refused-error.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { testDialects } from '../helpers/test-db.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

for (const dialect of testDialects()) {
  describe(`SMTP credentials (${dialect})`, () => {
    let deps: TestDeps;
    let seeded: Seeded;
    beforeEach(async () => {
      deps = await createTestDeps(dialect);
      seeded = await seedDomain(deps, { domain: 'example.test' });
    });
    afterEach(() => deps.close());

    test('a domain may have several logins; each authenticates to the same domain and account as the API key', async () => {
      const a = await createSmtpCredential(deps, 'example.test');
      deps.clock.advance(1000);
      const b = await createSmtpCredential(deps, 'Example.TEST');
      assert.equal(a.domain, 'example.test');
      assert.notEqual(a.username, b.username);
      assert.notEqual(a.password, b.password);
      for (const c of [a, b]) {
        assert.match(c.username, /^ph_smtp_[0-9a-f]{12}$/);
        assert.match(c.password, /^phs_[A-Za-z0-9_-]{43}$/, 'URL-safe, 256 bits');
        assert.match(c.id, /^cred_/);
      }
      const viaKey = await authenticate(deps, `Bearer ${seeded.key}`);
      assert.ok(viaKey);
      const ctxA = await authenticateSmtp(deps, a.username, a.password);
      const ctxB = await authenticateSmtp(deps, b.username, b.password);
      assert.deepEqual(ctxA, { ...viaKey, keyId: a.id });
      assert.deepEqual(ctxB, { ...viaKey, keyId: b.id });
      assert.ok(ctxA);
      assert.equal(ctxA.domain.id, seeded.domainId);
      assert.equal(ctxA.account.id, seeded.accountId);
    });

    test("a wrong password, an unknown username, or one login's password under another's name is null", async () => {
      const a = await createSmtpCredential(deps, 'example.test');
      const b = await createSmtpCredential(deps, 'example.test');
      assert.equal(await authenticateSmtp(deps, a.username, `${a.password}x`), null);
      assert.equal(await authenticateSmtp(deps, a.username, ''), null);
      assert.equal(await authenticateSmtp(deps, a.username, b.password), null);
      assert.equal(await authenticateSmtp(deps, 'ph_smtp_000000000000', a.password), null);
      assert.equal(await authenticateSmtp(deps, seeded.key, seeded.key), null, 'the API key is not an SMTP login');
    });

    test('revoking one login leaves the other and the API key working', async () => {
      const a = await createSmtpCredential(deps, 'example.test');
      const b = await createSmtpCredential(deps, 'example.test');
      assert.deepEqual(await revokeSmtpCredential(deps, a.username), { username: a.username, revoked: true });
      assert.equal(await authenticateSmtp(deps, a.username, a.password), null);
      assert.ok(await authenticateSmtp(deps, b.username, b.password));
      assert.ok(await authenticate(deps, `Bearer ${seeded.key}`));
      await assert.rejects(
        revokeSmtpCredential(deps, a.username),
        (e: unknown) => e instanceof RefusedError && e.reason === 'conflict' && /already revoked/.test(e.message),
      );
      await assert.rejects(
        revokeSmtpCredential(deps, 'ph_smtp_nobody'),
        (e: unknown) => e instanceof RefusedError && e.reason === 'not_found' && /no SMTP credential/.test(e.message),
      );
    });

    test('replacing the API key leaves SMTP logins working, and the new key works too', async () => {
      const a = await createSmtpCredential(deps, 'example.test');
      const { key } = await issueApiKey(deps, seeded.domainId);
      assert.equal(await authenticate(deps, `Bearer ${seeded.key}`), null);
      assert.ok(await authenticate(deps, `Bearer ${key}`));
      const ctx = await authenticateSmtp(deps, a.username, a.password);
      assert.equal(ctx?.domain.id, seeded.domainId);
    });

    test('the password is stored only as a slow hash', async () => {
      const a = await createSmtpCredential(deps, 'example.test');
      const row = await deps.db
        .selectFrom('smtp_credentials')
        .selectAll()
        .where('username', '=', a.username)
        .executeTakeFirstOrThrow();
      assert.equal(row.id, a.id);
      assert.equal(row.domain_id, seeded.domainId);
      assert.match(row.password_hash, /^scrypt\$32768\$8\$1\$/);
      assert.ok(!row.password_hash.includes(a.password));
      assert.ok(!row.password_hash.includes(Buffer.from(a.password, 'base64url').toString('hex')));
    });

    test('the listing shows usernames and dates, oldest first, never hashes or passwords', async () => {
      const t0 = deps.clock.now();
      const a = await createSmtpCredential(deps, 'example.test');
      deps.clock.advance(60_000);
      const b = await createSmtpCredential(deps, 'example.test');
      deps.clock.advance(60_000);
      await revokeSmtpCredential(deps, a.username);
      await seedDomain(deps, { domain: 'other.test' });
      await createSmtpCredential(deps, 'other.test');
      const list = await listSmtpCredentials(deps, 'example.test');
      assert.deepEqual(list, {
        domain: 'example.test',
        credentials: [
          {
            username: a.username,
            created_at: new Date(t0).toISOString(),
            last_used_at: null,
            revoked_at: new Date(t0 + 120_000).toISOString(),
          },
          {
            username: b.username,
            created_at: new Date(t0 + 60_000).toISOString(),
            last_used_at: null,
            revoked_at: null,
          },
        ],
      });
      const text = JSON.stringify(list);
      assert.ok(!text.includes('scrypt') && !text.includes(a.password) && !text.includes(b.password));
    });

    test('an unknown domain is a not_found refusal', async () => {
      const notFound = (e: unknown) => e instanceof RefusedError && e.reason === 'not_found' && e.field === 'domain';
      await assert.rejects(createSmtpCredential(deps, 'nowhere.test'), notFound);
      await assert.rejects(listSmtpCredentials(deps, 'nowhere.test'), notFound);
    });
  });
}
