/**
 * The API error table, the one place a refusal becomes a protocol answer (refusals are values:
 * CONTRIBUTING.md, Conventions): every error type with its HTTP status, docs path and SMTP reply.
 * docs/api.md (Errors) lists the types.
 */
export const API_ERROR_TYPES = [
  'invalid_request',
  'invalid_key',
  'forbidden',
  'domain_unverified',
  'recipient_suppressed',
  'rate_limited',
  'payload_too_large',
  'idempotency_key_reused',
  'idempotency_conflict',
  'conflict',
  'quota_exceeded',
  'not_found',
  'request_timeout',
  'headers_too_large',
  'server_busy',
  'internal_error',
] as const;

export type ApiErrorType = (typeof API_ERROR_TYPES)[number];

export interface ErrorSpec {
  status: number;
  /** SMTP reply for the relay: basic code and enhanced status code (RFC 3463). */
  smtp: { code: number; enhanced: string };
}

export const ERROR_TABLE: Record<ApiErrorType, ErrorSpec> = {
  invalid_request: { status: 400, smtp: { code: 550, enhanced: '5.6.0' } },
  invalid_key: { status: 401, smtp: { code: 535, enhanced: '5.7.8' } },
  // The credential is good but may not do this (a sending key on a management route, a viewer's write).
  forbidden: { status: 403, smtp: { code: 550, enhanced: '5.7.1' } },
  domain_unverified: { status: 403, smtp: { code: 550, enhanced: '5.7.1' } },
  recipient_suppressed: { status: 422, smtp: { code: 550, enhanced: '5.1.1' } },
  rate_limited: { status: 429, smtp: { code: 451, enhanced: '4.7.1' } },
  payload_too_large: { status: 413, smtp: { code: 552, enhanced: '5.3.4' } },
  idempotency_key_reused: { status: 422, smtp: { code: 554, enhanced: '5.6.0' } },
  idempotency_conflict: { status: 409, smtp: { code: 451, enhanced: '4.3.0' } },
  quota_exceeded: { status: 429, smtp: { code: 452, enhanced: '4.5.3' } },
  not_found: { status: 404, smtp: { code: 550, enhanced: '5.0.0' } },
  // Not a relay refusal; the relay never sends it, as it never sends not_found.
  conflict: { status: 409, smtp: { code: 550, enhanced: '5.0.0' } },
  // RFC 6585 §5; over SMTP the same excess is a command line too long (RFC 5321 §4.5.3.1.4).
  headers_too_large: { status: 431, smtp: { code: 500, enhanced: '5.5.2' } },
  request_timeout: { status: 408, smtp: { code: 451, enhanced: '4.4.2' } },
  internal_error: { status: 500, smtp: { code: 451, enhanced: '4.3.0' } },
  // RFC 3463 §3.4: X.3.2, "system not accepting network messages"; a retry later may succeed.
  server_busy: { status: 503, smtp: { code: 451, enhanced: '4.3.2' } },
};

/** A refusal as a value: what the pipeline returns and the wire adapters translate. */
export interface ApiError {
  type: ApiErrorType;
  message: string;
  field?: string;
  /** Seconds until a retry may succeed (429s); becomes `Retry-After`. */
  retryAfter?: number;
}

/** Builds an ApiError value. */
export function apiError(type: ApiErrorType, message: string, field?: string, retryAfter?: number): ApiError {
  const err: ApiError = { type, message };
  if (field !== undefined) err.field = field;
  if (retryAfter !== undefined) err.retryAfter = retryAfter;
  return err;
}

/** The JSON error body of every API refusal (docs/api.md, Errors): `{ error: { type, message, field?, docs } }`. */
export function errorBody(err: ApiError): {
  error: { type: ApiErrorType; message: string; field?: string; docs: string };
} {
  const body: { type: ApiErrorType; message: string; field?: string; docs: string } = {
    type: err.type,
    message: err.message,
    docs: `/docs/errors#${err.type}`,
  };
  if (err.field !== undefined) body.field = err.field;
  return { error: body };
}

/** Every authentication failure is the same 401, which does not say which cause applies. */
export const UNAUTHORIZED: ApiError = Object.freeze({
  type: 'invalid_key',
  message: 'The API key is missing, malformed, revoked or not valid.',
});

/**
 * Whole seconds to wait before a retry, at least 1: Retry-After is given in whole seconds
 * (RFC 9110 §10.2.3), rounded up so a client never retries early.
 */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
