import { readFileSync } from 'node:fs';

/** Posthorn's version, from package.json (shown in the OpenAPI document and `posthorn --version`). */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
