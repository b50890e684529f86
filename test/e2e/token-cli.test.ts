// `posthorn token create|list|revoke` as real child processes, against a real `posthorn serve` on
// the same database: the token is printed once and works over HTTPS, listings never show it, and a
// revoked token is refused on its very next request.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import { createCliDb, type CliDb } from '../helpers/cli-db.js';
import type { CliResult } from '../helpers/run-cli.js';
import { startServer, type RunningServer } from '../helpers/spawn-server.js';
import { testDialects } from '../helpers/test-db.js';

const TOKEN = /pha_[0-9a-f]{8}_[A-Za-z0-9_-]{43}/g;

function ok(r: CliResult): CliResult {
  assert.equal(r.code, 0, `exit ${r.code}; stderr: ${r.stderr}`);
  return r;
}

for (const dialect of testDialects()) {
  describe(`posthorn token (${dialect})`, () => {
    let db: CliDb;
    let server: RunningServer;
    let dispatcher: Agent;
    const cli = (...args: string[]): Promise<CliResult> => db.cli(...args);

    /** GET `path` on the server with `token`: the status and the error type, if any. */
    async function get(path: string, token: string): Promise<{ status: number; type?: string; body: unknown }> {
      const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` }, dispatcher });
      const body = (await res.json()) as { error?: { type: string } };
      return { status: res.status, body, ...(body.error ? { type: body.error.type } : {}) };
    }

    before(async () => {
      db = await createCliDb(dialect);
      ok(await cli('account', 'create', 'acme', '--json'));
      ok(await cli('account', 'create', 'other', '--json'));
      server = await startServer(
        { ...db.env, POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: 'mail.posthorn.test' },
        { args: ['--roles', 'api'] },
      );
      // The server's own self-signed certificate, trusted as such (its name is the mail hostname).
      dispatcher = new Agent({
        connect: { ca: readFileSync(join(db.dataDir, 'tls', 'cert.pem')), checkServerIdentity: () => undefined },
      });
    });
    after(async () => {
      await server?.stop();
      await dispatcher?.close();
      await db?.close();
    });

    test('create prints the token once; list never shows it; revoke makes the next request 401', async () => {
      // --json: one document with the token in it, once.
      const ci = ok(await cli('token', 'create', '--account', 'acme', '--name', 'ci', '--json'));
      assert.equal(ci.stderr, '');
      assert.deepEqual(Object.keys(ci.json).sort(), [
        'created_at',
        'id',
        'last_used_at',
        'name',
        'prefix',
        'role',
        'token',
      ]);
      assert.equal(ci.json.name, 'ci');
      assert.equal(ci.json.role, 'admin');
      assert.match(ci.json.token, /^pha_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/);
      assert.equal(ci.json.prefix, ci.json.token.slice(0, 12));
      assert.equal(ci.stdout.match(TOKEN)?.length, 1);

      // Text: the token on a line of its own, once, with the warning that it is not shown again.
      const deploy = ok(await cli('token', 'create', '--account', 'acme', '--name', 'deploy', '--role', 'viewer'));
      const printed = deploy.stdout.match(TOKEN) ?? [];
      assert.equal(printed.length, 1, deploy.stdout);
      assert.match(deploy.stdout, /shown only this once/);
      assert.match(deploy.stdout, /\(viewer\)/);
      const deployToken = printed[0]!;

      // The token works at once against the running server, and only for its own account.
      const audit = await get('/v1/audit', ci.json.token);
      assert.equal(audit.status, 200);
      const entries = (audit.body as { entries: { action: string; target: string; actor: string }[] }).entries;
      assert.deepEqual(
        entries.filter((e) => e.action === 'token.create').map((e) => [e.target, e.actor]),
        [
          ['deploy', 'cli'],
          ['ci', 'cli'],
        ],
      );
      assert.equal((await get('/v1/usage', deployToken)).status, 200, 'a viewer token reads');

      // list: names, roles, prefixes and use, never a token, in JSON or text.
      const listed = ok(await cli('token', 'list', '--account', 'acme', '--json'));
      assert.deepEqual(
        listed.json.tokens.map((t: { name: string; role: string; prefix: string }) => [t.name, t.role, t.prefix]),
        [
          ['ci', 'admin', ci.json.prefix],
          ['deploy', 'viewer', deployToken.slice(0, 12)],
        ],
      );
      assert.ok(listed.json.tokens[0].last_used_at, 'the request above shows as the last use');
      const text = ok(await cli('token', 'list', '--account', 'acme'));
      for (const out of [listed.stdout, text.stdout]) {
        assert.equal(out.match(TOKEN), null, `a listing shows a token: ${out}`);
        assert.ok(!out.includes(ci.json.token.slice(13)) && !out.includes(deployToken.slice(13)));
      }
      assert.match(text.stdout, /ci/);
      assert.equal(ok(await cli('token', 'list', '--account', 'other', '--json')).json.tokens.length, 0);

      // revoke by name: the very next request is 401, the other token keeps working.
      const revoked = ok(await cli('token', 'revoke', 'ci', '--account', 'acme', '--json'));
      assert.equal(revoked.json.name, 'ci');
      assert.equal(revoked.stdout.match(TOKEN), null);
      const refused = await get('/v1/audit', ci.json.token);
      assert.equal(refused.status, 401);
      assert.equal(refused.type, 'invalid_key');
      assert.equal((await get('/v1/usage', deployToken)).status, 200);
      const after = ok(await cli('token', 'list', '--account', 'acme', '--json'));
      assert.deepEqual(
        after.json.tokens.map((t: { name: string }) => t.name),
        ['deploy'],
      );

      // revoke by prefix works too; revoking twice, or another account's token, fails with a message.
      ok(await cli('token', 'revoke', deployToken.slice(0, 12), '--account', 'acme'));
      assert.equal((await get('/v1/usage', deployToken)).status, 401);
      const again = await cli('token', 'revoke', 'ci', '--account', 'acme');
      assert.equal(again.code, 1);
      assert.match(again.stderr, /no live token named "ci"/);
      const theirs = ok(await cli('token', 'create', '--account', 'other', '--name', 'theirs', '--json'));
      const cross = await cli('token', 'revoke', 'theirs', '--account', 'acme');
      assert.equal(cross.code, 1);
      assert.equal((await get('/v1/audit', theirs.json.token)).status, 200, 'the other account’s token is untouched');

      // the revocations are in the audit log, as the CLI.
      const log = await get('/v1/audit', theirs.json.token);
      assert.ok(
        !(log.body as { entries: { target: string }[] }).entries.some((e) => e.target === 'ci'),
        'another account’s audit log stays apart',
      );
      const rows = await db.db
        .selectFrom('audit_log')
        .select(['action', 'target', 'actor'])
        .where('action', '=', 'token.revoke')
        .orderBy('at')
        .orderBy('id')
        .execute();
      assert.deepEqual(
        rows.map((r) => [r.target, r.actor]),
        [
          ['ci', 'cli'],
          ['deploy', 'cli'],
        ],
      );
    });

    test('every token command needs --account; a bad role is refused', async () => {
      for (const words of [['create'], ['list'], ['revoke', 'ci']]) {
        const r = await cli('token', ...words);
        assert.equal(r.code, 1, words.join(' '));
        assert.match(r.stderr, /needs --account NAME/);
      }
      const bad = await cli('token', 'create', '--account', 'acme', '--role', 'owner');
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, /role "owner" is not one of admin, viewer/);
      assert.equal(bad.stdout.match(TOKEN), null, 'nothing was made, so nothing is printed');
    });
  });
}
