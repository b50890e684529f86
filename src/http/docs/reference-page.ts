import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';

/**
 * `/docs`: the API reference, rendered in the browser by Redoc from the OpenAPI document the server
 * serves (`/v1/openapi.json`). Redoc's standalone bundle comes from the `redoc` npm package and is
 * served by Posthorn itself, so the page works offline and loads nothing from a CDN.
 *
 * Why Redoc 2's standalone bundle: it is one self-contained file (about 1 MB) that renders an
 * OpenAPI 3.1 document as a read-only reference with examples, and it runs under a strict
 * Content-Security-Policy (no inline script, no eval). Scalar's Fastify plugin and Redoc 3 need
 * Node.js 22, above the Node.js 20 Posthorn supports; Redoc 2 is maintained alongside Redoc 3.
 * Its npm install brings React and friends as peer dependencies, but only the one bundled file is
 * ever served.
 */

const require = createRequire(import.meta.url);
const BUNDLE = require.resolve('redoc/bundles/redoc.standalone.js');
/** Redoc's version, in the script URL so a browser never keeps an old bundle after an upgrade. */
export const REDOC_VERSION = (
  JSON.parse(readFileSync(join(dirname(BUNDLE), '..', 'package.json'), 'utf8')) as { version: string }
).version;

export const REDOC_SCRIPT_PATH = '/docs/redoc.standalone.js';

let bundle: Buffer | undefined;
let license: Buffer | undefined;

/** The bundle's bytes, read on first use and kept (it never changes while the server runs). */
export function redocBundle(): Buffer {
  bundle ??= readFileSync(BUNDLE);
  return bundle;
}

/** The licenses of what the bundle contains (the bundle's own header points at this file). */
export function redocLicense(): Buffer {
  license ??= readFileSync(`${BUNDLE}.LICENSE.txt`);
  return license;
}

/**
 * The page's Content-Security-Policy, as tight as Redoc allows: scripts only from this origin (the
 * bundle), the document fetched from this origin, inline styles (Redoc's styled-components inject
 * them), its search index in a `blob:` worker, images from here or `data:`. Redoc's sidebar logo,
 * the only outside URL in the bundle, is therefore never fetched; Redoc hides it when it fails.
 */
export const REFERENCE_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The page: Redoc's `<redoc>` element pointed at the served document, and the local bundle. */
export function referencePage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Posthorn API reference</title>
</head><body>
<noscript><p>The API reference needs JavaScript. The OpenAPI document itself is at <a href="/v1/openapi.json">/v1/openapi.json</a>, and every error type is explained at <a href="/docs/errors">/docs/errors</a>.</p></noscript>
<redoc spec-url="/v1/openapi.json" expand-responses="200,201" required-props-first="true" hide-hostname="true"></redoc>
<script src="${REDOC_SCRIPT_PATH}?v=${REDOC_VERSION}"></script>
</body></html>
`;
}
