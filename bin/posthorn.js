#!/usr/bin/env node
// Entry point of the `posthorn` command. The sources are TypeScript run through tsx's loader, so a
// fresh clone needs no build step: `npm ci && npm start` is the whole quick start.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
