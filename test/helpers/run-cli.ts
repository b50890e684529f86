import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The checkout's root: children run `node bin/posthorn.js` from there. Found through package.json's
 * real path, because scripts/run-tests.js runs the compiled tests from a tree of their own in which
 * every top-level file is a link into the checkout (scripts/test-tree.js).
 */
export const REPO_ROOT = `${dirname(realpathSync(fileURLToPath(new URL('../../package.json', import.meta.url))))}/`;

/** A child run gives up after this, failing the test with what it printed. */
const CLI_TIMEOUT_MS = 60_000;

/**
 * Whether the children run dist/: only under scripts/run-tests.js, which rebuilds dist/ first when
 * any source is newer and says so in POSTHORN_TEST_CLI. A test file run on its own runs its
 * children from src/ (POSTHORN_FROM_SOURCE=1), so it never exercises a stale dist/.
 */
const childrenFromDist = (): boolean => process.env.POSTHORN_TEST_CLI === 'dist';

/**
 * process.env without POSTHORN_* (a developer's own settings must not leak into tests), then
 * `defaults`, then `env`.
 */
export function childEnv(defaults: Record<string, string>, env: Record<string, string>): Record<string, string> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && !e[0].startsWith('POSTHORN_'),
    ),
  );
  return { ...inherited, ...(childrenFromDist() ? {} : { POSTHORN_FROM_SOURCE: '1' }), ...defaults, ...env };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON, or undefined when it is not one JSON document. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whichever fields they check
  json: any;
}

/** Runs `posthorn <args>` as a real child process (logs at warn), feeding `input` on stdin. */
export function runCli(args: string[], env: Record<string, string>, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/posthorn.js', ...args], {
      cwd: REPO_ROOT,
      // A free metrics port: tests run side by side, and the default 9464 would be taken by the first.
      env: childEnv({ POSTHORN_LOG_LEVEL: 'warn', POSTHORN_METRICS_PORT: '0' }, env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`posthorn ${args.join(' ')} did not finish within ${CLI_TIMEOUT_MS} ms; stderr:\n${stderr}`));
    }, CLI_TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr, json });
    });
    child.stdin.end(input ?? '');
  });
}
