import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { childEnv, REPO_ROOT } from '../helpers/run-cli.js';

const run = promisify(execFile);
const tmp = mkdtempSync(join(tmpdir(), 'posthorn-package-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** The environment of an operator's shell: no POSTHORN_FROM_SOURCE, so the installed bin runs its dist/. */
function operatorEnv(prefix: string): Record<string, string> {
  const { POSTHORN_FROM_SOURCE: _fromSource, ...env } = childEnv({}, {});
  return { ...env, PATH: `${join(prefix, 'bin')}:${env.PATH ?? ''}` };
}

// The release as an operator gets it (docs/deploy.md): `npm pack` makes the tarball, which
// `npm install -g` puts in an empty prefix, and the `posthorn` it installs runs the compiled dist/
// without tsx. The tarball is packed from a copy of the repository whose dist/ is compiled from the
// sources under test (or is the repository's own, which the test runner rebuilds when stale), so a
// stale dist/ cannot make this pass.
test('the packed tarball installs into an empty prefix and posthorn --version runs', { timeout: 600_000 }, async () => {
  const copy = join(tmp, 'src');
  for (const entry of [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'README.md',
    'LICENSE',
  ]) {
    cpSync(join(REPO_ROOT, entry), join(copy, entry));
  }
  for (const dir of ['bin', 'src', 'scripts', 'docs'])
    cpSync(join(REPO_ROOT, dir), join(copy, dir), { recursive: true });
  if (existsSync(join(REPO_ROOT, 'web', 'dist'))) {
    cpSync(join(REPO_ROOT, 'web', 'dist'), join(copy, 'web', 'dist'), { recursive: true });
  }
  // The compiler and the build script come from the repository's own install.
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  if (process.env.POSTHORN_TEST_CLI === 'dist') {
    // scripts/run-tests.js has just rebuilt dist/ if any source was newer: it is the sources' build.
    cpSync(join(REPO_ROOT, 'dist'), join(copy, 'dist'), { recursive: true });
  } else {
    await run(process.execPath, ['scripts/build-dist.js'], { cwd: copy });
  }
  assert.ok(existsSync(join(copy, 'dist', 'cli', 'main.js')));

  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: copy });
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  const files = info!.files.map((f) => f.path);
  assert.ok(files.includes('bin/posthorn.js'));
  assert.ok(files.includes('dist/cli/main.js'));
  assert.ok(files.includes('dist/delivery/dkim/dkim-worker-entry.js'));
  assert.ok(!files.some((f) => f.startsWith('src/') || f.startsWith('test/')), 'sources and tests stay out');

  const prefix = join(tmp, 'prefix');
  // From npm's cache (the repository's own `npm ci` filled it); better-sqlite3's build step is left
  // out because `--version` does not open a database, and compiling it takes minutes.
  await run(
    'npm',
    [
      'install',
      '-g',
      '--prefix',
      prefix,
      '--prefer-offline',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      join(tmp, info!.filename),
    ],
    { cwd: tmp, env: operatorEnv(prefix), maxBuffer: 16 * 1024 * 1024 },
  );
  const installed = join(prefix, 'lib', 'node_modules', 'posthorn');
  assert.equal(
    (JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { version: string }).version,
    (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version,
  );
  assert.ok(!existsSync(join(installed, 'node_modules', 'tsx')), 'tsx is a dev dependency: not installed');

  const { stdout } = await run(join(prefix, 'bin', 'posthorn'), ['--version'], { cwd: tmp, env: operatorEnv(prefix) });
  assert.match(stdout, /^posthorn \d+\.\d+\.\d+\n$/);
  const help = await run(join(prefix, 'bin', 'posthorn'), ['serve', '--help'], { cwd: tmp, env: operatorEnv(prefix) });
  assert.match(help.stdout, /serve \[--roles r1,r2\]/);
});
