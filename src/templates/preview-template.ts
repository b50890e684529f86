import type { Deps } from '../deps.js';
import { apiError, type ApiError } from '../core/api-errors.js';
import type { OffloadPool } from '../offload/offload-pool.js';
import { renderTemplate } from './render-template.js';
import { checkVariables, renderRefusal } from './send-template.js';
import { findVersionForRender } from './template-store.js';

/**
 * A template rendered with `variables` and nothing sent (`POST /v1/templates/{name}/render`, the
 * dashboard's live preview): the same render a send makes, refused the same way, with the fields
 * named as the preview's body names them (`variables.<path>`, `version`).
 */
export async function previewTemplate(
  deps: Pick<Deps, 'db'>,
  pool: OffloadPool,
  accountId: string,
  input: { name: string; version: number | null; variables: unknown },
): Promise<{ subject: string; html: string | null; text: string | null } | ApiError> {
  const variables = checkVariables(input.variables, 'variables');
  if ('type' in variables) return variables;
  const found = await findVersionForRender(deps, accountId, input.name, input.version);
  if ('unknown' in found)
    return found.unknown === 'name'
      ? apiError('not_found', `no template named "${input.name}" in this account`, 'name')
      : apiError(
          'not_found',
          `template "${input.name}" has no version ${input.version}; its newest is ${found.latest}`,
          'version',
        );
  const out = await renderTemplate(pool, {
    key: found.key,
    sources: found.sources,
    variables: variables.value,
    skipSubject: false,
  });
  if (!out.ok) return renderRefusal(out.failure, 'variables', 'variables');
  return { subject: out.subject ?? '', html: out.html, text: out.text };
}
