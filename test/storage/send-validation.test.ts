import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/build-app.js';
import { issueApiKey } from '../../src/credentials/issue-api-key.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { message, postSend } from '../helpers/send-client.js';

for (const dialect of testDialects()) {
  describe(`POST /v1/send validation and authentication (${dialect})`, () => {
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

    // Each row: what is wrong, the body (or raw string), the field the 400 must name.
    const cases: [string, unknown, string, Record<string, string>?][] = [
      ['no Content-Type', message('acme.test'), 'Content-Type', { 'content-type': 'text/plain' }],
      ['empty body', '', 'body'],
      ['invalid JSON', '{"from":', 'body'],
      ['a JSON array', '[1,2]', 'body'],
      ['unknown field', message('acme.test', { ccc: 'x@example.org' }), 'ccc'],
      ['missing from', message('acme.test', { from: undefined }), 'from'],
      ['from not an address', message('acme.test', { from: 'not-an-address' }), 'from'],
      ['from with two addresses', message('acme.test', { from: 'a@acme.test, b@acme.test' }), 'from'],
      ['from a number', message('acme.test', { from: 42 }), 'from'],
      ['missing to', message('acme.test', { to: undefined }), 'to'],
      ['empty to array', message('acme.test', { to: [] }), 'to'],
      ['51 recipients', message('acme.test', { to: Array.from({ length: 51 }, (_, i) => `u${i}@example.org`) }), 'to'],
      ['bad recipient in array', message('acme.test', { to: ['ok@example.org', 'bad@'] }), 'to'],
      ['recipient not a string', message('acme.test', { to: [7] }), 'to'],
      ['recipient with a bad domain', message('acme.test', { to: 'a@-bad-.org' }), 'to'],
      ['missing subject', message('acme.test', { subject: undefined }), 'subject'],
      ['empty subject', message('acme.test', { subject: '  ' }), 'subject'],
      ['subject with CRLF', message('acme.test', { subject: 'Hi\r\nBcc: x@evil.test' }), 'subject'],
      ['no html, text or template', message('acme.test', { html: undefined }), 'html'],
      ['html not a string', message('acme.test', { html: ['<p>'] }), 'html'],
      ['text not a string', message('acme.test', { text: 5 }), 'text'],
      ['tags not an array', message('acme.test', { tags: 'welcome' }), 'tags'],
      ['an empty tag', message('acme.test', { tags: ['ok', ''] }), 'tags'],
      ['headers not an object', message('acme.test', { headers: ['X-A: 1'] }), 'headers'],
      ['template that is not an object', message('acme.test', { template: 'welcome' }), 'template'],
      ['arrays nested 33 deep', `{"from":"a@acme.test","to":${'['.repeat(33)}${']'.repeat(33)}}`, 'body'],
    ];
    test('a body nested a million arrays deep is refused for its depth, naming the limit', async () => {
      const res = await postSend(
        app,
        s.key,
        `{"from":"a@acme.test","to":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}`,
      );
      assert.equal(res.status, 400);
      assert.equal(res.body.error.field, 'body');
      assert.match(res.body.error.message, /more than 32 levels deep \(at byte 58\)/);
    });

    for (const [what, body, field, headers] of cases) {
      test(`400 invalid_request naming ${field}: ${what}`, async () => {
        const res = await postSend(app, s.key, body, headers);
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error.type, 'invalid_request');
        assert.equal(res.body.error.field, field);
        assert.ok(res.body.error.message.length > 10);
        assert.equal(res.body.error.docs, '/docs/errors#invalid_request');
      });
    }

    const headerCases: [string, Record<string, unknown>, string][] = [
      ['From is owned', { From: 'x@evil.test' }, 'headers.From'],
      ['DKIM-Signature is owned', { 'DKIM-Signature': 'v=1' }, 'headers.DKIM-Signature'],
      ['Content-Type is owned (Content-*)', { 'Content-Type': 'text/plain' }, 'headers.Content-Type'],
      ['ARC-Seal is owned (ARC-*)', { 'ARC-Seal': 'i=1' }, 'headers.ARC-Seal'],
      ['Message-ID is owned, whatever the case', { 'message-id': '<a@b>' }, 'headers.message-id'],
      ['a value with LF', { 'X-Order': '1\nBcc: x@evil.test' }, 'headers.X-Order'],
      ['a name with a space', { 'X Order': '1' }, 'headers.X Order'],
      ['a non-string value', { 'X-Order': 1 }, 'headers.X-Order'],
    ];
    for (const [what, headers, field] of headerCases) {
      test(`400 names ${field}: ${what}`, async () => {
        const res = await postSend(app, s.key, message('acme.test', { headers }));
        assert.equal(res.status, 400);
        assert.equal(res.body.error.field, field);
      });
    }

    test('400 names Idempotency-Key when it is too long or not printable ASCII', async () => {
      for (const bad of ['k'.repeat(256), 'clé']) {
        const res = await postSend(app, s.key, message('acme.test'), { 'idempotency-key': bad });
        assert.equal(res.status, 400);
        assert.equal(res.body.error.field, 'Idempotency-Key');
      }
    });

    test('413 payload_too_large above 10 MiB', async () => {
      const res = await postSend(app, s.key, message('acme.test', { html: 'x'.repeat(10 * 1024 * 1024 + 1) }));
      assert.equal(res.status, 413);
      assert.equal(res.body.error.type, 'payload_too_large');
    });

    test('every 401 cause gets the same body, and 401 comes before body errors', async () => {
      const other = await seedDomain(deps, { domain: 'other.test' });
      const revoked = other.key;
      await issueApiKey(deps, other.domainId); // replaces it: the old key is revoked at once
      const wellFormedUnknown = `ph_00000000_${'A'.repeat(43)}`;
      const variants: [string, Record<string, string>][] = [
        ['missing header', {}],
        ['Basic scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
        ['Bearer without a token', { authorization: 'Bearer ' }],
        ['not a Posthorn key', { authorization: 'Bearer sk_live_123' }],
        ['well-formed unknown key', { authorization: `Bearer ${wellFormedUnknown}` }],
        ['revoked key', { authorization: `Bearer ${revoked}` }],
        ['valid key with extra words', { authorization: `Bearer ${s.key} extra` }],
      ];
      const bodies = new Set<string>();
      for (const [what, headers] of variants) {
        for (const payload of [JSON.stringify(message('acme.test')), '{broken']) {
          const res = await app.inject({
            method: 'POST',
            url: '/v1/send',
            headers: { 'content-type': 'application/json', ...headers },
            payload,
          });
          assert.equal(res.statusCode, 401, what);
          bodies.add(res.body);
        }
      }
      assert.equal(bodies.size, 1);
      assert.deepEqual(JSON.parse([...bodies][0] as string).error.type, 'invalid_key');
      assert.equal((await deps.db.selectFrom('messages').select('id').execute()).length, 0);
    });

    test('a key replaced after it was used is refused at once: 401 before body errors, no Idempotency-Key claimed', async () => {
      // A key this process has answered before may be answered from memory (credentials/authenticate.ts,
      // authenticateCached); the send must still see the replacement at once (docs/api.md, Authentication).
      const used = await seedDomain(deps, { domain: 'used.test', rateLimit: 10_000 });
      const ok = await postSend(app, used.key, message('used.test'));
      assert.equal(ok.status, 202, JSON.stringify(ok.body));
      await issueApiKey(deps, used.domainId);
      const sent = await postSend(app, used.key, message('used.test'));
      assert.equal(sent.status, 401, JSON.stringify(sent.body));
      const broken = await postSend(app, used.key, '{broken');
      assert.equal(broken.status, 401, JSON.stringify(broken.body));
      const claimed = await postSend(app, used.key, message('used.test'), { 'idempotency-key': 'k-1' });
      assert.equal(claimed.status, 401, JSON.stringify(claimed.body));
      assert.equal((await deps.db.selectFrom('idempotency_keys').select('key').execute()).length, 0);
      const messages = await deps.db
        .selectFrom('messages')
        .select('id')
        .where('domain_id', '=', used.domainId)
        .execute();
      assert.equal(messages.length, 1, 'only the send before the replacement');
    });
  });
}
