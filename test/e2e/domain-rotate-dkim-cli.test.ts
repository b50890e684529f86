// `posthorn domain rotate-dkim` and the DKIM block of `domain show` through the real CLI, on each
// test database, with the loopback DNS server as the resolver (docs/delivery.md):
// the record to publish, the refusal while one is pending, the switch on `domain verify`, and the
// retired selector with its removal date.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, type CliResult } from '../helpers/run-cli.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { createTestDb, testDialects, type TestDb } from '../helpers/test-db.js';

for (const dialect of testDialects()) {
  describe(`domain rotate-dkim CLI (${dialect})`, () => {
    let db: TestDb;
    let dns: DnsServer;
    let env: Record<string, string>;
    const cli = (...args: string[]): Promise<CliResult> => runCli(args, env);

    before(async () => {
      db = await createTestDb(dialect);
      dns = await startDnsServer({ 'spf.mail.posthorn.test': { TXT: [['v=spf1 ip4:192.0.2.0/24 -all']] } });
      env = {
        ...db.env,
        POSTHORN_SANDBOX: '0',
        POSTHORN_HOSTNAME: 'mail.posthorn.test',
        POSTHORN_DNS_SERVERS: dns.address,
        POSTHORN_DKIM_RETIRE_AFTER: '10d',
      };
    });
    after(async () => {
      await dns.close();
      await db.close();
    });

    /** Publishes records as `domain add --json` and `rotate-dkim --json` print them. */
    const publish = (records: { type: string; name: string; value: string }[]) => {
      for (const r of records) dns.zone[r.name] = r.type === 'TXT' ? { TXT: [r.value] } : { CNAME: [r.value] };
    };

    test('rotate-dkim prints the record to publish; a second is refused; verify switches; show names all three selectors', async () => {
      assert.equal((await cli('account', 'create', 'acme')).code, 0);
      const added = await cli('domain', 'add', 'acme.test', '--account', 'acme', '--json');
      assert.equal(added.code, 0, added.stderr);
      publish(added.json.records);
      assert.equal((await cli('domain', 'verify', 'acme.test')).code, 0);
      const oldSelector = (added.json.records as { purpose: string; name: string }[])
        .find((r) => r.purpose === 'dkim')!
        .name.split('.')[0]!;

      const shown = await cli('domain', 'show', 'acme.test');
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(
        shown.stdout,
        new RegExp(
          `dkim:\\n  signing with: ${oldSelector} \\(key from \\S+; no scheduled rotation \\(POSTHORN_DKIM_ROTATE_DAYS is 0\\)\\)`,
        ),
      );

      const rotated = await cli('domain', 'rotate-dkim', 'acme.test', '--json');
      assert.equal(rotated.code, 0, rotated.stderr);
      const selector = rotated.json.selector as string;
      assert.match(selector, /^ph\d{8}$/);
      assert.equal(rotated.json.domain, 'acme.test');
      assert.equal(rotated.json.status, 'pending');
      assert.equal(rotated.json.signing_selector, oldSelector);
      assert.equal(rotated.json.records.length, 1);
      const record = rotated.json.records[0] as { purpose: string; type: string; name: string; value: string };
      assert.deepEqual(
        [record.purpose, record.type, record.name],
        ['dkim_pending', 'TXT', `${selector}._domainkey.acme.test`],
      );
      assert.match(record.value, /^v=DKIM1; k=rsa; p=MII[A-Za-z0-9+/]+=*$/);

      const again = await cli('domain', 'rotate-dkim', 'acme.test');
      assert.equal(again.code, 1);
      assert.equal(again.stdout, '');
      assert.match(
        again.stderr,
        new RegExp(`a DKIM rotation of acme\\.test is already pending \\(${selector}\\._domainkey\\.acme\\.test\\)`),
      );

      const pending = await cli('domain', 'show', 'acme.test');
      assert.match(pending.stdout, new RegExp(`  signing with: ${oldSelector} `));
      assert.match(
        pending.stdout,
        new RegExp(`  pending:      ${selector} since \\S+, record unknown; signing moves to it once it is found`),
      );
      assert.ok(
        pending.stdout.includes(`  dkim_pending TXT    ${record.name}\n               ${record.value}`),
        pending.stdout,
      );
      const pendingJson = await cli('domain', 'show', 'acme.test', '--json');
      assert.equal(pendingJson.json.dkim.selector, oldSelector);
      assert.equal(pendingJson.json.dkim.pending.selector, selector);
      assert.equal(pendingJson.json.dkim.pending.value, record.value);

      // Not published yet: verify passes on the old key and keeps signing with it.
      const notYet = await cli('domain', 'verify', 'acme.test', '--json');
      assert.equal(notYet.code, 0, notYet.stderr);
      assert.equal(notYet.json.dkim.selector, oldSelector);
      assert.equal(notYet.json.dkim.pending.status, 'missing');
      assert.equal((await cli('domain', 'show', 'acme.test', '--json')).json.dkim.pending.status, 'missing');

      publish([record]);
      const switched = await cli('domain', 'verify', 'acme.test');
      assert.equal(switched.code, 0, switched.stderr);
      assert.ok(switched.stdout.includes(`dkim         ok      TXT ${record.name}`), switched.stdout);
      assert.ok(
        switched.stdout.includes(
          `DKIM signing moved from ${oldSelector} to ${selector}; keep ${oldSelector}._domainkey.acme.test published until `,
        ),
        switched.stdout,
      );
      const after = await cli('domain', 'show', 'acme.test');
      assert.match(after.stdout, new RegExp(`  signing with: ${selector} \\(key from `));
      assert.doesNotMatch(after.stdout, /pending:/);
      const removeAfter = /retired: {6}(\S+): keep its record until (\S+), then remove it/.exec(after.stdout);
      assert.ok(removeAfter, after.stdout);
      assert.equal(removeAfter[1], oldSelector);
      const afterJson = await cli('domain', 'show', 'acme.test', '--json');
      assert.equal(afterJson.json.dkim.retired.remove_after, removeAfter[2]);
      assert.equal(
        Date.parse(afterJson.json.dkim.retired.remove_after) - Date.parse(afterJson.json.dkim.key_created_at),
        10 * 86_400_000,
        'POSTHORN_DKIM_RETIRE_AFTER',
      );
      assert.ok(
        after.stdout.includes(
          `  dkim_retired TXT    ${oldSelector}._domainkey.acme.test  (remove after ${removeAfter[2]})`,
        ),
      );
      assert.ok(
        after.stdout.includes(`  dkim         TXT    ${record.name}`),
        'the new record is the domain’s DKIM record',
      );
    });

    test('domain set --dkim-rotate-days sets the domain’s own period; bad values are refused', async () => {
      assert.equal((await cli('account', 'create', 'beta')).code, 0);
      assert.equal((await cli('domain', 'add', 'beta.test', '--account', 'beta')).code, 0);
      const set = await cli('domain', 'set', 'beta.test', '--dkim-rotate-days', '90');
      assert.equal(set.code, 0, set.stderr);
      assert.match(set.stdout, /rotates every 90 days \(this domain\), next \S+Z/);
      assert.equal((await cli('domain', 'show', 'beta.test', '--json')).json.dkim.rotate_days, 90);
      const never = await cli('domain', 'set', 'beta.test', '--dkim-rotate-days', '0');
      assert.match(never.stdout, /no scheduled rotation \(this domain: never\)/);
      const back = await cli('domain', 'set', 'beta.test', '--dkim-rotate-days', 'default', '--json');
      assert.equal(back.json.dkim.rotate_days, null);
      for (const bad of ['-1', '3651', '1.5']) {
        const refused = await cli('domain', 'set', 'beta.test', `--dkim-rotate-days=${bad}`);
        assert.notEqual(refused.code, 0, bad);
        assert.match(refused.stderr, /--dkim-rotate-days takes whole days from 0 \(never\) to 3650, or default/);
      }
    });
  });
}
