// POST /v1/send refuses input it would otherwise have to alter: invalid UTF-8, lone surrogates,
// raw control characters, malformed mailboxes, quoted local parts and header values that cannot be
// folded to RFC 5322 line lengths. Each refusal is a 400 naming the field, and nothing is stored.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/build-app.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { message, postSend } from '../helpers/send-client.js';

for (const dialect of testDialects()) {
  describe(`POST /v1/send refuses what it would have to alter (${dialect})`, () => {
    let deps: TestDeps;
    let app: FastifyInstance;
    let s: Seeded;
    before(async () => {
      deps = await createTestDeps(dialect);
      app = buildApp(deps);
      s = await seedDomain(deps, { domain: 'acme.test', rateLimit: 10_000 });
    });
    after(async () => {
      await app.close();
      await deps.close();
    });

    const stored = async () => (await deps.db.selectFrom('messages').select('id').execute()).length;
    const refused = async (
      res: { status: number; body: { error: { type: string; field: string; message: string } } },
      field: string,
      message: RegExp,
    ) => {
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.type, 'invalid_request');
      assert.equal(res.body.error.field, field);
      assert.match(res.body.error.message, message);
    };

    test('a body that is not valid UTF-8 is refused, not decoded with replacement characters', async () => {
      const before = await stored();
      const json = Buffer.from(JSON.stringify(message('acme.test', { subject: 'Caf\u00e9 XX' })));
      const at = json.indexOf('XX');
      json[at] = 0xc3; // a lead byte with no continuation byte after it
      json[at + 1] = 0x28;
      const res = await app.inject({
        method: 'POST',
        url: '/v1/send',
        headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
        payload: json,
      });
      await refused({ status: res.statusCode, body: JSON.parse(res.body) }, 'body', /not valid UTF-8/);
      const latin1 = Buffer.from(JSON.stringify(message('acme.test', { subject: 'Caf\u00e9' })), 'latin1');
      const res2 = await app.inject({
        method: 'POST',
        url: '/v1/send',
        headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
        payload: latin1,
      });
      assert.equal(res2.statusCode, 400);
      assert.equal(await stored(), before);
    });

    test('a lone surrogate anywhere in a field is refused with the path to it; a proper pair is fine', async () => {
      const before = await stored();
      await refused(
        await postSend(app, s.key, message('acme.test', { subject: 'Hi \ud800 there' })),
        'subject',
        /^subject contains a lone surrogate/,
      );
      await refused(await postSend(app, s.key, message('acme.test', { text: 'x\udc00' })), 'text', /lone surrogate/);
      await refused(
        await postSend(app, s.key, message('acme.test', { to: ['ok@example.org', 'Bad \ud83d <b@example.org>'] })),
        'to',
        /^to\[1\] contains a lone surrogate/,
      );
      await refused(
        await postSend(app, s.key, message('acme.test', { headers: { 'X-Note': 'a\ud800' } })),
        'headers',
        /^headers\.X-Note contains a lone surrogate/,
      );
      assert.equal(await stored(), before);
      const ok = await postSend(app, s.key, message('acme.test', { subject: 'Ship it \ud83d\ude80' }));
      assert.equal(ok.status, 202, JSON.stringify(ok.body));
    });

    test('raw control characters in the subject, a header value or a display name are refused by code point', async () => {
      const before = await stored();
      await refused(
        await postSend(app, s.key, message('acme.test', { subject: 'Bell\u0007' })),
        'subject',
        /control characters; found U\+0007 at position 5/,
      );
      await refused(
        await postSend(app, s.key, message('acme.test', { subject: 'Esc \u001b[31m red' })),
        'subject',
        /U\+001B/,
      );
      await refused(await postSend(app, s.key, message('acme.test', { subject: 'C1 \u0085' })), 'subject', /U\+0085/);
      await refused(
        await postSend(app, s.key, message('acme.test', { headers: { 'X-Note': 'a\u0008b' } })),
        'headers.X-Note',
        /control characters; found U\+0008/,
      );
      await refused(
        await postSend(app, s.key, message('acme.test', { from: 'Ac\u0000me <hello@acme.test>' })),
        'from',
        /control character \(U\+0000/,
      );
      await refused(
        await postSend(app, s.key, message('acme.test', { to: 'Bob\u007f <bob@example.org>' })),
        'to',
        /control character \(U\+007F/,
      );
      assert.equal(await stored(), before);
      // A tab is whitespace in an unstructured header (RFC 5322 §2.2.1).
      assert.equal((await postSend(app, s.key, message('acme.test', { subject: 'Tab\there' }))).status, 202);
    });

    test('strict mailboxes: a stray word is not turned into a display name; specials need quotes; quoted local parts are refused by name', async () => {
      const before = await stored();
      await refused(
        await postSend(app, s.key, message('acme.test', { from: 'A x@acme.test' })),
        'from',
        /"A x@acme\.test" is not an email address: a display name goes before the address in angle brackets/,
      );
      await refused(
        await postSend(app, s.key, message('acme.test', { to: 'Ann x@example.org' })),
        'to',
        /is not an email address/,
      );
      await refused(
        await postSend(app, s.key, message('acme.test', { from: 'Acme, Inc. <hello@acme.test>' })),
        'from',
        /display name "Acme, Inc\." with "," in it; put the name in double quotes/,
      );
      await refused(
        await postSend(app, s.key, message('acme.test', { to: 'x@example.org (Comment)' })),
        'to',
        /not an email address/,
      );
      await refused(
        await postSend(app, s.key, message('acme.test', { to: 'Ann <x@example.org' })),
        'to',
        /"<" without a closing ">"/,
      );
      await refused(
        await postSend(app, s.key, message('acme.test', { to: '"john doe"@example.org' })),
        'to',
        /has a quoted local part \("…"@domain\), which Posthorn does not send to/,
      );
      await refused(
        await postSend(app, s.key, message('acme.test', { to: 'John <"j d"@example.org>' })),
        'to',
        /quoted local part/,
      );
      assert.equal(await stored(), before);
      for (const from of [
        'hello@acme.test',
        '<hello@acme.test>',
        'Acme Support <hello@acme.test>',
        '"Acme, Inc." <hello@acme.test>',
        'Dr. Acme <hello@acme.test>',
        'Acme Büro <hello@acme.test>',
      ]) {
        const res = await postSend(app, s.key, message('acme.test', { from }));
        assert.equal(res.status, 202, `${from}: ${JSON.stringify(res.body)}`);
      }
    });

    test('a custom header value that cannot be folded under 998 octets is refused; one with spaces is folded', async () => {
      const before = await stored();
      await refused(
        await postSend(app, s.key, message('acme.test', { headers: { 'X-Token': 'a'.repeat(1200) } })),
        'headers.X-Token',
        /too long for one line: a header line is at most 998 octets \(RFC 5322 §2\.1\.1\)/,
      );
      assert.equal(await stored(), before);
      assert.equal(
        (await postSend(app, s.key, message('acme.test', { headers: { 'X-Words': 'word '.repeat(390).trim() } })))
          .status,
        202,
      );
    });
  });
}
