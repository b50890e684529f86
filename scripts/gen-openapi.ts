// Writes docs/openapi.json (the document GET /v1/openapi.json serves) and the typed client's
// types, src/client/openapi-types.ts, from the route schemas: `npm run gen:openapi`.
// test/unit/openapi-document.test.ts fails when either committed file is out of date.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { buildOpenApiDocument } from '../src/http/openapi-document.js';
import { renderClientTypes } from './render-client-types.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const doc = await buildOpenApiDocument();
// Written as prettier formats JSON, so `npm run format:check` (CI) passes right after a regeneration.
const jsonPath = join(root, 'docs', 'openapi.json');
const jsonOptions = (await resolveConfig(jsonPath)) ?? {};
writeFileSync(jsonPath, await format(JSON.stringify(doc), { ...jsonOptions, parser: 'json' }));
writeFileSync(join(root, 'src', 'client', 'openapi-types.ts'), await renderClientTypes(doc));
console.log('wrote docs/openapi.json and src/client/openapi-types.ts');
