// Runs every test file under test/ with Node's built-in runner through tsx.
// Node 20's --test does not expand globs, so the files are listed here.
// Usage: node scripts/run-tests.js [substring filter ...]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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
// The tests' `posthorn` children (test/helpers/run-cli.ts) run the compiled dist/, as a release
// does: through tsx every child spent about two seconds of CPU compiling the sources before doing
// anything, and the suite starts hundreds of them. dist/ is rebuilt first when any source is newer,
// so the children never run stale code. POSTHORN_FROM_SOURCE=1 runs them from src/ instead.
const fromSource = process.env.POSTHORN_FROM_SOURCE === '1';
if (!fromSource) {
  const built = existsSync('dist/cli/main.js') ? statSync('dist/cli/main.js').mtimeMs : 0;
  const newest = Math.max(...walk('src').map((f) => statSync(f).mtimeMs), statSync('tsconfig.build.json').mtimeMs);
  if (newest > built) {
    console.log(built === 0 ? 'building dist/ for the tests' : 'src/ is newer than dist/: rebuilding it for the tests');
    const build = spawnSync(process.execPath, ['scripts/build-dist.js'], { stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
}
// Test files run two at a time (the two cores CI has); TEST_CONCURRENCY=1 when something else
// shares the machine (scripts/ci-node24.sh beside the main suite).
const concurrency = Number(process.env.TEST_CONCURRENCY ?? 2);
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, POSTHORN_TEST_CLI: fromSource ? 'source' : 'dist' } },
);
process.exit(result.status ?? 1);
