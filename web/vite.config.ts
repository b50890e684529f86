import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

// The dashboard build (docs/dashboard.md): web/ in, web/dist out, served by the api role at `/`.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [preact()],
  // Everything is served from this origin (no CDN); no inline script, so the CSP needs no 'unsafe-inline'.
  build: { outDir: 'dist', emptyOutDir: true, modulePreload: { polyfill: false }, assetsInlineLimit: 0 },
  server: { proxy: { '/v1': { target: 'https://127.0.0.1:8443', secure: false } } },
});
