import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildOpenApiDocument } from '../../src/http/openapi-document.js';
import { renderClientTypes } from '../../scripts/render-client-types.js';
import { REPO_ROOT } from '../helpers/run-cli.js';

test('docs/openapi.json and the typed client are what the routes generate (run npm run gen:openapi)', async () => {
  const doc = await buildOpenApiDocument();
  const committed = JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'openapi.json'), 'utf8')) as unknown;
  assert.deepEqual(committed, doc, 'docs/openapi.json is stale: run npm run gen:openapi');
  const types = readFileSync(join(REPO_ROOT, 'src', 'client', 'openapi-types.ts'), 'utf8');
  assert.equal(types, await renderClientTypes(doc), 'src/client/openapi-types.ts is stale: run npm run gen:openapi');
});

test('every /v1 operation has an operationId, a summary, a tag and a 401 or is public', async () => {
  const doc = (await buildOpenApiDocument()) as {
    paths: Record<
      string,
      Record<
        string,
        {
          operationId?: string;
          summary?: string;
          tags?: string[];
          security?: unknown[];
          responses: Record<string, unknown>;
        }
      >
    >;
  };
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.ok(op.operationId, `${where} has no operationId`);
      assert.ok(op.summary, `${where} has no summary`);
      assert.ok(op.tags?.length, `${where} has no tag`);
      if ((op.security ?? []).length > 0) assert.ok(op.responses['401'], `${where} documents no 401`);
    }
  }
});
