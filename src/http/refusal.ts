import { apiError, type ApiError, type ApiErrorType } from '../core/api-errors.js';
import type { RefusalReason, RefusedError } from '../core/refused-error.js';

/** The API error type of each refusal reason (docs/api.md, Errors). */
const API_TYPES: Record<RefusalReason, ApiErrorType> = {
  invalid: 'invalid_request',
  not_found: 'not_found',
  conflict: 'conflict',
  unverified: 'domain_unverified',
};

/**
 * A feature's refusal (accounts, domains, credentials, suppression, webhooks) as the API's error
 * value, for routes that call those features: the type by reason, the message as it is, and the
 * field at fault when there is one. `sendError` (send-error.ts) writes it.
 */
export function refusalApiError(err: RefusedError): ApiError {
  return apiError(API_TYPES[err.reason], err.message, err.field);
}
