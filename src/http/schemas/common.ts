import { Type, type TSchema } from 'typebox';
import { API_ERROR_TYPES, ERROR_TABLE, type ApiErrorType } from '../../core/api-errors.js';
import { ERROR_DOCS } from '../../core/api-error-docs.js';

/**
 * Schemas every route shares. Route schemas are TypeBox values: Fastify validates requests with
 * them (validation-error.ts turns a failure into the API's error body) and @fastify/swagger
 * writes them into the OpenAPI document (openapi.ts), so the document and the checks are one source.
 */

/** The error body of every refusal (docs/api.md, Errors). */
export const ErrorBody = Type.Object(
  {
    error: Type.Object(
      {
        type: Type.Unsafe<ApiErrorType>({ type: 'string', enum: [...API_ERROR_TYPES] }),
        message: Type.String({ description: 'What is wrong, in words a person can act on.' }),
        field: Type.Optional(
          Type.String({ description: 'The input at fault: a body path, query parameter or header.' }),
        ),
        docs: Type.String({ description: 'Where this error type is explained: `/docs/errors#<type>`.' }),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'Error', additionalProperties: false, title: 'Error' },
);

/** An error type as the document describes it: what it means, and where it is explained in full. */
function describeError(type: ApiErrorType): string {
  return `\`${type}\`: ${ERROR_DOCS[type].brief} ([more](/docs/errors#${type}))`;
}

/** A response entry for each of the error types a route can return, keyed by HTTP status. */
export function errorResponses(...types: ApiErrorType[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  const byStatus = new Map<number, ApiErrorType[]>();
  for (const t of ['invalid_key', ...types] as ApiErrorType[]) {
    const status = ERROR_TABLE[t].status;
    byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), t])]);
  }
  for (const [status, list] of byStatus) {
    out[status] = Type.Ref('Error', {
      description: list.map(describeError).join('; '),
    });
  }
  return out;
}

/**
 * The refusals any request can get before it reaches a route, whatever the route (build-app.ts,
 * clientErrorHandler and Node's deadlines): its headers or body too slow, its head over 16 KiB.
 * openapi.ts adds them to every operation that documents its responses.
 */
export function transportErrorResponses(): Record<number, TSchema> {
  return {
    [ERROR_TABLE.request_timeout.status]: Type.Ref('Error', { description: describeError('request_timeout') }),
    [ERROR_TABLE.headers_too_large.status]: Type.Ref('Error', { description: describeError('headers_too_large') }),
  };
}

/** ISO 8601 timestamp (UTC, milliseconds). */
export const Timestamp = Type.String({ format: 'date-time', examples: ['2026-11-25T09:30:00.000Z'] });
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

/** `{domain}` in a path: the domain's name. */
export const DomainParams = Type.Object(
  {
    domain: Type.String({
      minLength: 1,
      maxLength: 253,
      description: 'The domain name',
      examples: ['mail.example.com'],
    }),
  },
  { additionalProperties: false },
);

/** Cursor paging: `limit` (1–1000, default 100) and the `next_cursor` of the previous page. */
export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'next_cursor of the previous page' })),
};
export const NextCursor = Type.Union([Type.String(), Type.Null()], {
  description: 'Pass as `cursor` for the next page; null on the last page.',
});

/** A 204 answer. */
export const NoContent = Type.Null({ description: 'Done; no body.' });
