// A production server never honours sandbox credentials, and never sends the sandbox domain's mail
// (or mail to it) to the internet, whatever state an earlier sandbox start left in the database.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { loadConfig } from '../../src/config/load.js';
import { authenticate } from '../../src/credentials/authenticate.js';
import { issueApiKey } from '../../src/credentials/issue-api-key.js';
import { authenticateSmtp, createSmtpCredential, smtpContext } from '../../src/credentials/smtp-credentials.js';
import type { Deps } from '../../src/deps.js';
import { SANDBOX } from '../../src/core/sandbox-names.js';
import { bootstrapSandbox } from '../../src/sandbox/bootstrap-sandbox.js';
import { retireSandbox } from '../../src/sandbox/retire-sandbox.js';
import { createDeliveryHarness, MX_DOMAIN } from '../helpers/delivery-harness.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';

/** The same database seen by a sandbox-mode process. */
function inSandbox(t: TestDeps): Deps {
  return { ...t, config: loadConfig({ ...t.testDb.env, POSTHORN_SANDBOX: '1' }) };
}

for (const dialect of testDialects()) {
  describe(`sandbox credentials in production (${dialect})`, () => {
    const open: TestDeps[] = [];
    after(async () => {
      for (const t of open) await t.close();
    });

    test("a sandbox domain's API key and SMTP login work in sandbox mode only, even one issued after the production start", async () => {
      const t = await createTestDeps(dialect);
      open.push(t);
      assert.equal(t.config.sandbox, false);
      const sandbox = inSandbox(t);
      const welcome = await bootstrapSandbox(sandbox);
      assert.ok(welcome);
      const bearer = `Bearer ${welcome.key}`;
      assert.equal((await authenticate(sandbox, bearer))?.domain.name, SANDBOX.domain);
      assert.equal(await authenticate(t, bearer), null);
      const { username, password } = welcome.smtpCredential;
      const ctx = await authenticateSmtp(sandbox, username, password);
      assert.equal(ctx?.domain.name, SANDBOX.domain);
      assert.equal(await authenticateSmtp(t, username, password), null);
      assert.equal(await smtpContext(t, ctx.keyId), null, 'a session authenticated earlier is refused at submit too');
      // `posthorn key create sandbox.posthorn.test` run against the production database.
      const domain = await t.db
        .selectFrom('domains')
        .select('id')
        .where('name', '=', SANDBOX.domain)
        .executeTakeFirstOrThrow();
      const later = await issueApiKey(t, domain.id);
      assert.equal(await authenticate(t, `Bearer ${later.key}`), null);
      const login = await createSmtpCredential(t, SANDBOX.domain);
      assert.equal(await authenticateSmtp(t, login.username, login.password), null);
    });

    test('a production start revokes the sandbox credentials once and forgets the bootstrap, so the next sandbox start prints new ones', async () => {
      const t = await createTestDeps(dialect);
      open.push(t);
      const sandbox = inSandbox(t);
      const first = await bootstrapSandbox(sandbox);
      assert.ok(first);
      assert.equal(await bootstrapSandbox(sandbox), null, 'a second sandbox start prints nothing');
      const production = { ...t, log: pino({ level: 'silent' }) };
      const retired = await retireSandbox(production);
      assert.deepEqual(retired, {
        domains: [SANDBOX.domain],
        apiKeysRevoked: 1,
        smtpLoginsRevoked: 1,
        sessionsEnded: 0,
        queued: 0,
      });
      assert.equal(await retireSandbox(production), null, 'nothing left to do at the next production start');
      assert.equal(
        await authenticate(sandbox, `Bearer ${first.key}`),
        null,
        'revoked, so not even a sandbox start takes it again',
      );
      const second = await bootstrapSandbox(sandbox);
      assert.ok(second && second.key !== first.key);
      assert.ok(await authenticate(sandbox, `Bearer ${second.key}`));
    });
  });

  describe(`sandbox mail in production delivery (${dialect})`, () => {
    test("the sandbox domain's queued mail, and mail to the sandbox domain, go to the local mailbox, not to the MX", async () => {
      const h = await createDeliveryHarness(dialect, { localMailbox: true });
      try {
        assert.equal(h.deps.config.sandbox, false);
        const toSandbox = await h.insertMessage([`someone@${SANDBOX.domain}`]);
        await h.deps.db.updateTable('domains').set({ sandbox: 1 }).where('id', '=', h.sender.domainId).execute();
        const fromSandbox = await h.insertMessage([`someone@${MX_DOMAIN}`]);
        await h.run();
        assert.equal(h.sink!.messages.length, 0);
        assert.equal(h.sink!.connections, 0);
        const kept = await h.deps.db
          .selectFrom('sandbox_messages')
          .select(['message_id', 'recipients'])
          .orderBy('message_id')
          .execute();
        assert.deepEqual(
          kept.map((k) => [k.message_id, JSON.parse(k.recipients)]).sort(),
          [
            [toSandbox, [`someone@${SANDBOX.domain}`]],
            [fromSandbox, [`someone@${MX_DOMAIN}`]],
          ].sort(),
        );
        for (const id of [toSandbox, fromSandbox]) {
          const events = await h.events(id);
          assert.deepEqual(
            events.map((e) => e.event),
            ['accepted-by-system', 'accepted-by-mta', 'delivered'],
          );
          assert.equal(events[2]!.details.mx_host, 'sandbox');
        }
      } finally {
        await h.close();
      }
    });

    test('without a local mailbox such mail is rejected, never sent', async () => {
      const h = await createDeliveryHarness(dialect);
      try {
        await h.deps.db.updateTable('domains').set({ sandbox: 1 }).where('id', '=', h.sender.domainId).execute();
        const id = await h.insertMessage([`someone@${MX_DOMAIN}`]);
        await h.run();
        assert.equal(h.sink!.connections, 0);
        const events = await h.events(id);
        assert.equal(events.at(-1)!.event, 'rejected-by-mta');
        assert.match(String(events.at(-1)!.details.reason), /never sent to the internet/);
      } finally {
        await h.close();
      }
    });
  });
}
