// The template routes (docs/api.md, Templates) over real HTTPS on both databases: every answer is
// checked against docs/openapi.json by the harness's client.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../helpers/test-db.js';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';

const WELCOME = {
  name: 'welcome',
  subject: 'Welcome, {{user.first_name}}',
  html: '<p>Hello {{user.first_name}}!</p>{{#if trial}}<p>Trial ends {{date trial.ends_at "D MMMM YYYY"}}</p>{{/if}}',
  text: 'Hello {{user.first_name}}!',
};

for (const dialect of testDialects()) {
  describe(`template routes (${dialect})`, () => {
    let api: ApiHarness;
    let acme: Seeded;
    let admin: string;
    let viewer: string;
    let otherAdmin: string;

    before(async () => {
      api = await startApiHarness(dialect);
      acme = await seedDomain(api.deps, { account: 'acme', domain: 'acme.test' });
      await seedDomain(api.deps, { account: 'other', domain: 'other.test' });
      admin = await api.token('acme', 'admin', 'ci');
      viewer = await api.token('acme', 'viewer', 'reader');
      otherAdmin = await api.token('other', 'admin', 'theirs');
    });
    after(() => api.close());

    const audit = async (action: string) =>
      (await api.client(admin).GET('/v1/audit', { params: { query: { limit: 1000 } } })).data!.entries.filter(
        (e) => e.action === action,
      );

    test('create: 201 with version 1 and the variables it uses; audited; listed', async () => {
      const { data, response } = await api.client(admin).POST('/v1/templates', { body: WELCOME });
      assert.equal(response.status, 201);
      assert.match(data!.id, /^tmpl_[0-9A-Z]{26}$/);
      assert.equal(data!.name, 'welcome');
      assert.equal(data!.version, 1);
      assert.equal(data!.latest_version, 1);
      assert.equal(data!.html, WELCOME.html);
      assert.deepEqual(data!.variables, ['trial', 'trial.ends_at', 'user.first_name']);
      const entries = await audit('template.create');
      assert.deepEqual(
        entries.map((e) => [e.target, e.actor]),
        [['welcome v1', 'token:ci']],
      );
      const list = await api.client(viewer).GET('/v1/templates');
      assert.equal(list.response.status, 200);
      assert.deepEqual(
        list.data!.templates.map((t) => [t.name, t.version, t.id]),
        [['welcome', 1, data!.id]],
      );
    });

    test('create: a taken name is 409 conflict; a bad name, a missing part or an unknown field is 400 naming it', async () => {
      const dup = await api.client(admin).POST('/v1/templates', { body: WELCOME });
      assert.equal(dup.response.status, 409);
      assert.equal(dup.error!.error.type, 'conflict');
      assert.equal(dup.error!.error.field, 'name');
      const cases: [Record<string, unknown>, string][] = [
        [{ ...WELCOME, name: 'Welcome' }, 'name'],
        [{ ...WELCOME, name: '-x' }, 'name'],
        [{ ...WELCOME, name: 'a'.repeat(65) }, 'name'],
        [{ name: 'x', html: '<p>x</p>' }, 'subject'],
        [{ name: 'x', subject: '' }, 'subject'],
        [{ name: 'x', subject: 'S' }, 'html'],
        [{ name: 'x', subject: 'S', html: '', text: null }, 'html'],
        [{ name: 'x', subject: 'S', html: 5 }, 'html'],
        [{ name: 'x', subject: 'Line\r\nBcc: victim@example.org', html: 'x' }, 'subject'],
        [{ name: 'x', subject: 'S', html: 'x', partials: {} }, 'partials'],
      ];
      for (const [body, field] of cases) {
        const res = await api.fetch('/v1/templates', {
          method: 'POST',
          headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        const json = (await res.json()) as { error: { type: string; field: string; message: string } };
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(json.error.type, 'invalid_request');
        assert.equal(json.error.field, field, `${JSON.stringify(body)}: ${json.error.message}`);
      }
      const list = await api.client(admin).GET('/v1/templates');
      assert.deepEqual(
        list.data!.templates.map((t) => t.name),
        ['welcome'],
      );
    });

    test('a syntax error is 400 naming the part, with its line and column', async () => {
      const cases: [Record<string, string>, string, RegExp][] = [
        [{ html: '<p>\n  {{#if user}}Hi' }, 'html', /^html: line 2, column \d+: .*\{\{\/…\}\} missing/],
        [
          { html: '<p>ok</p>', text: 'Hi\n{{#each items}}\n{{/if}}' },
          'text',
          /^text: line 2, column 4: \{\{#each\}\} is closed by \{\{\/if\}\}/,
        ],
        [{ subject: 'Hi {{name}', html: 'x' }, 'subject', /^subject: line 1, column 10: unexpected/],
        [{ html: 'a\n\n   {{> header}}' }, 'html', /^html: line 3, column 4: partials/],
        [
          { html: '{{#each items}}{{lookup ../prices @index}}{{/each}}' },
          'html',
          /^html: line 1, column 18: lookup is not a helper/,
        ],
        [{ html: '{{date when}}' }, 'html', /^html: line 1, column 1: date takes a value and a quoted format/],
        [{ html: '{{date when "YYYY" tz="Mars/Olympus"}}' }, 'html', /tz "Mars\/Olympus" is not an IANA time zone/],
      ];
      for (const [parts, field, message] of cases) {
        const { error, response } = await api.client(admin).POST('/v1/templates', {
          body: { name: 'broken', subject: 'S', ...parts },
        });
        assert.equal(response.status, 400, JSON.stringify(parts));
        assert.equal(error!.error.field, field);
        assert.match(error!.error.message, message);
      }
    });

    test('hostile templates are refused at save: code, the prototype chain, partials', async () => {
      for (const html of [
        '{{constructor.constructor "return process"}}',
        '{{#with this}}{{constructor.constructor}}{{/with}}',
        '{{__proto__.polluted}}',
        '{{user.__proto__}}',
        '{{#each items}}{{this.constructor.name}}{{/each}}',
        '{{#*inline "p"}}x{{/inline}}{{> p}}',
        '{{log "hello"}}',
      ]) {
        const { error, response } = await api.client(admin).POST('/v1/templates', {
          body: { name: 'hostile', subject: 'S', html },
        });
        assert.equal(response.status, 400, html);
        assert.equal(error!.error.field, 'html', html);
      }
      assert.equal(
        (await api.client(admin).GET('/v1/templates/{name}', { params: { path: { name: 'hostile' } } })).response
          .status,
        404,
      );
    });

    test('versions: PUT makes v2; v1 stays as it was and renders the same; versions are listed newest first', async () => {
      await api.client(admin).POST('/v1/templates', {
        body: { name: 'notice', subject: 'Notice for {{name}}', html: '<p>v1 {{name}}</p>' },
      });
      const vars = { variables: { name: '<Ada>' } };
      const before1 = await api.client(viewer).POST('/v1/templates/{name}/render', {
        params: { path: { name: 'notice' } },
        body: vars,
      });
      assert.equal(before1.response.status, 200);
      assert.deepEqual(before1.data, { subject: 'Notice for <Ada>', html: '<p>v1 &lt;Ada&gt;</p>', text: null });

      const v2 = await api.client(admin).PUT('/v1/templates/{name}', {
        params: { path: { name: 'notice' } },
        body: { subject: 'New notice for {{name}}', html: '<p>v2 {{name}}</p>', text: 'v2 {{name}}' },
      });
      assert.equal(v2.response.status, 200);
      assert.equal(v2.data!.version, 2);
      assert.equal(v2.data!.latest_version, 2);

      const shown1 = await api.client(viewer).GET('/v1/templates/{name}', {
        params: { path: { name: 'notice' }, query: { version: 1 } },
      });
      assert.equal(shown1.data!.version, 1);
      assert.equal(shown1.data!.latest_version, 2);
      assert.equal(shown1.data!.html, '<p>v1 {{name}}</p>');
      assert.equal(shown1.data!.text, null);
      const latest = await api.client(viewer).GET('/v1/templates/{name}', { params: { path: { name: 'notice' } } });
      assert.equal(latest.data!.version, 2);
      assert.deepEqual(latest.data!.variables, ['name']);

      const after1 = await api.client(viewer).POST('/v1/templates/{name}/render', {
        params: { path: { name: 'notice' } },
        body: { ...vars, version: 1 },
      });
      assert.deepEqual(after1.data, before1.data);
      const after2 = await api.client(viewer).POST('/v1/templates/{name}/render', {
        params: { path: { name: 'notice' } },
        body: vars,
      });
      assert.deepEqual(after2.data, {
        subject: 'New notice for <Ada>',
        html: '<p>v2 &lt;Ada&gt;</p>',
        text: 'v2 <Ada>',
      });

      const versions = await api.client(viewer).GET('/v1/templates/{name}/versions', {
        params: { path: { name: 'notice' } },
      });
      assert.deepEqual(
        versions.data!.versions.map((v) => v.version),
        [2, 1],
      );
      assert.deepEqual(
        (await audit('template.update')).map((e) => e.target),
        ['notice v2'],
      );

      for (const [body, field] of [
        [{ subject: 'S', html: '<p>{{#if x}}</p>' }, 'html'],
        [{ subject: 'S', text: '{{> footer}}' }, 'text'],
        [{ subject: 'S {{a', html: 'x' }, 'subject'],
        [{ html: 'x' }, 'subject'],
        [{ subject: 'S' }, 'html'],
        [{ subject: 'S', html: 'x', name: 'renamed' }, 'name'],
      ] as const) {
        const res = await api.fetch('/v1/templates/notice', {
          method: 'PUT',
          headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(((await res.json()) as { error: { field: string } }).error.field, field, JSON.stringify(body));
      }
      assert.equal(
        (await api.client(viewer).GET('/v1/templates/{name}', { params: { path: { name: 'notice' } } })).data!.version,
        2,
        'a refused PUT makes no version',
      );
      const badName = await api
        .client(admin)
        .DELETE('/v1/templates/{name}', { params: { path: { name: 'Bad Name' } } });
      assert.equal(badName.response.status, 400);
      assert.equal(badName.error!.error.field, 'name');

      const missing = await api.client(viewer).GET('/v1/templates/{name}', {
        params: { path: { name: 'notice' }, query: { version: 9 } },
      });
      assert.equal(missing.response.status, 404);
      assert.equal(missing.error!.error.field, 'version');
      const badVersion = await api.client(viewer).GET('/v1/templates/{name}', {
        params: { path: { name: 'notice' }, query: { version: 0 } },
      });
      assert.equal(badVersion.response.status, 400);
      assert.equal(badVersion.error!.error.field, 'version');
    });

    test('render: a missing unguarded variable is 400 naming variables.<path>; guarded ones may be missing', async () => {
      const render = (body: Record<string, unknown>, name = 'welcome') =>
        api.client(viewer).POST('/v1/templates/{name}/render', { params: { path: { name } }, body });
      const ok = await render({ variables: { user: { first_name: 'Ada' } } });
      assert.equal(ok.response.status, 200);
      assert.deepEqual(ok.data, { subject: 'Welcome, Ada', html: '<p>Hello Ada!</p>', text: 'Hello Ada!' });
      const trial = await render({ variables: { user: { first_name: 'Ada' }, trial: { ends_at: '2026-12-09' } } });
      assert.equal(trial.data!.html, '<p>Hello Ada!</p><p>Trial ends 9 December 2026</p>');
      const missing = await render({ variables: { user: {} } });
      assert.equal(missing.response.status, 400);
      assert.equal(missing.error!.error.field, 'variables.user.first_name');
      const none = await render({});
      assert.equal(none.error!.error.field, 'variables.user.first_name');
      const notObject = await render({ variables: { user: 'Ada' } });
      assert.equal(notObject.error!.error.field, 'variables.user.first_name');
      const badDate = await render({ variables: { user: { first_name: 'A' }, trial: { ends_at: 'soon' } } });
      assert.equal(badDate.response.status, 400);
      assert.equal(badDate.error!.error.field, 'variables');
      assert.match(badDate.error!.error.message, /neither an ISO 8601 date/);
      const unknownVersion = await render({ variables: {}, version: 7 });
      assert.equal(unknownVersion.response.status, 404);
      assert.equal(unknownVersion.error!.error.field, 'version');
      const unknown = await render({ variables: {} }, 'nope');
      assert.equal(unknown.response.status, 404);
      assert.equal(unknown.error!.error.field, 'name');
      const arrayVars = await api.fetch('/v1/templates/welcome/render', {
        method: 'POST',
        headers: { authorization: `Bearer ${viewer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ variables: [1, 2] }),
      });
      assert.equal(arrayVars.status, 400);
      assert.equal(((await arrayVars.json()) as { error: { field: string } }).error.field, 'variables');
      const huge = await render({ variables: { user: { first_name: 'x'.repeat(300 * 1024) } } });
      assert.equal(huge.response.status, 413);
      assert.equal(huge.error!.error.type, 'payload_too_large');
      assert.equal(huge.error!.error.field, 'variables');
    });

    test("another account's template is 404 on every route; its own name is free there", async () => {
      const other = api.client(otherAdmin);
      const path = { params: { path: { name: 'welcome' } } };
      assert.equal((await other.GET('/v1/templates/{name}', path)).response.status, 404);
      assert.equal((await other.GET('/v1/templates/{name}/versions', path)).response.status, 404);
      assert.equal((await other.POST('/v1/templates/{name}/render', { ...path, body: {} })).response.status, 404);
      const put = await other.PUT('/v1/templates/{name}', { ...path, body: { subject: 'x', html: 'x' } });
      assert.equal(put.response.status, 404);
      assert.equal(put.error!.error.field, 'name');
      assert.equal((await other.DELETE('/v1/templates/{name}', path)).response.status, 404);
      assert.deepEqual((await other.GET('/v1/templates')).data!.templates, []);
      const own = await other.POST('/v1/templates', { body: { ...WELCOME, html: '<p>theirs</p>' } });
      assert.equal(own.response.status, 201);
      const mine = await api.client(admin).GET('/v1/templates/{name}', path);
      assert.equal(mine.data!.html, WELCOME.html);
    });

    test('a viewer reads and previews but may not write; a sending key may not use any template route', async () => {
      const v = api.client(viewer);
      const path = { params: { path: { name: 'welcome' } } };
      for (const res of [
        await v.POST('/v1/templates', { body: { ...WELCOME, name: 'by-viewer' } }),
        await v.PUT('/v1/templates/{name}', { ...path, body: { subject: 'x', html: 'x' } }),
        await v.DELETE('/v1/templates/{name}', path),
      ]) {
        assert.equal(res.response.status, 403);
        assert.equal(res.error!.error.type, 'forbidden');
      }
      const key = api.client(acme.key);
      for (const res of [
        await key.GET('/v1/templates'),
        await key.GET('/v1/templates/{name}', path),
        await key.GET('/v1/templates/{name}/versions', path),
        await key.POST('/v1/templates/{name}/render', { ...path, body: {} }),
        await key.POST('/v1/templates', { body: { ...WELCOME, name: 'by-key' } }),
        await key.PUT('/v1/templates/{name}', { ...path, body: { subject: 'x', html: 'x' } }),
        await key.DELETE('/v1/templates/{name}', path),
      ]) {
        assert.equal(res.response.status, 403);
        assert.equal(res.error!.error.type, 'forbidden');
        assert.match(res.error!.error.message, /account token/);
      }
      assert.equal((await api.client().GET('/v1/templates')).response.status, 401);
      assert.equal((await v.GET('/v1/templates/{name}', path)).data!.version, 1);
    });

    test('a bad name in the path is 400 naming it; an unknown one 404', async () => {
      const bad = await api.client(admin).GET('/v1/templates/{name}', { params: { path: { name: 'Not_A_Slug' } } });
      assert.equal(bad.response.status, 400);
      assert.equal(bad.error!.error.field, 'name');
      const unknown = await api.client(admin).GET('/v1/templates/{name}/versions', {
        params: { path: { name: 'nothing-here' } },
      });
      assert.equal(unknown.response.status, 404);
      assert.equal(unknown.error!.error.field, 'name');
    });

    test('delete: 204, then 404; audited; the name can be used again', async () => {
      await api.client(admin).POST('/v1/templates', { body: { name: 'short-lived', subject: 'S', text: 'T' } });
      const path = { params: { path: { name: 'short-lived' } } };
      const del = await api.client(admin).DELETE('/v1/templates/{name}', path);
      assert.equal(del.response.status, 204);
      assert.equal((await api.client(admin).GET('/v1/templates/{name}', path)).response.status, 404);
      assert.equal((await api.client(admin).DELETE('/v1/templates/{name}', path)).response.status, 404);
      assert.deepEqual(
        (await audit('template.delete')).map((e) => e.target),
        ['short-lived'],
      );
      const again = await api.client(admin).POST('/v1/templates', {
        body: { name: 'short-lived', subject: 'S2', text: 'T2' },
      });
      assert.equal(again.response.status, 201);
      assert.equal(again.data!.version, 1);
    });
  });
}
