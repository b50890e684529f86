import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/http/build-app.js';
import { createTestDeps, type TestDeps } from '../../helpers/test-deps.js';

describe('a path with a malformed percent-escape', () => {
  let deps: TestDeps;
  let app: FastifyInstance;
  before(async () => {
    deps = await createTestDeps('sqlite');
    app = buildApp(deps);
  });
  after(async () => {
    await app.close();
    await deps.close();
  });

  // Found by the fuzz suite: Fastify answered these with its own body, which has no error type.
  for (const url of ['/v1/%ff', '/v1/%zz', '/v1/%', '/t/o/%c0%af', '/u/%ff']) {
    test(`${url} is 400 invalid_request naming the url`, async () => {
      const res = await app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 400);
      const body = JSON.parse(res.body) as { error: { type: string; field: string; message: string; docs: string } };
      assert.equal(body.error.type, 'invalid_request');
      assert.equal(body.error.field, 'url');
      assert.match(body.error.message, /percent-escapes/);
      assert.equal(body.error.docs, '/docs/errors#invalid_request');
    });
  }
});
