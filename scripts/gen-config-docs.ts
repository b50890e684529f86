// Writes docs/config.md from the config schema, and the defaults README.md and docs/webhooks.md
// quote: `npm run docs:config`.
// test/unit/config/config-docs.test.ts fails when a committed file is out of date.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderConfigDocs, syncDocDefaults } from '../src/config/render-config-docs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const target = join(root, 'docs', 'config.md');
mkdirSync(dirname(target), { recursive: true });
writeFileSync(target, renderConfigDocs());
console.log(`wrote ${target}`);
for (const doc of ['README.md', join('docs', 'webhooks.md')]) {
  const path = join(root, doc);
  const before = readFileSync(path, 'utf8');
  const after = syncDocDefaults(before);
  if (after !== before) {
    writeFileSync(path, after);
    console.log(`updated the defaults in ${path}`);
  }
}
