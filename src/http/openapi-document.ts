import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/load.js';
import { buildDeps } from '../main.js';
import { buildApp } from './build-app.js';

/**
 * The OpenAPI document as the server serves it at GET /v1/openapi.json, built without a running
 * server: an app on a throwaway SQLite data dir, never listening. Used to write docs/openapi.json
 * and the typed client's types (`npm run gen:openapi`), and by the test that fails when they are stale.
 */
export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), 'posthorn-openapi-'));
  const deps = await buildDeps(
    loadConfig({
      POSTHORN_DATA_DIR: dir,
      POSTHORN_SANDBOX: '0',
      POSTHORN_HOSTNAME: 'posthorn.invalid',
      POSTHORN_LOG_LEVEL: 'error',
    }),
  );
  const app = buildApp(deps);
  try {
    await app.ready();
    return app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await app.close();
    await deps.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
