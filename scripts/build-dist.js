// Compiles the server (src/ -> dist/) with tsconfig.build.json: `npm run build`, and `npm ci`
// through the `prepare` script, so an installed release starts from plain JavaScript
// (bin/posthorn.js runs dist/ when it is there). dist/ is emptied first so a removed source file
// leaves no stale module behind. With --if-available (as `prepare` calls it) an install without
// dev dependencies, which has no TypeScript compiler, keeps whatever dist/ it has and says so.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
let tsc;
try {
  tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
} catch (err) {
  if (!process.argv.includes('--if-available')) throw err;
  console.warn(
    existsSync('dist/cli/main.js')
      ? 'build-dist: TypeScript is not installed (dev dependencies omitted); keeping the existing dist/'
      : 'build-dist: TypeScript is not installed (dev dependencies omitted); bin/posthorn.js will need tsx',
  );
  process.exit(0);
}
rmSync('dist', { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
