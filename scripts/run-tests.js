// Runs every test file under test/ with Node's built-in runner through tsx.
// Node 20's --test does not expand globs, so the files are listed here.
// Usage: node scripts/run-tests.js [substring filter ...]
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

const filters = process.argv.slice(2);
const files = walk('test')
  .filter((f) => f.endsWith('.test.ts'))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// Test files run two at a time (the two cores CI has); TEST_CONCURRENCY=1 when something else
// shares the machine (scripts/ci-node24.sh beside the main suite).
const concurrency = Number(process.env.TEST_CONCURRENCY ?? 2);
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  // bin/posthorn.js runs dist/ when it exists; the tests' `posthorn` children must run the sources
  // under test instead, whatever an earlier `npm run build` left in dist/.
  { stdio: 'inherit', env: { ...process.env, POSTHORN_FROM_SOURCE: '1' } },
);
process.exit(result.status ?? 1);
