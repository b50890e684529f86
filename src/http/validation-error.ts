import type { FastifySchemaValidationError } from 'fastify/types/schema.js';
import { apiError, type ApiError } from '../core/api-errors.js';

/**
 * A request that failed its route schema as the API's 400 (docs/api.md, Errors), naming the field
 * as the API names fields everywhere: a body path in dots and brackets (`tracking.opens`,
 * `attachments[2].filename`), or the query parameter, path parameter or header.
 */
export function validationApiError(errors: FastifySchemaValidationError[], context: string | undefined): ApiError {
  const first = errors[0];
  if (first === undefined) return apiError('invalid_request', 'the request is not valid', context);
  const params = first.params as Record<string, unknown>;
  const segments = first.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let path = segments.reduce((acc, s) => (/^\d+$/.test(s) ? `${acc}[${s}]` : acc === '' ? s : `${acc}.${s}`), '');
  let message: string;
  switch (first.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      path = path === '' ? missing : `${path}.${missing}`;
      message = `${path} is required`;
      break;
    }
    case 'additionalProperties': {
      const extra = String(params.additionalProperty);
      path = path === '' ? extra : `${path}.${extra}`;
      message = `${path} is not a known field`;
      break;
    }
    default:
      message = `${path === '' ? (context ?? 'body') : path} ${first.message ?? 'is not valid'}`;
  }
  if (path === '') path = context === 'body' || context === undefined ? 'body' : context;
  return apiError('invalid_request', message, path);
}
