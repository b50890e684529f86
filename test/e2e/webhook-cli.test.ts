// `posthorn webhook set|rotate|show|remove` as real child processes (docs/webhooks.md), on SQLite.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCliDb, type CliDb } from '../helpers/cli-db.js';
import type { CliResult } from '../helpers/run-cli.js';

function ok(r: CliResult): void {
  assert.equal(r.code, 0, `exit ${r.code}; stderr: ${r.stderr}`);
}

describe('posthorn webhook (sqlite)', () => {
  let db: CliDb;
  const cli = (...args: string[]): Promise<CliResult> => db.cli(...args);

  before(async () => {
    db = await createCliDb('sqlite');
    ok(await cli('account', 'create', 'acme'));
    ok(await cli('domain', 'add', 'acme.test', '--account', 'acme'));
  });
  after(() => db.close());

  test('bad URLs are refused with one line naming the problem, and nothing is stored', async () => {
    const cases: [string, RegExp][] = [
      ['not-a-url', /webhook URL "not-a-url" is not an absolute URL/],
      ['http://hooks.example.com/in', /webhook URL must use https/],
      ['ftp://hooks.example.com/in', /must use https, not ftp/],
      ['https://127.0.0.1/in', /host 127\.0\.0\.1 is not a public address/],
      ['https://10.0.0.1/in', /host 10\.0\.0\.1 is not a public address/],
      ['https://169.254.169.254/', /host 169\.254\.169\.254 is not a public address/],
      ['https://[::ffff:127.0.0.1]/', /host ::ffff:7f00:1 is not a public address/],
      ['https://localhost/in', /host localhost is loopback/],
    ];
    for (const [url, why] of cases) {
      const r = await cli('webhook', 'set', 'acme.test', url);
      assert.equal(r.code, 1, url);
      assert.equal(r.stdout, '', url);
      assert.match(r.stderr, why, url);
      assert.equal(r.stderr.trim().split('\n').length, 1, `one line for ${url}: ${r.stderr}`);
      assert.match(r.stderr, /^posthorn: /);
    }
    const json = await cli('webhook', 'set', 'acme.test', 'http://hooks.example.com/', '--json');
    assert.equal(json.code, 1);
    assert.match(json.json.error, /must use https/);
    const unknown = await cli('webhook', 'set', 'nope.test', 'https://hooks.example.com/');
    assert.match(unknown.stderr, /no domain named "nope\.test"/);
    const none = await cli('webhook', 'show', 'acme.test');
    assert.equal(none.code, 1);
    assert.match(none.stderr, /acme\.test has no webhook; set one with: posthorn webhook set acme\.test URL/);
  });

  test('set shows the secret once; a second set keeps it; rotate shows a new one; show never prints a secret; remove says what was dropped', async () => {
    const created = await cli('webhook', 'set', 'acme.test', 'https://hooks.example.com/posthorn', '--json');
    ok(created);
    assert.equal(created.json.domain, 'acme.test');
    assert.equal(created.json.url, 'https://hooks.example.com/posthorn');
    assert.match(created.json.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const secret: string = created.json.secret;

    const again = await cli('webhook', 'set', 'acme.test', 'https://hooks.example.com/v2');
    ok(again);
    assert.match(again.stdout, /the signing secret is unchanged/);
    assert.ok(!again.stdout.includes('whsec_'));
    const againJson = await cli('webhook', 'set', 'acme.test', 'https://hooks.example.com/v2', '--json');
    assert.equal(againJson.json.secret, null);

    const rotated = await cli('webhook', 'rotate', 'acme.test');
    ok(rotated);
    const fresh = /secret: (whsec_\S+)/.exec(rotated.stdout)?.[1];
    assert.ok(fresh && fresh !== secret, rotated.stdout);
    assert.match(rotated.stdout, /previous secret keeps signing beside it until \d{4}-\d\d-\d\dT/);

    for (const args of [
      ['webhook', 'show', 'acme.test'],
      ['webhook', 'show', 'acme.test', '--json'],
    ]) {
      const shown = await cli(...args);
      ok(shown);
      assert.ok(
        !shown.stdout.includes(secret) && !shown.stdout.includes(fresh) && !shown.stdout.includes('whsec_'),
        'no secret value in show',
      );
    }
    const shown = await cli('webhook', 'show', 'acme.test', '--json');
    assert.equal(shown.json.url, 'https://hooks.example.com/v2');
    assert.equal(shown.json.status, 'active');
    assert.equal(shown.json.secrets.length, 2);
    assert.equal(shown.json.pending, 0);
    assert.deepEqual(shown.json.last_attempts, []);
    const text = await cli('webhook', 'show', 'acme.test');
    assert.match(text.stdout, /status: +active/);
    assert.match(text.stdout, /attempts: none yet/);

    const removed = await cli('webhook', 'remove', 'acme.test', '--json');
    ok(removed);
    assert.deepEqual(removed.json, { domain: 'acme.test', removed: true, dropped_pending: 0 });
    assert.equal((await cli('webhook', 'show', 'acme.test')).code, 1);
  });
});
