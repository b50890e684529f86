// The benches measure Posthorn as it is shipped: their `posthorn serve` children run the compiled
// dist/ (rebuilt first when a source is newer, scripts/fresh-dist.js), not the sources through tsx,
// whose loader adds about 120 MB of memory and its own CPU to the server being measured.
// BENCH_FROM_SOURCE=1 measures the sources instead.
import { freshDist } from '../scripts/fresh-dist.js';

/** Makes the `posthorn` children of test/helpers/run-cli.ts and spawn-server.ts run dist/. */
export function serveFromDist(): void {
  if (process.env.BENCH_FROM_SOURCE === '1') return;
  if (!freshDist((line) => console.error(`bench: ${line}`))) throw new Error('bench: building dist/ failed');
  process.env.POSTHORN_TEST_CLI = 'dist';
}
