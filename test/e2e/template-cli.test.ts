// `posthorn template create|update|show|list|delete|install-examples` as real child processes
// (docs/templates.md), reading the parts from files as a CI job pushing templates from a
// repository would.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCliDb, type CliDb } from '../helpers/cli-db.js';
import type { CliResult } from '../helpers/run-cli.js';
import { testDialects } from '../helpers/test-db.js';

function ok(r: CliResult): void {
  assert.equal(r.code, 0, `exit ${r.code}; stderr: ${r.stderr}`);
}

function refused(r: CliResult, why: RegExp): void {
  assert.equal(r.code, 1, `exit ${r.code}; stdout: ${r.stdout}`);
  assert.match(r.stderr, /^posthorn: /);
  assert.match(r.stderr, why);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
}

for (const dialect of testDialects()) {
  describe(`posthorn template (${dialect})`, () => {
    let db: CliDb;
    let dir: string;
    const cli = (...args: string[]): Promise<CliResult> => db.cli(...args);
    const file = (name: string, content: string | Buffer) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    };

    before(async () => {
      db = await createCliDb(dialect);
      dir = mkdtempSync(join(tmpdir(), 'posthorn-templates-'));
      ok(await cli('account', 'create', 'acme'));
    });
    after(async () => {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test('create, update, show any version, list, delete; refusals are one line naming the file, line and column', async () => {
      const html = file('welcome.html', '<p>Hello {{user.first_name}}</p>\n{{#if plan}}<p>{{plan}}</p>{{/if}}\n');
      const text = file('welcome.txt', 'Hello {{user.first_name}}\n');
      const created = await cli(
        'template',
        'create',
        'welcome',
        '--account',
        'acme',
        '--subject',
        'Hi {{user.first_name}}',
        '--html',
        html,
        '--text',
        text,
        '--json',
      );
      ok(created);
      assert.equal(created.json.name, 'welcome');
      assert.equal(created.json.version, 1);
      assert.deepEqual(created.json.variables, ['plan', 'user.first_name']);

      refused(
        await cli('template', 'create', 'welcome', '--account', 'acme', '--subject', 'S', '--text', text),
        /template "welcome" already exists/,
      );
      const broken = file('broken.html', '<p>\n  ok\n  {{#each items}}{{name}}{{/if}}\n');
      refused(
        await cli('template', 'create', 'broken', '--account', 'acme', '--subject', 'S', '--html', broken),
        new RegExp(
          `${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: line 3, column 6: \\{\\{#each\\}\\} is closed by \\{\\{/if\\}\\}`,
        ),
      );
      refused(
        await cli('template', 'create', 'x', '--account', 'acme', '--subject', 'S', '--html', join(dir, 'nope.html')),
        /cannot read --html .*nope\.html: ENOENT/,
      );
      refused(
        await cli(
          'template',
          'create',
          'x',
          '--account',
          'acme',
          '--subject',
          'S',
          '--html',
          file('latin1.html', Buffer.from([0x3c, 0x70, 0x3e, 0xe9])),
        ),
        /--html .*latin1\.html is not UTF-8 text/,
      );
      refused(await cli('template', 'create', 'x', '--account', 'acme', '--html', html), /needs --subject S/);
      refused(
        await cli('template', 'create', 'x', '--account', 'acme', '--subject', 'S'),
        /needs --html FILE, --text FILE or both/,
      );
      refused(
        await cli('template', 'create', 'Bad Name', '--account', 'acme', '--subject', 'S', '--text', text),
        /must be a lowercase letter or digit/,
      );
      refused(
        await cli('template', 'create', 'x', '--account', 'nobody', '--subject', 'S', '--text', text),
        /no account named "nobody"/,
      );

      const v2 = file('welcome-v2.html', '<p>Welcome back {{user.first_name}}</p>\n');
      const updated = await cli(
        'template',
        'update',
        'welcome',
        '--account',
        'acme',
        '--subject',
        'Hello again',
        '--html',
        v2,
        '--json',
      );
      ok(updated);
      assert.equal(updated.json.version, 2);
      assert.equal(updated.json.text, null, 'a version is made whole from what is given');

      const show1 = await cli('template', 'show', 'welcome', '--account', 'acme', '--version', '1', '--json');
      ok(show1);
      assert.equal(show1.json.version, 1);
      assert.equal(show1.json.latest_version, 2);
      assert.equal(show1.json.html, '<p>Hello {{user.first_name}}</p>\n{{#if plan}}<p>{{plan}}</p>{{/if}}\n');
      const showText = await cli('template', 'show', 'welcome', '--account', 'acme');
      ok(showText);
      assert.match(showText.stdout, /^template welcome v2 of 2 /);
      assert.match(showText.stdout, /--- html ---\n<p>Welcome back/);
      refused(
        await cli('template', 'show', 'welcome', '--account', 'acme', '--version', 'two'),
        /--version must be a version number/,
      );
      refused(await cli('template', 'show', 'welcome', '--account', 'acme', '--version', '9'), /has no version 9/);

      const list = await cli('template', 'list', '--account', 'acme', '--json');
      ok(list);
      assert.deepEqual(
        list.json.templates.map((t: { name: string; version: number }) => [t.name, t.version]),
        [['welcome', 2]],
      );

      ok(await cli('template', 'delete', 'welcome', '--account', 'acme'));
      refused(
        await cli('template', 'show', 'welcome', '--account', 'acme'),
        /no template named "welcome" in this account; create it with: posthorn template create welcome/,
      );
      refused(
        await cli('template', 'update', 'welcome', '--account', 'acme', '--subject', 'S', '--text', text),
        /no template named "welcome"/,
      );

      const audit = await db.db
        .selectFrom('audit_log')
        .select(['actor', 'action', 'target'])
        .where('action', 'like', 'template.%')
        .orderBy('at')
        .orderBy('id')
        .execute();
      assert.deepEqual(
        audit.map((e) => `${e.actor} ${e.action} ${e.target}`),
        ['cli template.create welcome v1', 'cli template.update welcome v2', 'cli template.delete welcome'],
      );
    });

    test('install-examples adds welcome, password-reset and receipt once; a second run leaves them', async () => {
      const first = await cli('template', 'install-examples', '--account', 'acme', '--json');
      ok(first);
      assert.deepEqual(first.json, { installed: ['welcome', 'password-reset', 'receipt'], skipped: [] });
      const again = await cli('template', 'install-examples', '--account', 'acme');
      ok(again);
      assert.match(again.stdout, /left receipt as it is/);
      const list = await cli('template', 'list', '--account', 'acme');
      assert.match(list.stdout, /^password-reset +v1 /m);
      assert.match(list.stdout, /^receipt +v1 /m);
      assert.match(list.stdout, /^welcome +v1 /m);
    });
  });
}
