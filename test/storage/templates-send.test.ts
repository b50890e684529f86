// POST /v1/send with a template (docs/api.md, Sending with a template), on both databases: the
// message stored is the rendered one, the version sent is recorded, bad input is refused naming
// the field, and hostile templates or variables are stopped while the server keeps answering.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { testDialects } from '../helpers/test-db.js';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { createTemplate, updateTemplate } from '../../src/templates/template-store.js';
import { messageTemplate } from '../../src/templates/message-template.js';
import { sharedOffloadPool } from '../../src/offload/offload-pool.js';
import { CLI_ACTOR } from '../../src/core/actor.js';
import type { MessageDraft } from '../../src/mime/message-draft.js';

type SendAnswer = { status: number; body: { id?: string; error?: { type: string; field?: string; message: string } } };

for (const dialect of testDialects()) {
  describe(`sending with a template (${dialect})`, () => {
    let api: ApiHarness;
    let acme: Seeded;

    before(async () => {
      api = await startApiHarness(dialect);
      acme = await seedDomain(api.deps, { account: 'acme', domain: 'acme.test', rateLimit: 100_000 });
      await seedDomain(api.deps, { account: 'other', domain: 'other.test' });
      const other = await api.deps.db
        .selectFrom('accounts')
        .select('id')
        .where('name', '=', 'other')
        .executeTakeFirstOrThrow();
      await createTemplate(
        api.deps,
        acme.accountId,
        'welcome',
        {
          subject: 'Welcome, {{user.first_name}}',
          html: '<p>Hello {{user.first_name}}</p>{{#if plan}}<p>Plan: {{plan}}</p>{{/if}}<div>{{{signature}}}</div>',
          text: 'Hello {{user.first_name}}',
        },
        CLI_ACTOR,
      );
      await createTemplate(api.deps, other.id, 'theirs', { subject: 'Theirs', text: 'theirs' }, CLI_ACTOR);
    });
    after(() => api.close());

    async function send(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<SendAnswer> {
      const res = await api.fetch('/v1/send', {
        method: 'POST',
        headers: { authorization: `Bearer ${acme.key}`, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ from: 'hello@acme.test', to: 'ada@example.org', ...body }),
      });
      return { status: res.status, body: (await res.json()) as SendAnswer['body'] };
    }

    async function stored(id: string) {
      const row = await api.deps.db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      const events = await api.deps.db.selectFrom('events').selectAll().where('message_id', '=', id).execute();
      return { row, draft: JSON.parse(row.content!) as MessageDraft, events };
    }

    const SIGNATURE = '<b>The Acme team</b>';
    const welcome = (variables: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      template: { name: 'welcome', variables: { signature: SIGNATURE, ...variables }, ...extra },
    });

    test('the stored message is the rendered one; the message and its accepted event name the version', async () => {
      const res = await send(welcome({ user: { first_name: 'Ada' } }));
      assert.equal(res.status, 202, JSON.stringify(res.body));
      const { row, draft, events } = await stored(res.body.id!);
      assert.equal(row.subject, 'Welcome, Ada');
      assert.equal(draft.subject, 'Welcome, Ada');
      assert.equal(draft.html, `<p>Hello Ada</p><div>${SIGNATURE}</div>`);
      assert.equal(draft.text, 'Hello Ada');
      assert.deepEqual(messageTemplate(row), { name: 'welcome', version: 1 });
      assert.deepEqual(
        events.map((e) => [e.event, e.subject, JSON.parse(e.details)]),
        [['accepted-by-system', 'Welcome, Ada', { template: { name: 'welcome', version: 1 } }]],
      );
      const shown = await api.client(acme.key).GET('/v1/messages/{id}', { params: { path: { id: res.body.id! } } });
      assert.equal(shown.response.status, 200);
      assert.deepEqual(shown.data!.template, { name: 'welcome', version: 1 });
      const plain = await send({ subject: 'Plain', text: 'no template' });
      assert.equal(plain.status, 202);
      assert.equal(messageTemplate((await stored(plain.body.id!)).row), null);
      const shownPlain = await api
        .client(acme.key)
        .GET('/v1/messages/{id}', { params: { path: { id: plain.body.id! } } });
      assert.equal(shownPlain.data!.template, null);
    });

    test('values are HTML-escaped in html ({{{raw}}} by intent), plain in text, and cannot add a header through the subject', async () => {
      const hostile = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';
      const res = await send(welcome({ user: { first_name: `${hostile}\r\nBcc: victim@example.org\n` } }, {}));
      assert.equal(res.status, 202, JSON.stringify(res.body));
      const { draft, row } = await stored(res.body.id!);
      assert.ok(!draft.html!.includes('<script>'), draft.html!);
      assert.ok(!draft.html!.includes('<img'), draft.html!);
      assert.ok(
        draft.html!.includes(
          '&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src&#x3D;x onerror&#x3D;alert(2)&gt;',
        ),
        draft.html!,
      );
      assert.ok(draft.html!.includes(`<div>${SIGNATURE}</div>`), 'the triple-stash value is written as it is');
      assert.ok(draft.text!.startsWith(`Hello ${hostile}\r\nBcc:`), 'text is plain, not escaped');
      assert.doesNotMatch(draft.subject, /[\r\n]/);
      assert.equal(draft.subject, `Welcome, ${hostile} Bcc: victim@example.org`);
      assert.equal(row.subject, draft.subject);
      assert.deepEqual(draft.headers, []);
    });

    test("the send's subject replaces the template's, whose variables are then not needed", async () => {
      const res = await send({
        subject: 'Your account',
        template: { name: 'welcome', variables: { user: { first_name: 'Bo' }, signature: '' } },
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      assert.equal((await stored(res.body.id!)).draft.subject, 'Your account');
      await createTemplate(
        api.deps,
        acme.accountId,
        'subject-vars',
        { subject: 'Order {{order.id}}', text: 'Thanks' },
        CLI_ACTOR,
      );
      const own = await send({ subject: 'Thanks for your order', template: { name: 'subject-vars' } });
      assert.equal(own.status, 202, JSON.stringify(own.body));
      const missing = await send({ template: { name: 'subject-vars' } });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.error!.field, 'template.variables.order.id');
    });

    test('bad template requests are 400 (or 413) naming the field', async () => {
      const cases: [Record<string, unknown>, number, string][] = [
        [{ ...welcome({ user: { first_name: 'A' } }), html: '<p>x</p>' }, 400, 'html'],
        [{ ...welcome({ user: { first_name: 'A' } }), text: 'x' }, 400, 'text'],
        [{ template: { name: 'welcome' }, variables: { user: { first_name: 'A' } } }, 400, 'variables'],
        [{ template: 'welcome' }, 400, 'template'],
        [{ template: { name: 'welcome', vars: {} } }, 400, 'template.vars'],
        [{ template: {} }, 400, 'template.name'],
        [{ template: { name: 'Welcome!' } }, 400, 'template.name'],
        [{ template: { name: 'nope' } }, 400, 'template.name'],
        [{ template: { name: 'theirs' } }, 400, 'template.name'],
        [welcome({ user: { first_name: 'A' } }, { version: 0 }), 400, 'template.version'],
        [welcome({ user: { first_name: 'A' } }, { version: '1' }), 400, 'template.version'],
        [welcome({ user: { first_name: 'A' } }, { version: 42 }), 400, 'template.version'],
        [{ template: { name: 'welcome', variables: ['A'] } }, 400, 'template.variables'],
        [welcome({}), 400, 'template.variables.user.first_name'],
        [welcome({ user: null }), 400, 'template.variables.user.first_name'],
        [welcome({ user: { first_name: 'x'.repeat(260 * 1024) } }), 413, 'template.variables'],
        [{ template: { name: 'welcome', variables: { user: { first_name: '\ud800' } } } }, 400, 'template'],
        [
          { template: { name: 'welcome', variables: { a: { b: { c: { d: '\udfff' } } } } } },
          400,
          'template.variables.a.b.c.d',
        ],
        [{ subject: '', ...welcome({ user: { first_name: 'A' } }) }, 400, 'subject'],
      ];
      for (const [body, status, field] of cases) {
        const res = await send(body);
        assert.equal(res.status, status, `${JSON.stringify(body).slice(0, 200)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error!.field, field, `${JSON.stringify(body).slice(0, 200)}: ${res.body.error!.message}`);
      }
      const none = await send({ subject: 'S' });
      assert.equal(none.body.error!.field, 'html');
    });

    test('a send pinned to v1 sends v1 while v2 is the newest; without a version it sends v2; a deleted template is refused', async () => {
      await createTemplate(api.deps, acme.accountId, 'pinned', { subject: 'v1 {{n}}', text: 'one {{n}}' }, CLI_ACTOR);
      await updateTemplate(api.deps, acme.accountId, 'pinned', { subject: 'v2 {{n}}', text: 'two {{n}}' }, CLI_ACTOR);
      const v1 = await send({ template: { name: 'pinned', version: 1, variables: { n: 7 } } });
      const v2 = await send({ template: { name: 'pinned', variables: { n: 7 } } });
      assert.equal(v1.status, 202);
      assert.equal(v2.status, 202);
      const s1 = await stored(v1.body.id!);
      const s2 = await stored(v2.body.id!);
      assert.deepEqual(
        [s1.draft.subject, s1.draft.text, messageTemplate(s1.row)],
        ['v1 7', 'one 7', { name: 'pinned', version: 1 }],
      );
      assert.deepEqual(
        [s2.draft.subject, s2.draft.text, messageTemplate(s2.row)],
        ['v2 7', 'two 7', { name: 'pinned', version: 2 }],
      );
      const token = await api.token('acme');
      await api.client(token).DELETE('/v1/templates/{name}', { params: { path: { name: 'pinned' } } });
      const gone = await send({ template: { name: 'pinned', version: 1, variables: { n: 7 } } });
      assert.equal(gone.status, 400);
      assert.equal(gone.body.error!.field, 'template.name');
      assert.deepEqual(messageTemplate((await stored(v1.body.id!)).row), { name: 'pinned', version: 1 });
    });

    test('an Idempotency-Key replays the first answer, even after a new version; other variables under it are refused', async () => {
      await createTemplate(api.deps, acme.accountId, 'idem', { subject: 'S {{x}}', text: 'first {{x}}' }, CLI_ACTOR);
      const body = { template: { name: 'idem', variables: { x: 1 } } };
      const first = await send(body, { 'idempotency-key': 'order-1' });
      assert.equal(first.status, 202);
      await updateTemplate(api.deps, acme.accountId, 'idem', { subject: 'S {{x}}', text: 'second {{x}}' }, CLI_ACTOR);
      const replay = await send(body, { 'idempotency-key': 'order-1' });
      assert.equal(replay.status, 202);
      assert.equal(replay.body.id, first.body.id);
      const reused = await send({ template: { name: 'idem', variables: { x: 2 } } }, { 'idempotency-key': 'order-1' });
      assert.equal(reused.status, 422);
      const count = await api.deps.db
        .selectFrom('messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('template', 'like', '%"idem"%')
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 1);
    });

    test('a runaway render (#each inside #each over a long list) is stopped with 400 and the server keeps answering', async () => {
      await createTemplate(
        api.deps,
        acme.accountId,
        'runaway',
        { subject: 'S', html: '{{#each a}}{{#each ../a}}{{#each ../../a}}{{this}}{{/each}}{{/each}}{{/each}}' },
        CLI_ACTOR,
      );
      const a = Array.from({ length: 40_000 }, (_, i) => i % 10);
      const started = performance.now();
      const [runaway, normal] = await Promise.all([
        send({ template: { name: 'runaway', variables: { a } } }),
        send({ subject: 'Meanwhile', text: 'still answering' }),
      ]);
      assert.equal(runaway.status, 400, JSON.stringify(runaway.body));
      assert.equal(runaway.body.error!.field, 'template');
      assert.match(runaway.body.error!.message, /more than 200000 steps/);
      assert.equal(normal.status, 202);
      // Far from the hours the loops would take: it was stopped, not run to its end.
      assert.ok(performance.now() - started < 30_000);
      assert.equal((await send({ subject: 'After', text: 'still answering' })).status, 202);
    });

    test('a render over 10 MiB is 413; a large render is made off the event loop', async () => {
      await createTemplate(
        api.deps,
        acme.accountId,
        'huge',
        { subject: 'S', html: '{{#each rows}}<p>{{../filler}}</p>{{/each}}' },
        CLI_ACTOR,
      );
      const filler = 'x'.repeat(200 * 1024);
      const tooBig = await send({ template: { name: 'huge', variables: { filler, rows: Array(60).fill(0) } } });
      assert.equal(tooBig.status, 413, JSON.stringify(tooBig.body));
      assert.equal(tooBig.body.error!.type, 'payload_too_large');
      assert.equal(tooBig.body.error!.field, 'template');

      const pool = sharedOffloadPool(api.deps.config.offloadThreads);
      const before = pool.offThread();
      const large = await send({ template: { name: 'huge', variables: { filler, rows: Array(5).fill(0) } } });
      assert.equal(large.status, 202, JSON.stringify(large.body));
      assert.ok(pool.offThread() > before, 'the large render ran on an offload thread');
      const { draft, row } = await stored(large.body.id!);
      assert.equal(draft.html!.length, 5 * (filler.length + 7));
      assert.deepEqual(messageTemplate(row), { name: 'huge', version: 1 });
    });

    test('a version with many tags is checked, compiled and rendered only on offload threads', async () => {
      const pool = sharedOffloadPool(api.deps.config.offloadThreads);
      const html = Array.from({ length: 300 }, (_, i) => `<p>{{v${i % 10}}}</p>`).join('\n');
      let before = pool.offThread();
      await createTemplate(api.deps, acme.accountId, 'many-tags', { subject: 'S {{v0}}', html }, CLI_ACTOR);
      assert.ok(pool.offThread() > before, 'checked on an offload thread');
      const variables = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`v${i}`, `<${i}>`]));
      for (let round = 0; round < 2; round++) {
        before = pool.offThread();
        const res = await send({ template: { name: 'many-tags', variables } });
        assert.equal(res.status, 202, JSON.stringify(res.body));
        assert.ok(pool.offThread() > before, `send ${round + 1} rendered on an offload thread`);
        const { draft } = await stored(res.body.id!);
        assert.equal(draft.subject, 'S <0>');
        assert.ok(draft.html!.startsWith('<p>&lt;0&gt;</p>\n<p>&lt;1&gt;</p>'), draft.html!.slice(0, 80));
      }
    });

    test('variables cannot reach the prototype: __proto__ in variables is inert', async () => {
      await createTemplate(
        api.deps,
        acme.accountId,
        'proto',
        {
          subject: 'S',
          text: '[{{#if polluted}}{{polluted}}{{/if}}][{{#each this}}{{@key}};{{/each}}][{{name.length}}]',
        },
        CLI_ACTOR,
      );
      const res = await api.fetch('/v1/send', {
        method: 'POST',
        headers: { authorization: `Bearer ${acme.key}`, 'content-type': 'application/json' },
        body: `{"from":"hello@acme.test","to":"ada@example.org","template":{"name":"proto","variables":{"__proto__":{"polluted":"yes"},"name":"bob"}}}`,
      });
      assert.equal(res.status, 202);
      const { draft } = await stored(((await res.json()) as { id: string }).id);
      assert.equal(draft.text, '[][__proto__;name;][3]');
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });
  });
}
