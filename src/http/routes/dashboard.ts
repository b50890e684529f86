import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { apiError } from '../../core/api-errors.js';
import { sendError } from '../send-error.js';

/**
 * Paths the dashboard must never answer: the API, its documentation, the tracking and unsubscribe
 * links, and the operator endpoints. An unknown path under one of them is the API's own 404.
 */
const RESERVED = /^\/(v1|docs|t|u|healthz|metrics)(\/|$)/;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/**
 * The dashboard's Content-Security-Policy (docs/dashboard.md, Security): every script, style and
 * image comes from this origin (no CDN, no inline script), and no other site may frame it.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

interface Asset {
  body: Buffer;
  type: string;
  /** Vite names built assets by content hash, so they may be cached for good. */
  immutable: boolean;
}

/** The built dashboard (`web/dist`, made by `npm run build:web`), found next to the sources. */
export function dashboardDirectory(): string {
  return fileURLToPath(new URL('../../../web/dist/', import.meta.url));
}

/**
 * Reads the built files once, at start. Hand-written rather than @fastify/static: the build is a
 * handful of files, and answering from a map of known names cannot be led outside the directory.
 */
function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  if (!existsSync(dir)) return assets;
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const url = `/${relative(dir, path).split(sep).join('/')}`;
        assets.set(url, {
          body: readFileSync(path),
          type: TYPES[extname(name)] ?? 'application/octet-stream',
          immutable: url.startsWith('/assets/'),
        });
      }
    }
  };
  walk(dir);
  return assets;
}

function securityHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('Content-Security-Policy', CSP)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Referrer-Policy', 'same-origin')
    .header('X-Frame-Options', 'DENY');
}

/**
 * The dashboard (docs/dashboard.md): the built single-page app at `/`, its assets, and
 * `index.html` for every other GET outside the reserved paths, so a client route such as
 * `/transactional/example.com` loads the app on reload. The app calls only the public `/v1` API.
 */
export function dashboardRoutes(dir = dashboardDirectory()): FastifyPluginAsync {
  return async (app) => {
    const assets = loadAssets(dir);
    const index = assets.get('/index.html');
    if (index === undefined) app.log.warn({ dir }, 'dashboard not built (npm run build:web); / will say so');
    app.get('/*', async (req, reply) => {
      const path = (req.url.split('?')[0] ?? '/').replace(/\/{2,}/g, '/');
      if (RESERVED.test(path)) return sendError(reply, apiError('not_found', `no route ${req.method} ${path}`));
      const asset = assets.get(path);
      if (asset !== undefined && path !== '/index.html') {
        return securityHeaders(reply)
          .header('Cache-Control', asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
          .type(asset.type)
          .send(asset.body);
      }
      // A missing hashed asset is a 404, not the app: a stale page must not get HTML as script.
      if (path.startsWith('/assets/')) return sendError(reply, apiError('not_found', `no file ${path}`));
      if (index === undefined) {
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send('The dashboard is not built: run `npm run build:web` (npm ci does it) and restart.\n');
      }
      return securityHeaders(reply).header('Cache-Control', 'no-cache').type(index.type).send(index.body);
    });
  };
}
