import type { FastifyPluginAsync } from 'fastify';
import { ERRORS_PAGE_CSP, errorsPage } from '../docs/errors-page.js';
import {
  REDOC_SCRIPT_PATH,
  redocBundle,
  redocLicense,
  REFERENCE_PAGE_CSP,
  referencePage,
} from '../docs/reference-page.js';

const COMMON = {
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
} as const;

/**
 * The reference documentation the server serves about itself, without a credential: `/docs` (the
 * API reference rendered from `/v1/openapi.json`) and `/docs/errors` (every error type, the target
 * of each error body's `docs` link). Not under /v1: these are pages, not API routes, so they are
 * not in the OpenAPI document and declare no credential need.
 */
export function docsRoutes(): FastifyPluginAsync {
  return async (app) => {
    // Built once: both pages depend only on the code.
    const reference = referencePage();
    const errors = errorsPage();
    app.get('/docs', async (_req, reply) =>
      reply
        .headers({
          ...COMMON,
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-cache',
          'content-security-policy': REFERENCE_PAGE_CSP,
        })
        .send(reference),
    );
    app.get('/docs/errors', async (_req, reply) =>
      reply
        .headers({
          ...COMMON,
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-cache',
          'content-security-policy': ERRORS_PAGE_CSP,
        })
        .send(errors),
    );
    app.get(REDOC_SCRIPT_PATH, async (_req, reply) =>
      reply
        .headers({
          ...COMMON,
          'content-type': 'text/javascript; charset=utf-8',
          // The page asks for it with Redoc's version in the query, so a day's caching is safe.
          'cache-control': 'public, max-age=86400',
        })
        .send(redocBundle()),
    );
    app.get(`${REDOC_SCRIPT_PATH}.LICENSE.txt`, async (_req, reply) =>
      reply
        .headers({ ...COMMON, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=86400' })
        .send(redocLicense()),
    );
  };
}
