// The operator CLI as a real child process (README, Running for real), on each test database,
// with `domain verify` asking a real DNS server on loopback.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hashApiKey } from '../../src/credentials/api-key-format.js';
import { runCli, type CliResult } from '../helpers/run-cli.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { createTestDb, testDialects, type TestDb } from '../helpers/test-db.js';

/** A successful `--json` run: exit 0, exactly one JSON document on stdout, nothing on stderr. */
function assertJsonSuccess(r: CliResult): void {
  assert.equal(r.code, 0, `exit ${r.code}; stderr: ${r.stderr}`);
  assert.doesNotThrow(() => JSON.parse(r.stdout), `stdout is one JSON document: ${r.stdout}`);
  assert.equal(r.stderr, '');
}

/** A refusal: non-zero exit and exactly one line on stderr, matching `reason`. */
function assertRefused(r: CliResult, reason: RegExp): void {
  assert.notEqual(r.code, 0, `expected a refusal; stdout: ${r.stdout}`);
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line on stderr, got: ${r.stderr}`);
  assert.match(lines[0], reason);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
}

for (const dialect of testDialects()) {
  describe(`posthorn CLI (${dialect})`, () => {
    let db: TestDb;
    let dns: DnsServer;
    let env: Record<string, string>;
    const cli = (...args: string[]): Promise<CliResult> => runCli(args, env);

    before(async () => {
      db = await createTestDb(dialect);
      // The service's own SPF record, which customers' records include.
      dns = await startDnsServer({ 'spf.mail.posthorn.test': { TXT: [['v=spf1 ip4:192.0.2.0/24 -all']] } });
      env = {
        ...db.env,
        POSTHORN_SANDBOX: '0',
        POSTHORN_HOSTNAME: 'mail.posthorn.test',
        POSTHORN_DNS_SERVERS: dns.address,
      };
    });
    after(async () => {
      await dns.close();
      await db.close();
    });

    test('account create and set; a duplicate name is refused', async () => {
      const created = await cli('account', 'create', 'acme', '--json');
      assertJsonSuccess(created);
      assert.match(created.json.id, /^acc_/);
      assert.equal(created.json.name, 'acme');
      assert.equal(created.json.rate_limit, 5);
      assert.equal(created.json.monthly_quota, null);

      assertRefused(await cli('account', 'create', 'acme'), /account "acme" already exists/);
      const json = await cli('account', 'create', 'acme', '--json');
      assert.notEqual(json.code, 0);
      assert.match(json.json.error, /already exists/);

      const set = await cli('account', 'set', 'acme', '--rate-limit', '20', '--monthly-quota', '1000', '--json');
      assertJsonSuccess(set);
      assert.deepEqual([set.json.rate_limit, set.json.monthly_quota], [20, 1000]);
      const unset = await cli('account', 'set', 'acme', '--monthly-quota', 'none');
      assert.equal(unset.code, 0, unset.stderr);
      assert.match(unset.stdout, /rate limit 20 .* monthly quota unlimited/);
      const row = await db.db.selectFrom('accounts').selectAll().where('name', '=', 'acme').executeTakeFirstOrThrow();
      assert.deepEqual([row.rate_limit, row.monthly_quota], [20, null]);

      assertRefused(
        await cli('account', 'set', 'acme', '--rate-limit', 'fast'),
        /--rate-limit: expected a whole number/,
      );
      assertRefused(await cli('account', 'set', 'nobody', '--rate-limit', '3'), /no account named "nobody"/);
    });

    test('domain add, show, and verify against real DNS: failing, then passing once the records are published', async () => {
      assertJsonSuccess(await cli('account', 'create', 'shop', '--json'));
      const added = await cli('domain', 'add', 'Shop.Example.test', '--account', 'shop', '--json');
      assertJsonSuccess(added);
      assert.equal(added.json.domain, 'shop.example.test');
      assert.equal(added.json.status, 'pending');
      const records = added.json.records as { purpose: string; type: string; name: string; value: string }[];
      assert.deepEqual(
        records.map((r) => r.purpose),
        ['spf', 'dkim', 'return_path', 'dmarc'],
      );
      const [spf, dkim, returnPath, dmarc] = records;
      assert.deepEqual([spf.type, spf.name], ['TXT', 'shop.example.test']);
      assert.match(spf.value, /^v=spf1 .*include:spf\.mail\.posthorn\.test .*all$/);
      assert.equal(dkim.type, 'TXT');
      assert.match(dkim.name, /^[a-z0-9]+\._domainkey\.shop\.example\.test$/);
      assert.match(dkim.value, /^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/);
      assert.deepEqual(returnPath, {
        purpose: 'return_path',
        type: 'CNAME',
        name: 'bounce.shop.example.test',
        value: 'bounce.mail.posthorn.test',
      });
      assert.deepEqual([dmarc.type, dmarc.name], ['TXT', '_dmarc.shop.example.test']);
      assert.match(dmarc.value, /^v=DMARC1; p=/);

      const text = await cli('domain', 'add', 'other.example.test', '--account', 'shop');
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /bounce\.other\.example\.test\s+bounce\.mail\.posthorn\.test/);
      assertRefused(await cli('domain', 'add', 'shop.example.test', '--account', 'shop'), /already added/);
      assertRefused(await cli('domain', 'add', 'not a domain', '--account', 'shop'), /not a valid domain name/);
      assertRefused(await cli('domain', 'add', 'x.example.test'), /needs --account/);

      const shown = await cli('domain', 'show', 'shop.example.test', '--json');
      assertJsonSuccess(shown);
      assert.deepEqual(shown.json.records, records);
      assert.equal(shown.json.verified_at, null);
      assert.equal(shown.json.checks, null);

      const failing = await cli('domain', 'verify', 'shop.example.test', '--json');
      assert.notEqual(failing.code, 0);
      assert.equal(failing.stderr.trimEnd().split('\n').length, 1, failing.stderr);
      assert.match(failing.stderr, /not verified/);
      assert.equal(failing.json.domain, 'shop.example.test');
      assert.equal(failing.json.status, 'pending');
      for (const purpose of ['spf', 'dkim', 'return_path', 'dmarc']) {
        const check = failing.json.checks[purpose];
        assert.equal(check.ok, false, purpose);
        assert.equal(typeof check.expected, 'string');
        assert.deepEqual(check.found, []);
        assert.equal(typeof check.problem, 'string');
      }

      for (const r of records) {
        dns.zone[r.name] = r.type === 'TXT' ? { TXT: [[r.value]] } : { CNAME: [r.value] };
      }
      const passing = await cli('domain', 'verify', 'shop.example.test', '--json');
      assertJsonSuccess(passing);
      assert.equal(passing.json.status, 'verified');
      for (const purpose of ['spf', 'dkim', 'return_path', 'dmarc'])
        assert.equal(passing.json.checks[purpose].ok, true, purpose);
      const readable = await cli('domain', 'verify', 'shop.example.test');
      assert.equal(readable.code, 0, readable.stderr);
      assert.match(readable.stdout, /is verified/);

      const after = await cli('domain', 'show', 'shop.example.test', '--json');
      assertJsonSuccess(after);
      assert.equal(after.json.status, 'verified');
      assert.match(after.json.verified_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.equal(after.json.checks.dkim.ok, true);
      assertRefused(await cli('domain', 'show', 'unknown.example.test'), /no domain named/);
    });

    test('key create issues a key and replaces the previous one at once', async () => {
      assertJsonSuccess(await cli('account', 'create', 'keys', '--json'));
      assertJsonSuccess(await cli('domain', 'add', 'keys.example.test', '--account', 'keys', '--json'));
      const first = await cli('key', 'create', 'keys.example.test', '--json');
      assertJsonSuccess(first);
      assert.equal(first.json.domain, 'keys.example.test');
      assert.match(first.json.key, /^ph_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/);
      const second = await cli('key', 'create', 'keys.example.test', '--json');
      assertJsonSuccess(second);
      assert.notEqual(second.json.key, first.json.key);

      const stored = await db.db.selectFrom('api_keys').select(['key_hash', 'revoked_at']).execute();
      const byHash = new Map(stored.map((k) => [k.key_hash, k.revoked_at]));
      assert.notEqual(byHash.get(hashApiKey(first.json.key)), null, 'the first key is revoked');
      assert.equal(byHash.get(hashApiKey(second.json.key)), null, 'the second key is active');
      assertRefused(await cli('key', 'create', 'missing.example.test'), /no domain named/);
    });

    test('suppression add, list and remove', async () => {
      assertJsonSuccess(await cli('account', 'create', 'lists', '--json'));
      const added = await cli('suppression', 'add', 'Jane.Doe@Example.test', '--account', 'lists', '--json');
      assertJsonSuccess(added);
      assert.equal(added.json.address, 'jane.doe@example.test');
      assert.equal(added.json.reason, 'manual');
      assert.match(added.json.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

      const again = await cli(
        'suppression',
        'add',
        'jane.doe@example.test',
        '--account',
        'lists',
        '--reason',
        'complaint',
        '--json',
      );
      assertJsonSuccess(again);
      assert.deepEqual(again.json, added.json, 'an address already on the list keeps its entry');
      assertJsonSuccess(
        await cli('suppression', 'add', 'bob@example.test', '--account', 'lists', '--reason', 'hard_bounce', '--json'),
      );
      assertRefused(
        await cli('suppression', 'add', 'eve@example.test', '--account', 'lists', '--reason', 'spite'),
        /unknown suppression reason "spite"/,
      );
      assertRefused(await cli('suppression', 'add', 'not-an-address', '--account', 'lists'), /not an email address/);
      assertRefused(await cli('suppression', 'add', 'x@example.test', '--account', 'nobody'), /no account named/);

      const listed = await cli('suppression', 'list', '--account', 'lists', '--json');
      assertJsonSuccess(listed);
      assert.deepEqual(
        listed.json.suppressions.map((s: { address: string; reason: string }) => [s.address, s.reason]),
        [
          ['bob@example.test', 'hard_bounce'],
          ['jane.doe@example.test', 'manual'],
        ],
      );

      const removed = await cli('suppression', 'remove', 'JANE.DOE@example.test', '--account', 'lists', '--json');
      assertJsonSuccess(removed);
      assert.deepEqual(removed.json, { address: 'jane.doe@example.test', removed: true });
      assertRefused(
        await cli('suppression', 'remove', 'jane.doe@example.test', '--account', 'lists'),
        /not on the suppression list/,
      );
      const text = await cli('suppression', 'list', '--account', 'lists');
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /hard_bounce\s+bob@example\.test/);
      assert.doesNotMatch(text.stdout, /jane/);
    });

    test('bad configuration, unknown commands and options are refused with one line', async () => {
      const badPort = await runCli(['account', 'create', 'x'], { ...env, POSTHORN_HTTP_PORT: 'abc' });
      assertRefused(badPort, /POSTHORN_HTTP_PORT/);
      assertRefused(await cli('frobnicate'), /unknown command "frobnicate"/);
      assertRefused(await cli('domain', 'frobnicate', 'x'), /unknown command "domain frobnicate"/);
      assertRefused(await cli('account', 'create', 'y', '--colour'), /unknown option --colour/);
      assertRefused(await cli('account', 'create', 'y', '--account', 'z'), /account create does not take --account/);
      assertRefused(await cli('account', 'create'), /account create needs NAME/);
      assertRefused(await cli('serve', '--roles', 'api,telepathy'), /unknown role "telepathy"/);

      const help = await cli('--help');
      assert.equal(help.code, 0);
      assert.match(help.stdout, /^Usage: posthorn/);
      assert.match(help.stdout, /suppression list --account NAME/);
      assert.equal((await cli()).stdout, help.stdout);
    });
  });
}
