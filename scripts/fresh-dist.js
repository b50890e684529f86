// Rebuilds dist/ when any file under src/ (or the build's own configuration) is newer than it, so
// what runs from dist/ is never stale: used by the test runner (scripts/run-tests.js) and by the
// benches (bench/from-dist.ts), whose `posthorn` children run dist/ as a release does.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** Builds dist/ when it is missing or older than a source; returns false when the build failed. */
export function freshDist(say = console.log) {
  const built = existsSync('dist/cli/main.js') ? statSync('dist/cli/main.js').mtimeMs : 0;
  const newest = Math.max(
    ...walk('src').map((f) => statSync(f).mtimeMs),
    statSync('tsconfig.build.json').mtimeMs,
    statSync('scripts/build-dist.js').mtimeMs,
  );
  if (newest <= built) return true;
  say(built === 0 ? 'building dist/' : 'src/ is newer than dist/: rebuilding it');
  return spawnSync(process.execPath, ['scripts/build-dist.js'], { stdio: 'inherit' }).status === 0;
}
