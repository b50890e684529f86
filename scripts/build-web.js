// Builds the dashboard (web/ → web/dist/, docs/dashboard.md). Run by `npm ci` through the `prepare`
// script, so `npm ci && npm start` serves it with no extra step. An install without dev
// dependencies (`npm ci --omit=dev`) has no Vite: it keeps whatever build it has and says so.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
let vite;
try {
  vite = join(dirname(require.resolve('vite/package.json')), 'bin', 'vite.js');
} catch {
  console.warn(
    existsSync('web/dist/index.html')
      ? 'build-web: Vite is not installed (dev dependencies omitted); keeping the existing web/dist'
      : 'build-web: Vite is not installed (dev dependencies omitted); the dashboard is not built',
  );
  process.exit(0);
}
const result = spawnSync(process.execPath, [vite, 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
