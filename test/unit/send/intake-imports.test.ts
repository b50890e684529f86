import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SEND = resolve('src/send');
const SMTP = resolve('src/smtp');

// docs/architecture.md ("Layers and conventions"): the relay hands the pipeline an Intake with its
// own parser and rewrite, so send/ needs nothing from smtp/ and the two folders import one way only.
test('src/send imports nothing from src/smtp', () => {
  const found: string[] = [];
  for (const name of readdirSync(SEND).filter((f) => /\.(ts|js)$/.test(f))) {
    const file = join(SEND, name);
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.[^'"]+)['"]/g)) {
      const target = resolve(dirname(file), m[1]!);
      if (!relative(SMTP, target).startsWith('..')) found.push(`${name} -> ${m[1]}`);
    }
  }
  assert.deepEqual(found, []);
});
