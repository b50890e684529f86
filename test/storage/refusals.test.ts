// Refusals of the feature modules (accounts, domains, credentials, suppression, webhooks, roles) on
// every test database, through both mappings: the CLI's one-line reason, word for word as the
// commands have always printed it, and the API error a management route would answer with.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAccount, findAccount } from '../../src/accounts/accounts.js';
import { refusalLine } from '../../src/cli/refusal.js';
import { ERROR_TABLE, errorBody, type ApiErrorType } from '../../src/core/api-errors.js';
import { RefusedError, type RefusalReason } from '../../src/core/refused-error.js';
import { parseRoles } from '../../src/core/roles.js';
import { CLI_ACTOR } from '../../src/core/actor.js';
import { revokeSmtpCredential } from '../../src/credentials/smtp-credentials.js';
import { createDomainApiKey, revokeDomainApiKey, showDomainApiKey } from '../../src/credentials/domain-api-key.js';
import { addDomain, findDomain } from '../../src/domains/add-domain.js';
import { refusalApiError } from '../../src/http/refusal.js';
import { addSuppression, removeSuppression } from '../../src/suppression/manage-suppressions.js';
import { findEndpoint } from '../../src/webhooks/find-endpoint.js';
import { setWebhook } from '../../src/webhooks/set-webhook.js';
import { seedDomain } from '../helpers/seed.js';
import { testDialects } from '../helpers/test-db.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

interface Expected {
  reason: RefusalReason;
  field?: string;
  /** The CLI's stderr reason (after `posthorn: `). */
  cli: string;
  /** The API error's message, when it differs from the CLI line (no command to suggest). */
  api?: string;
}

const API_TYPE: Record<RefusalReason, { type: ApiErrorType; status: number }> = {
  invalid: { type: 'invalid_request', status: 400 },
  not_found: { type: 'not_found', status: 404 },
  conflict: { type: 'conflict', status: 409 },
  unverified: { type: 'domain_unverified', status: 403 },
};

