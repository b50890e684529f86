import { closest } from 'fastest-levenshtein';
import { CONFIG_SCHEMA } from './schema.js';

/**
 * POSTHORN_* variables that are not settings but are read by Posthorn's own tooling: the test
 * suite (CONTRIBUTING.md), bin/posthorn.js and the `serve --processes N` supervisor.
 */
const TOOLING_VARIABLES = new Set([
  'POSTHORN_FROM_SOURCE',
  'POSTHORN_TEST_DATABASE_URL',
  'POSTHORN_TEST_CLI',
  'POSTHORN_TEST_IMPORT_ROWS',
  'POSTHORN_FUZZ_SECONDS',
  'POSTHORN_FUZZ_SEED',
  'POSTHORN_FUZZ_PATH',
  'POSTHORN_CHROMIUM',
  // Set by `serve --processes N` for the children it starts (src/processes/supervisor.ts).
  'POSTHORN_SUPERVISED',
]);

/**
 * One warning per POSTHORN_* variable in `env` that is no setting of this release, naming the
 * nearest one (docs/config.md): a misspelt variable is otherwise silently ignored and its
 * default applies. Not an error, so a variable meant for a newer release does not stop an older one.
 */
export function unknownVariableWarnings(env: Readonly<Record<string, string | undefined>>): string[] {
  const known = CONFIG_SCHEMA.map((e) => e.env);
  const knownSet = new Set(known);
  return Object.keys(env)
    .filter((name) => name.startsWith('POSTHORN_') && !knownSet.has(name) && !TOOLING_VARIABLES.has(name))
    .sort()
    .map((name) => `${name} is not a Posthorn setting and is ignored; did you mean ${closest(name, known)}?`);
}
