#!/usr/bin/env node
// Entry point of the `posthorn` command. A release runs the compiled JavaScript in dist/ (built by
// `npm run build`, which `prepare` runs during `npm ci`), so production needs neither tsx nor a
// compile at each start (docs/deploy.md, "Installing"). A checkout without dist/, or whose src/ has
// changed since dist/ was built (after a `git pull`, or while developing), runs the TypeScript
// sources through tsx's loader instead, so it never runs stale code; POSTHORN_FROM_SOURCE=1 forces
// that (CONTRIBUTING.md, "Set-up").
import { existsSync, readdirSync, statSync } from 'node:fs';
import module from 'node:module';
import { fileURLToPath } from 'node:url';

// Node 22.1 and later keep V8's compiled code between runs (in the OS temp dir), which takes a good
// part off each CLI call's start; Node 20 has no such cache and skips this.
module.enableCompileCache?.();

/** The newest modification time under `dir` (a few hundred files: a few milliseconds). */
function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(`${entry.parentPath ?? entry.path}/${entry.name}`).mtimeMs);
  }
  return latest;
}

const compiled = new URL('../dist/cli/main.js', import.meta.url);
const sources = fileURLToPath(new URL('../src', import.meta.url));
// An installed package has no src/; a checkout's dist/ counts only while no source is newer.
const useDist =
  process.env.POSTHORN_FROM_SOURCE !== '1' &&
  existsSync(compiled) &&
  (!existsSync(sources) || newest(sources) <= statSync(compiled).mtimeMs);
let main;
if (useDist) {
  ({ main } = await import(compiled.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