async function refusalOf(run: () => unknown): Promise<RefusedError> {
  try {
    await run();
  } catch (err) {
    assert.ok(err instanceof RefusedError, `a RefusedError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected a refusal');
}

async function assertRefusal(run: () => unknown, want: Expected): Promise<void> {
  const err = await refusalOf(run);
  assert.equal(err.reason, want.reason, want.cli);
  assert.equal(err.field, want.field, want.cli);
  assert.equal(refusalLine(err), want.cli);
  const api = refusalApiError(err);
  assert.equal(api.type, API_TYPE[want.reason].type);
  assert.equal(ERROR_TABLE[api.type].status, API_TYPE[want.reason].status);
  const body = errorBody(api).error;
  assert.equal(body.message, want.api ?? want.cli);
  assert.equal(body.field, want.field);
  assert.doesNotMatch(body.message, /posthorn |run the command/, 'the API message names no CLI command');
}

for (const dialect of testDialects()) {
  describe(`feature refusals and their CLI and API mappings (${dialect})`, () => {
    let deps: TestDeps;
    beforeEach(async () => {
      deps = await createTestDeps(dialect, { env: { POSTHORN_WEBHOOK_ALLOW_PRIVATE: '0' } });
      await seedDomain(deps, { domain: 'example.test' });
    });
    afterEach(() => deps.close());

    test('accounts', async () => {
      await assertRefusal(() => createAccount(deps, 'acme'), {
        reason: 'conflict',
        field: 'name',
        cli: 'account "acme" already exists',
      });
      await assertRefusal(() => createAccount(deps, '-x'), {
        reason: 'invalid',
        field: 'name',
        cli: 'account name "-x" must be 1 to 100 letters, digits, spaces, dots, dashes, underscores or @',
      });
      await assertRefusal(() => findAccount(deps, 'nobody'), {
        reason: 'not_found',
        field: 'account',
        cli: 'no account named "nobody"',
      });
    });

    test('domains', async () => {
      await assertRefusal(() => addDomain(deps, 'acme', 'not a domain'), {
        reason: 'invalid',
        field: 'name',
        cli: '"not a domain" is not a valid domain name (e.g. example.com)',
      });
      await assertRefusal(() => addDomain(deps, 'acme', 'Example.TEST'), {
        reason: 'conflict',
        field: 'name',
        cli: 'domain example.test is already added to this account',
      });
      await createAccount(deps, 'other');
      await assertRefusal(() => addDomain(deps, 'other', 'example.test'), {
        reason: 'conflict',
        field: 'name',
        cli: 'domain example.test is already added to another account',
      });
      await assertRefusal(() => findDomain(deps, 'nope.test'), {
        reason: 'not_found',
        field: 'domain',
        cli: 'no domain named "nope.test"; add it with: posthorn domain add nope.test --account NAME',
        api: 'no domain named "nope.test"',
      });
    });

    test('API keys', async () => {
      await seedDomain(deps, { domain: 'pending.test', status: 'pending' });
      const msg =
        'pending.test is pending: an API key is issued once the domain is verified; publish its DNS records and verify it first';
      await assertRefusal(() => createDomainApiKey(deps, 'pending.test', CLI_ACTOR), {
        reason: 'unverified',
        cli: msg,
      });
      await assertRefusal(() => showDomainApiKey(deps, 'nokey.test'), {
        reason: 'not_found',
        field: 'domain',
        cli: 'no domain named "nokey.test"; add it with: posthorn domain add nokey.test --account NAME',
        api: 'no domain named "nokey.test"',
      });
      await revokeDomainApiKey(deps, 'example.test', CLI_ACTOR);
      await assertRefusal(() => revokeDomainApiKey(deps, 'example.test', CLI_ACTOR), {
        reason: 'not_found',
        cli: 'example.test has no API key',
      });
    });

    test('SMTP credentials', async () => {
      await assertRefusal(() => revokeSmtpCredential(deps, 'ph_smtp_nobody'), {
        reason: 'not_found',
        field: 'username',
        cli: 'no SMTP credential named "ph_smtp_nobody"',
      });
    });

    test('suppression', async () => {
      const { id } = await findAccount(deps, 'acme');
      await assertRefusal(() => addSuppression(deps, id, { address: 'bob@' }, CLI_ACTOR), {
        reason: 'invalid',
        field: 'address',
        cli: '"bob@" is not an email address (expected local@domain.example)',
      });
      await assertRefusal(() => addSuppression(deps, id, { address: 'bob@example.org', reason: 'tired' }, CLI_ACTOR), {
        reason: 'invalid',
        field: 'reason',
        cli: 'unknown suppression reason "tired"; use one of hard_bounce, complaint, unsubscribed, manual',
      });
      await assertRefusal(() => removeSuppression(deps, id, 'Bob@Example.org', CLI_ACTOR), {
        reason: 'not_found',
        field: 'address',
        cli: 'bob@example.org is not on the suppression list',
      });
    });

    test('webhooks', async () => {
      await assertRefusal(async () => findEndpoint(deps, await findDomain(deps, 'example.test')), {
        reason: 'not_found',
        cli: 'example.test has no webhook; set one with: posthorn webhook set example.test URL',
        api: 'example.test has no webhook',
      });
      await assertRefusal(
        async () => setWebhook(deps, await findDomain(deps, 'example.test'), 'http://hooks.example.com/', CLI_ACTOR),
        {
          reason: 'invalid',
          field: 'url',
          cli: 'webhook URL must use https (http is allowed only with POSTHORN_WEBHOOK_ALLOW_PRIVATE=1, for local development)',
        },
      );
      // The CLI finds the domain by name before calling the webhook function.
      await assertRefusal(() => findDomain(deps, 'nope.test'), {
        reason: 'not_found',
        field: 'domain',
        cli: 'no domain named "nope.test"; add it with: posthorn domain add nope.test --account NAME',
        api: 'no domain named "nope.test"',
      });
    });
  });
}

describe('refusals without a database', () => {
  test('roles', async () => {
    await assertRefusal(() => parseRoles('api,mail'), {
      reason: 'invalid',
      field: 'roles',
      cli: 'unknown role "mail"; roles are api, smtp, inbound, delivery, webhooks, scheduler',
    });
  });

  test('a conflict with a concurrent change tells the operator to run the command again; the API does not', () => {
    // What rotate-webhook-secret.ts and set-webhook.ts throw when another change wins the race.
    const err = new RefusedError('conflict', 'the webhook of example.test changed while rotating', {
      subject: { kind: 'webhook', name: 'example.test' },
      retry: true,
    });
    assert.equal(refusalLine(err), 'the webhook of example.test changed while rotating; run the command again');
    assert.deepEqual(refusalApiError(err), {
      type: 'conflict',
      message: 'the webhook of example.test changed while rotating',
    });
  });
});
