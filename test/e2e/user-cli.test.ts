// `posthorn user create|list|remove` as real child processes, against a real `posthorn serve` on
// the same database: a generated password is printed once and signs in over HTTPS, a piped one is
// checked by the password policy and never printed, and removing a user ends their session at once.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { createCliDb, type CliDb } from '../helpers/cli-db.js';
import { runCli, type CliResult } from '../helpers/run-cli.js';
import { startServer, type RunningServer } from '../helpers/spawn-server.js';
import { testDialects } from '../helpers/test-db.js';

function ok(r: CliResult): CliResult {
  assert.equal(r.code, 0, `exit ${r.code}; stderr: ${r.stderr}`);
  return r;
}

for (const dialect of testDialects()) {
  describe(`posthorn user (${dialect})`, () => {
    let db: CliDb;
    let env: Record<string, string>;
    let server: RunningServer;
    let dispatcher: Agent;
    const cli = (...args: string[]): Promise<CliResult> => db.cli(...args);

    async function signIn(email: string, password: string): Promise<{ status: number; cookie?: string }> {
      const res = await fetch(`${server.url}/v1/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
        dispatcher,
      });
      await res.arrayBuffer();
      const cookie = res.headers.get('set-cookie')?.split(';')[0];
      return { status: res.status, ...(cookie ? { cookie } : {}) };
    }

    async function me(cookie: string): Promise<number> {
      const res = await fetch(`${server.url}/v1/session`, { headers: { cookie }, dispatcher });
      await res.arrayBuffer();
      return res.status;
    }

    before(async () => {
      db = await createCliDb(dialect);
      env = { ...db.env, POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: 'mail.posthorn.test' };
      ok(await cli('account', 'create', 'acme', '--json'));
      server = await startServer(env, { args: ['--roles', 'api'] });
      dispatcher = new Agent({
        connect: { ca: readFileSync(join(db.dataDir, 'tls', 'cert.pem')), checkServerIdentity: () => undefined },
      });
    });
    after(async () => {
      await server?.stop();
      await dispatcher?.close();
      await db?.close();
    });

    test('create prints a generated password once; it signs in; list shows the user without it', async () => {
      const made = ok(
        await cli('user', 'create', 'Ada@Example.com', '--account', 'acme', '--role', 'viewer', '--json'),
      );
      assert.equal(made.json.email, 'ada@example.com');
      assert.equal(made.json.role, 'viewer');
      assert.equal(typeof made.json.password, 'string');
      const text = ok(await cli('user', 'create', 'bob@example.com', '--account', 'acme'));
      const password = /password: (\S+)/.exec(text.stdout)?.[1];
      assert.ok(password, text.stdout);
      assert.equal((await signIn('ada@example.com', made.json.password)).status, 200);
      assert.equal((await signIn('bob@example.com', password)).status, 200);
      const list = ok(await cli('user', 'list', '--account', 'acme', '--json'));
      assert.deepEqual(
        list.json.users.map((u: { email: string; role: string }) => [u.email, u.role]),
        [
          ['ada@example.com', 'viewer'],
          ['bob@example.com', 'admin'],
        ],
      );
      assert.ok(!list.stdout.includes(made.json.password));
    });

    test('a password piped on stdin is used, never printed, and checked by the policy', async () => {
      const piped = ok(
        await runCli(['user', 'create', 'cy@example.com', '--account', 'acme'], env, 'tulip-orbit-mango-47\n'),
      );
      assert.ok(!piped.stdout.includes('tulip-orbit-mango-47'));
      assert.equal((await signIn('cy@example.com', 'tulip-orbit-mango-47')).status, 200);
      const weak = await runCli(['user', 'create', 'dee@example.com', '--account', 'acme'], env, 'qwerty123456\n');
      assert.equal(weak.code, 1);
      assert.match(weak.stderr, /common/);
      const short = await runCli(['user', 'create', 'dee@example.com', '--account', 'acme'], env, 'short\n');
      assert.equal(short.code, 1);
      assert.match(short.stderr, /at least 12/);
      const dup = await runCli(
        ['user', 'create', 'cy@example.com', '--account', 'acme'],
        env,
        'tulip-orbit-mango-47\n',
      );
      assert.equal(dup.code, 1);
      assert.match(dup.stderr, /already exists/);
      const noAccount = await cli('user', 'create', 'eve@example.com', '--account', 'nope');
      assert.equal(noAccount.code, 1);
    });

    test('remove ends the sessions of the user at once; removing again is refused', async () => {
      ok(await runCli(['user', 'create', 'gone@example.com', '--account', 'acme'], env, 'tulip-orbit-mango-47\n'));
      const { status, cookie } = await signIn('gone@example.com', 'tulip-orbit-mango-47');
      assert.equal(status, 200);
      assert.equal(await me(cookie!), 200);
      const removed = ok(await cli('user', 'remove', 'gone@example.com', '--json'));
      assert.deepEqual(removed.json, { email: 'gone@example.com', sessions_ended: 1 });
      assert.equal(await me(cookie!), 401);
      const again = await cli('user', 'remove', 'gone@example.com');
      assert.equal(again.code, 1);
      assert.match(again.stderr, /no user/);
    });
  });
}
