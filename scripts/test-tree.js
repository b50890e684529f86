// The tests run compiled: src/, test/, bench/ and scripts/ are turned into JavaScript by esbuild
// (one file at a time, as tsx would, with inline source maps so a failure points at the TypeScript
// line) in a tree of their own, and Node runs that tree with no loader hooks. On Node 20, tsx's
// hooks run on a separate thread and every module's resolve and load crosses to it and back: a
// test file that imports the storage layer spent about 5 s of CPU starting, before its first test,
// and each worker thread it started (DKIM signing, rendering) registered tsx and paid again.
// Compiled, the same start takes 2-3 s. Type checking stays `npm run typecheck`'s job.
//
// The tree sits in the OS temp dir, one per run, and mirrors the repository's top level: those
// four folders hold the compiled modules (and every other file of theirs, as a symlink), and every
// other top-level entry is a symlink to the real one, so a path a module builds from its own
// import.meta.url (../../web/dist/, ../../package.json, test/fixtures/, bin/posthorn.js) finds the
// same file it finds in the checkout. Tests still run with the checkout as their working directory.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { transform } from 'esbuild';

/** The folders tsconfig.json compiles: tests import from each of them. */
const COMPILED = ['src', 'test', 'bench', 'scripts'];

/** Builds the tree for the checkout at `root`; returns its path and a function that removes it. */
export async function buildTestTree(root = process.cwd()) {
  const tree = mkdtempSync(join(tmpdir(), 'posthorn-tests-'));
  const remove = () => rmSync(tree, { recursive: true, force: true });
  try {
    for (const name of readdirSync(root)) {
      if (name === '.git' || COMPILED.includes(name)) continue;
      symlinkSync(join(root, name), join(tree, name));
    }
    // The compiler options that change emitted code (isolatedModules, verbatimModuleSyntax, target):
    // esbuild reads them from the project's tsconfig.json, as tsx does.
    const tsconfigRaw = readFileSync(join(root, 'tsconfig.json'), 'utf8');
    const jobs = [];
    for (const top of COMPILED) {
      for (const entry of readdirSync(join(root, top), { withFileTypes: true, recursive: true })) {
        const from = join(entry.parentPath ?? entry.path, entry.name);
        const to = join(tree, relative(root, from));
        if (entry.isDirectory()) {
          mkdirSync(to, { recursive: true });
          continue;
        }
        mkdirSync(join(to, '..'), { recursive: true });
        if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
          // The source stays beside its compiled module: a test that hands a .ts path to a child
          // running tsx (test/unit/delivery/dkim-pool.test.ts) still finds it.
          symlinkSync(from, to);
          jobs.push(compile(from, to.slice(0, -3) + '.js', tsconfigRaw));
        } else if (entry.name.endsWith('.js') || entry.name.endsWith('.mjs')) {
          // A plain module (the worker entries) is copied, not linked: Node would load a link by its
          // real path, and its relative imports would then reach the uncompiled sources.
          copyFileSync(from, to);
        } else symlinkSync(from, to);
      }
    }
    await Promise.all(jobs);
    return { tree, remove };
  } catch (err) {
    remove();
    throw err;
  }
}

async function compile(from, to, tsconfigRaw) {
  const source = readFileSync(from, 'utf8');
  const out = await transform(source, {
    loader: 'ts',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'inline',
    sourcefile: resolve(from),
    tsconfigRaw,
  });
  await writeFile(to, out.code);
}
