// The benches measure Posthorn as it is shipped: their `posthorn serve` children run the compiled
// dist/ (rebuilt first when a source is newer, scripts/fresh-dist.js), not the sources through tsx,
// whose loader adds about 120 MB of memory and its own CPU to the server being measured.
// BENCH_FROM_SOURCE=1 measures the sources instead. They also get the Node options the deployment
// files run the server with (deploy/posthorn.service), so memory is measured as deployed;
// BENCH_NODE_OPTIONS replaces them (an empty value: Node's defaults), to compare; likewise its
// MALLOC_MMAP_THRESHOLD_ (BENCH_MALLOC_MMAP_THRESHOLD, empty: glibc's default) and its GLIBC_TUNABLES
// (BENCH_GLIBC_TUNABLES, empty: none).
import { readFileSync } from 'node:fs';
import { freshDist } from '../scripts/fresh-dist.js';

/** The NODE_OPTIONS of deploy/posthorn.service (the Dockerfile sets the same: test/unit/deploy-files.test.ts). */
export function deployedNodeOptions(): string {
  const unit = readFileSync(new URL('../deploy/posthorn.service', import.meta.url), 'utf8');
  const options = /^Environment=NODE_OPTIONS=(.+)$/m.exec(unit)?.[1];
  if (options === undefined) throw new Error('bench: deploy/posthorn.service sets no NODE_OPTIONS');
  return options.trim();
}

/** The glibc MALLOC_MMAP_THRESHOLD_ of deploy/posthorn.service (the Dockerfile sets the same). */
export function deployedMmapThreshold(): string {
  const unit = readFileSync(new URL('../deploy/posthorn.service', import.meta.url), 'utf8');
  const value = /^Environment=MALLOC_MMAP_THRESHOLD_=(\d+)$/m.exec(unit)?.[1];
  if (value === undefined) throw new Error('bench: deploy/posthorn.service sets no MALLOC_MMAP_THRESHOLD_');
  return value;
}

/** The GLIBC_TUNABLES of deploy/posthorn.service (the Dockerfile sets the same). */
export function deployedGlibcTunables(): string {
  const unit = readFileSync(new URL('../deploy/posthorn.service', import.meta.url), 'utf8');
  const value = /^Environment=GLIBC_TUNABLES=(\S+)$/m.exec(unit)?.[1];
  if (value === undefined) throw new Error('bench: deploy/posthorn.service sets no GLIBC_TUNABLES');
  return value;
}

/** Makes the `posthorn` children of test/helpers/run-cli.ts and spawn-server.ts run dist/. */
export function serveFromDist(): void {
  if (process.env.BENCH_FROM_SOURCE === '1') return;
  if (!freshDist((line) => console.error(`bench: ${line}`))) throw new Error('bench: building dist/ failed');
  process.env.POSTHORN_TEST_CLI = 'dist';
  const options = process.env.BENCH_NODE_OPTIONS ?? deployedNodeOptions();
  process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, options].filter(Boolean).join(' ');
  // Inherited by the children (and this process, where it changes nothing measured); an empty
  // BENCH_MALLOC_MMAP_THRESHOLD leaves glibc's default (a threshold that grows with what is freed).
  const threshold = process.env.BENCH_MALLOC_MMAP_THRESHOLD ?? deployedMmapThreshold();
  if (threshold !== '') process.env.MALLOC_MMAP_THRESHOLD_ = threshold;
  const tunables = process.env.BENCH_GLIBC_TUNABLES ?? deployedGlibcTunables();
  if (tunables !== '') process.env.GLIBC_TUNABLES = tunables;
  else delete process.env.GLIBC_TUNABLES;
}
