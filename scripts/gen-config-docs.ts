// Writes docs/config.md from the config schema: `npm run docs:config`.
// test/unit/config/config-docs.test.ts fails when the committed file is out of date.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderConfigDocs } from '../src/config/render-config-docs.js';

const target = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'config.md');
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, renderConfigDocs());
console.log(`wrote ${target}`);
