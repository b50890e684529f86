// Compiles the server (src/ -> dist/) with tsconfig.build.json: `npm run build`, and `npm ci`
// through the `prepare` script, so an installed release starts from plain JavaScript
// (bin/posthorn.js runs dist/ when it is there). dist/ is emptied first so a removed source file
// leaves no stale module behind. With --if-available (as `prepare` calls it) an install without
// dev dependencies, which has no TypeScript compiler, keeps whatever dist/ it has and says so.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

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
if (result.status !== 0) process.exit(result.status ?? 1);

// Kysely ships as about 280 ES modules, and loading them one by one was the largest part of a CLI
// call's start (bench:cli). dist/ gets it as one file, bundled by esbuild, and every compiled import
// of 'kysely' is pointed at that file. Kysely has no file-relative paths or state outside its
// modules, so the single file behaves as the package does; the sources and tests keep importing
// the package itself.
const esbuild = await import('esbuild');
mkdirSync('dist/vendor', { recursive: true });
await esbuild.build({
  entryPoints: ['kysely'],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outfile: 'dist/vendor/kysely.js',
  logLevel: 'warning',
  legalComments: 'eof',
});
let rewritten = 0;
for (const entry of readdirSync('dist', { withFileTypes: true, recursive: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
  const file = join(entry.parentPath ?? entry.path, entry.name);
  const text = readFileSync(file, 'utf8');
  if (!text.includes("from 'kysely'")) continue;
  let target = relative(dirname(file), 'dist/vendor/kysely.js');
  if (!target.startsWith('.')) target = `./${target}`;
  writeFileSync(file, text.replaceAll("from 'kysely'", `from '${target}'`));
  rewritten++;
}
if (rewritten === 0) {
  console.error("build-dist: no compiled module imports 'kysely'; the vendoring step no longer matches the output");
  process.exit(1);
}
