// Runs every test file under test/ with Node's built-in runner, compiled to JavaScript first
// (scripts/test-tree.js says why). Node 20's --test does not expand globs, so the files are listed here.
// Usage: node scripts/run-tests.js [substring filter ...]
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { freshDist } from './fresh-dist.js';
import { buildTestTree } from './test-tree.js';

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
// The tests' `posthorn` children (test/helpers/run-cli.ts) run the compiled dist/, as a release
// does: through tsx every child spent about two seconds of CPU compiling the sources before doing
// anything, and the suite starts hundreds of them. dist/ is rebuilt first when any source is newer,
// so the children never run stale code. POSTHORN_FROM_SOURCE=1 runs them from src/ instead.
const fromSource = process.env.POSTHORN_FROM_SOURCE === '1';
if (!fromSource && !freshDist((line) => console.log(`${line} for the tests`))) process.exit(1);
const { tree, remove } = await buildTestTree();
// Test files run two at a time (the two cores CI has); TEST_CONCURRENCY=1 when something else
// shares the machine (scripts/ci-node.sh beside the main suite).
const concurrency = Number(process.env.TEST_CONCURRENCY ?? 2);
let status = 1;
try {
  const result = spawnSync(
    process.execPath,
    [
      '--enable-source-maps',
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-reporter=spec',
      ...files.map((f) => join(tree, f.replace(/\.ts$/, '.js'))),
    ],
    { stdio: 'inherit', env: { ...process.env, POSTHORN_TEST_CLI: fromSource ? 'source' : 'dist' } },
  );
  status = result.status ?? 1;
} finally {
  remove();
}
process.exit(status);
