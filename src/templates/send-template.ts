/**
 * Sending with a template (docs/api.md, "Sending with a template"): the `template` field of
 * `POST /v1/send` checked with the rest of the body (`templateField`, called by the validate
 * step), and the render the submit pipeline's render step runs once per message
 * (`renderForSend`), so what is stored, signed and shown in events is the rendered message.
 */
import type { Deps } from '../deps.js';
import { apiError, type ApiError } from '../core/api-errors.js';
import { loneSurrogatePath } from '../core/text-checks.js';
import type { OffloadPool } from '../offload/offload-pool.js';
import { MAX_VARIABLES_BYTES, TEMPLATE_NAME } from './template-limits.js';
import { renderTemplate } from './render-template.js';
import type { RenderFailure } from './render-version.js';
import { findVersionForRender } from './template-store.js';

/** A send's `template`: which template (and version: null for the newest), its variables, and the subject the send gave, if any. */
export interface TemplateRef {
  name: string;
  version: number | null;
  variables: Record<string, unknown>;
  /** The send's own `subject`, which replaces the template's; null to render the template's. */
  subject: string | null;
}

const invalid = (field: string, message: string): ApiError => apiError('invalid_request', message, field);

const KEYS = new Set(['name', 'version', 'variables']);

/**
 * The `template` of a send body, checked: null when the body has none, or the first problem with
 * it. With `template`, `html` and `text` are refused (the template is the body source), and
 * `variables` belongs inside it.
 */
export function templateField(body: Record<string, unknown>): Omit<TemplateRef, 'subject'> | null | ApiError {
  if (body.variables !== undefined)
    return invalid('variables', 'variables go inside template: {"template": {"name": "welcome", "variables": {…}}}');
  const t = body.template;
  if (t === undefined || t === null) return null;
  if (typeof t !== 'object' || Array.isArray(t))
    return invalid('template', 'template must be an object: {"name": "welcome", "version"?: 3, "variables"?: {…}}');
  for (const field of ['html', 'text'] as const) {
    if (body[field] !== undefined && body[field] !== null)
      return invalid(field, `give either template or html/text, not both; ${field} is the template's to render`);
  }
  const ref = t as Record<string, unknown>;
  for (const key of Object.keys(ref)) {
    if (!KEYS.has(key))
      return invalid(`template.${key}`, `unknown field template.${key}; expected name, version, variables`);
  }
  if (typeof ref.name !== 'string')
    return invalid(
      'template.name',
      ref.name === undefined ? 'template.name is required' : 'template.name must be a string',
    );
  if (!TEMPLATE_NAME.test(ref.name))
    return invalid(
      'template.name',
      `template.name ${JSON.stringify(ref.name)} is not a template name (a slug such as welcome-email)`,
    );
  let version: number | null = null;
  if (ref.version !== undefined && ref.version !== null) {
    if (typeof ref.version !== 'number' || !Number.isSafeInteger(ref.version) || ref.version < 1)
      return invalid('template.version', 'template.version must be a whole number from 1');
    version = ref.version;
  }
  const variables = checkVariables(ref.variables, 'template.variables');
  if ('type' in variables) return variables;
  return { name: ref.name, version, variables: variables.value };
}

/** Variables as a send or a preview gives them: an object of at most MAX_VARIABLES_BYTES as JSON, every string a real text. */
export function checkVariables(value: unknown, field: string): { value: Record<string, unknown> } | ApiError {
  if (value === undefined || value === null) return { value: {} };
  if (typeof value !== 'object' || Array.isArray(value))
    return invalid(field, `${field} must be an object of names to values`);
  const bytes = Buffer.byteLength(JSON.stringify(value));
  if (bytes > MAX_VARIABLES_BYTES)
    return apiError(
      'payload_too_large',
      `${field} is ${bytes} bytes as JSON, over ${MAX_VARIABLES_BYTES} (256 KiB)`,
      field,
    );
  // As deep as a request body may nest at all (send/json-depth.ts), so every string is looked at.
  const surrogate = loneSurrogatePath(value, field, 32);
  if (surrogate !== null) return invalid(surrogate, `${surrogate} contains a lone surrogate, which is not a character`);
  return { value: value as Record<string, unknown> };
}

/**
 * A render's failure as an API refusal. `prefix` is where the variables are in the request
 * (`template.variables` for a send, `variables` for a preview); `at` is the field of the request
 * a budget refusal names.
 */
export function renderRefusal(failure: RenderFailure, prefix: string, at: string): ApiError {
  switch (failure.kind) {
    case 'missing':
      return invalid(`${prefix}.${failure.path}`, failure.message);
    case 'output':
      return apiError('payload_too_large', failure.message, at);
    case 'subject':
      return invalid('subject', failure.message);
    case 'value':
      return invalid(prefix, failure.message);
    case 'steps':
    case 'empty':
      return invalid(at, failure.message);
  }
}

/** A templated send's message, rendered. */
export interface RenderedSend {
  name: string;
  version: number;
  subject: string;
  html: string | null;
  text: string | null;
}

/**
 * Renders the template a send names for account `accountId` (docs/api.md, "Sending with a
 * template"): its subject (unless the send gave one), html and text, or the refusal naming the
 * field at fault (`template.name`, `template.version`, `template.variables.<path>`, …).
 */
export async function renderForSend(
  deps: Pick<Deps, 'db'>,
  pool: OffloadPool,
  accountId: string,
  ref: TemplateRef,
): Promise<RenderedSend | ApiError> {
  const found = await findVersionForRender(deps, accountId, ref.name, ref.version);
  if ('unknown' in found) {
    return found.unknown === 'name'
      ? invalid('template.name', `no template named "${ref.name}" in this account`)
      : invalid(
          'template.version',
          `template "${ref.name}" has no version ${ref.version}; its newest is ${found.latest}`,
        );
  }
  const out = await renderTemplate(pool, {
    key: found.key,
    sources: found.sources,
    variables: ref.variables,
    skipSubject: ref.subject !== null,
  });
  if (!out.ok) return renderRefusal(out.failure, 'template.variables', 'template');
  return {
    name: found.name,
    version: found.version,
    subject: ref.subject ?? out.subject ?? '',
    html: out.html,
    text: out.text,
  };
}
