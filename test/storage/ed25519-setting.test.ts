import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAccount } from '../../src/accounts/accounts.js';
import { addDomain } from '../../src/domains/add-domain.js';
import { domainView } from '../../src/domains/domain-view.js';
import { setEd25519 } from '../../src/domains/ed25519-setting.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';

for (const dialect of testDialects()) {
  describe(`Ed25519 signing setting (${dialect})`, () => {
    let deps: TestDeps;
    beforeEach(async () => {
      deps = await createTestDeps(dialect);
      await createAccount(deps, 'acme');
      await addDomain(deps, 'acme', 'acme.test');
    });
    afterEach(() => deps.close());

    test('on makes a key and an extra record beside the four; off removes them; on again makes a new key', async () => {
      const on = await setEd25519(deps, 'acme.test', true);
      const view = domainView(deps.config, on);
      assert.equal(view.records.length, 4);
      assert.equal(view.dkim_ed25519?.name, `${on.ed25519_selector}._domainkey.acme.test`);
      assert.match(view.dkim_ed25519?.value ?? '', /^v=DKIM1; k=ed25519; p=[A-Za-z0-9+/]{43}=$/);
      assert.notEqual(on.ed25519_selector, on.dkim_selector, 'the two keys live under different selectors');
      assert.equal(
        (await setEd25519(deps, 'acme.test', true)).ed25519_public_key,
        on.ed25519_public_key,
        'on twice keeps the key',
      );
      const off = await setEd25519(deps, 'acme.test', false);
      assert.equal(domainView(deps.config, off).dkim_ed25519, null);
      const stored = await deps.db
        .selectFrom('domains')
        .select(['ed25519_private_key'])
        .where('name', '=', 'acme.test')
        .executeTakeFirstOrThrow();
      assert.equal(stored.ed25519_private_key, null);
      const again = await setEd25519(deps, 'acme.test', true);
      assert.notEqual(again.ed25519_public_key, on.ed25519_public_key);
    });
  });
}
