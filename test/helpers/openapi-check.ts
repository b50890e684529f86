import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { REPO_ROOT } from './run-cli.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> };
type Doc = { paths: Record<string, Record<string, Operation>> };

let ajv: Ajv2020 | undefined;
let doc: Doc | undefined;
const compiled = new Map<string, ValidateFunction>();

/** docs/openapi.json, loaded once: the committed document, which test/unit/openapi-document.test.ts keeps current. */
export function openApiDoc(): Doc {
  doc ??= JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'openapi.json'), 'utf8')) as Doc;
  return doc;
}

const pointer = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Throws unless `body` (already parsed JSON, or undefined for no body) is a documented response of
 * `method` `pathTemplate` (`/v1/domains/{domain}`) with `status` and `contentType`: the status must
 * be listed, and a JSON body must match its schema (JSON Schema 2020-12, as OpenAPI 3.1 uses).
 */
export function checkResponse(
  method: string,
  pathTemplate: string,
  status: number,
  contentType: string | null,
  body: unknown,
): void {
  const d = openApiDoc();
  const op = d.paths[pathTemplate]?.[method.toLowerCase()];
  if (op === undefined) throw new Error(`OpenAPI: ${method} ${pathTemplate} is not in docs/openapi.json`);
  const response = op.responses?.[String(status)];
  if (response === undefined)
    throw new Error(`OpenAPI: ${method} ${pathTemplate} does not document status ${status}: ${JSON.stringify(body)}`);
  const media = (contentType ?? '').split(';')[0]!.trim();
  if (response.content === undefined) {
    if (status !== 204 && body !== undefined && body !== '')
      throw new Error(`OpenAPI: ${method} ${pathTemplate} ${status} documents no body, got ${media}`);
    return;
  }
  if (response.content[media] === undefined)
    throw new Error(
      `OpenAPI: ${method} ${pathTemplate} ${status} documents ${Object.keys(response.content).join(', ')}, got ${media}`,
    );
  if (!media.endsWith('json') || media === 'application/x-ndjson') return;
  const ref = `openapi.json#/paths/${pointer(pathTemplate)}/${method.toLowerCase()}/responses/${status}/content/${pointer(media)}/schema`;
  let validate = compiled.get(ref);
  if (validate === undefined) {
    if (ajv === undefined) {
      ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats(ajv);
      ajv.addSchema({ ...d, $id: 'openapi.json' });
    }
    validate = ajv.compile({ $ref: ref });
    compiled.set(ref, validate);
  }
  if (!validate(body))
    throw new Error(
      `OpenAPI: ${method} ${pathTemplate} ${status} body does not match the document: ${ajv!.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 2000)}`,
    );
}
