// How long a `posthorn` call takes from the compiled release (dist/), the way an operator runs it:
// `posthorn --version` (loads almost nothing) and `posthorn domain show DOMAIN` against a real
// SQLite data dir (config, storage, migrations check, one query), beside Node's own empty start for
// reference and `--version` through tsx from the sources for comparison. Each figure is the median
// of repeated runs. Target: a CLI call under 300 ms (README.md, "Benchmarks").
// Usage: npm run bench:cli [-- RUNS]   (builds dist/ first when it is missing)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const runs = Number(process.argv[2] ?? 15);
const bin = join(root, 'bin', 'posthorn.js');

if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) {
  console.error('bench:cli: no dist/; running npm run build first');
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build-dist.js')], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const dataDir = mkdtempSync(join(tmpdir(), 'posthorn-bench-cli-'));
// The operator's environment: no POSTHORN_* of the caller's, a sandbox data dir of its own.
const env: Record<string, string> = {
  ...Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && !e[0].startsWith('POSTHORN_'),
    ),
  ),
  POSTHORN_DATA_DIR: dataDir,
  POSTHORN_LOG_LEVEL: 'warn',
};

function posthorn(args: string[], extraEnv: Record<string, string> = {}): void {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: root, env: { ...env, ...extraEnv }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`posthorn ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
}

/** Median wall time in ms of `runs` runs of `node argv`, after one warm-up run. */
function time(argv: string[], extraEnv: Record<string, string> = {}): number {
  const samples: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const start = process.hrtime.bigint();
    const r = spawnSync(process.execPath, argv, { cwd: root, env: { ...env, ...extraEnv }, stdio: 'ignore' });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (r.status !== 0) throw new Error(`node ${argv.join(' ')} exited ${r.status}`);
    if (i > 0) samples.push(ms);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)]!;
}

try {
  posthorn(['account', 'create', 'bench']);
  posthorn(['domain', 'add', 'bench.example.com', '--account', 'bench']);
  console.log(`node_empty: ${Math.round(time(['-e', '0']))} ms`);
  console.log(`cli_version: ${Math.round(time([bin, '--version']))} ms`);
  console.log(`cli_domain_show: ${Math.round(time([bin, 'domain', 'show', 'bench.example.com']))} ms`);
  console.log(`cli_version_from_source: ${Math.round(time([bin, '--version'], { POSTHORN_FROM_SOURCE: '1' }))} ms`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
