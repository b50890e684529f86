#!/usr/bin/env node
// Entry point of the `posthorn` command. A release runs the compiled JavaScript in dist/ (built by
// `npm run build`, which `prepare` runs during `npm ci`), so production needs neither tsx nor a
// compile at each start (docs/deploy.md, "Installing"). A fresh clone without dist/ runs the TypeScript sources
// through tsx's loader, and POSTHORN_FROM_SOURCE=1 forces that: the test suite sets it so tests
// always exercise src/, whatever dist/ holds (CONTRIBUTING.md, "Set-up").
import { existsSync } from 'node:fs';
import module from 'node:module';

// Node 22.1 and later keep V8's compiled code between runs (in the OS temp dir), which takes a good
// part off each CLI call's start; Node 20 has no such cache and skips this.
module.enableCompileCache?.();

const compiled = new URL('../dist/cli/main.js', import.meta.url);
let main;
if (process.env.POSTHORN_FROM_SOURCE !== '1' && existsSync(compiled)) {
  ({ main } = await import(compiled.href));
} else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import('../src/cli/main.ts'));
}
process.exitCode = await main(process.argv.slice(2));
