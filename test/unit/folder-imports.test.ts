import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const SRC = resolve('src');

/** Every relative import of a .ts/.js file under src/, as [importing top folder, imported top folder, where]. */
function folderImports(): [string, string, string][] {
  const out: [string, string, string][] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|js)$/.test(entry.name)) {
        const from = relative(SRC, path).split(sep);
        if (from.length < 2) continue; // src/main.ts, src/deps.ts: the top, above every folder
        for (const m of readFileSync(path, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)) {
          const to = relative(SRC, resolve(dirname(path), m[1]!)).split(sep);
          if (to[0] === '..' || to.length < 2 || to[0] === from[0]) continue;
          out.push([from[0]!, to[0]!, `${relative(SRC, path)} -> ${m[1]}`]);
        }
      }
    }
  };
  walk(SRC);
  return out;
}

// docs/architecture.md ("Layers and conventions"): dependencies go downward, so no two folders of
// src/ import each other; a pair that does is a seam to mend, not to add to.
test('no two folders of src/ import each other', () => {
  const edges = folderImports();
  const pairs = new Set(edges.map(([a, b]) => `${a}>${b}`));
  const twoWay = edges.filter(([a, b]) => pairs.has(`${b}>${a}`)).map(([, , where]) => where);
  assert.deepEqual(twoWay, []);
});

test('the check sees imports between folders (it would notice a cycle)', () => {
  const edges = folderImports();
  assert.ok(
    edges.some(([a, b]) => a === 'smtp' && b === 'send'),
    'the relay hands messages to the submit pipeline',
  );
  assert.ok(
    edges.some(([a, b]) => a === 'delivery' && b === 'mime'),
    'delivery renders drafts',
  );
});
