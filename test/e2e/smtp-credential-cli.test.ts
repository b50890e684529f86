// `posthorn smtp-credential create|revoke|list` as a real child process, on SQLite.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/load.js';
import { systemClock } from '../../src/core/clock.js';
import { authenticate } from '../../src/credentials/authenticate.js';
import { authenticateSmtp } from '../../src/credentials/smtp-credentials.js';
import { createCliDb, type CliDb } from '../helpers/cli-db.js';
import type { CliResult } from '../helpers/run-cli.js';

function assertJsonSuccess(r: CliResult): void {
  assert.equal(r.code, 0, `exit ${r.code}; stderr: ${r.stderr}`);
  assert.doesNotThrow(() => JSON.parse(r.stdout), `stdout is one JSON document: ${r.stdout}`);
  assert.equal(r.stderr, '');
}

/** The configuration the CLI children run with (production mode). */
const production = loadConfig({ POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: 'mail.posthorn.test' });

describe('posthorn smtp-credential (sqlite)', () => {
  let db: CliDb;
  const cli = (...args: string[]): Promise<CliResult> => db.cli(...args);

  before(async () => {
    db = await createCliDb('sqlite');
  });
  after(() => db.close());

  test('create prints the login once; revoke stops only that login; list shows no secrets', async () => {
    assertJsonSuccess(await cli('account', 'create', 'acme', '--json'));
    assertJsonSuccess(await cli('domain', 'add', 'relay.example.test', '--account', 'acme', '--json'));
    const key = await cli('key', 'create', 'relay.example.test', '--json');
    assertJsonSuccess(key);

    const created = await cli('smtp-credential', 'create', 'relay.example.test', '--json');
    assertJsonSuccess(created);
    assert.deepEqual(Object.keys(created.json).sort(), ['domain', 'password', 'username']);
    assert.equal(created.json.domain, 'relay.example.test');
    assert.match(created.json.username, /^ph_smtp_[0-9a-f]{12}$/);
    assert.match(created.json.password, /^phs_[A-Za-z0-9_-]{43}$/);

    const text = await cli('smtp-credential', 'create', 'relay.example.test');
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /shown only once/);
    const second = {
      username: /username: (\S+)/.exec(text.stdout)?.[1] ?? '',
      password: /password: (\S+)/.exec(text.stdout)?.[1] ?? '',
    };

    const first = await authenticateSmtp(
      { db: db.db, config: production, clock: systemClock },
      created.json.username,
      created.json.password,
    );
    assert.equal(first?.domain.name, 'relay.example.test');
    assert.ok(
      await authenticateSmtp({ db: db.db, config: production, clock: systemClock }, second.username, second.password),
    );

    const revoked = await cli('smtp-credential', 'revoke', created.json.username, '--json');
    assertJsonSuccess(revoked);
    assert.deepEqual(revoked.json, { username: created.json.username, revoked: true });
    assert.equal(
      await authenticateSmtp(
        { db: db.db, config: production, clock: systemClock },
        created.json.username,
        created.json.password,
      ),
      null,
    );
    assert.ok(
      await authenticateSmtp({ db: db.db, config: production, clock: systemClock }, second.username, second.password),
      'the other login still works',
    );
    assert.ok(
      await authenticate({ db: db.db, config: production, clock: systemClock }, `Bearer ${key.json.key}`),
      'the API key still works (logins and the key are independent)',
    );

    const again = await cli('smtp-credential', 'revoke', created.json.username);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already revoked/);
    assert.equal((await cli('smtp-credential', 'create', 'nowhere.test')).code, 1);

    const list = await cli('smtp-credential', 'list', 'relay.example.test', '--json');
    assertJsonSuccess(list);
    assert.equal(list.json.domain, 'relay.example.test');
    const rows = list.json.credentials as { username: string; created_at: string; revoked_at: string | null }[];
    assert.deepEqual(
      rows.map((r) => [r.username, r.revoked_at === null]),
      [
        [created.json.username, false],
        [second.username, true],
      ],
    );
    for (const r of rows) assert.deepEqual(Object.keys(r).sort(), ['created_at', 'revoked_at', 'username']);
    assert.ok(!list.stdout.includes('scrypt') && !list.stdout.includes(second.password));
  });
});
