import { apiError, type ApiError } from '../core/api-errors.js';
import { controlCharacter } from '../core/text-checks.js';
import { foldHeader } from '../mime/render-mime.js';

/**
 * Headers the service owns (docs/api.md, Fields): a custom header may not set them. `Bcc` is added so a
 * custom header can never disclose hidden recipients, and `X-Posthorn-*` because those carry
 * relay options that are removed before delivery (README, The SMTP relay).
 */
const OWNED = new Set([
  'dkim-signature',
  'return-path',
  'received',
  'authentication-results',
  'message-id',
  'from',
  'sender',
  'to',
  'subject',
  'date',
  'mime-version',
  'feedback-id',
  'bcc',
]);
const OWNED_PREFIXES = ['arc-', 'content-', 'x-posthorn-'];

/** True when `name` is a header the service sets itself. */
export function isOwnedHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return OWNED.has(lower) || OWNED_PREFIXES.some((p) => lower.startsWith(p));
}

/**
 * Address headers that have a field of their own: given as a header, the address would be shown to
 * readers but never get the mail (Cc) or be given twice (To), so the 400 points at the field.
 */
const ADDRESS_FIELDS = new Map([
  ['to', 'use the to field'],
  ['cc', 'use the cc field, which also delivers the message to those addresses'],
  ['bcc', 'use the bcc field, which delivers the message to those addresses without showing them'],
  ['reply-to', 'use the reply_to field'],
]);

// RFC 5322 §2.2: a field name is printable US-ASCII except the colon.
const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]{1,76}$/;
const MAX_HEADERS = 50;
const MAX_VALUE = 2000;

/** Validates the `headers` object of a send request; the error names `headers.<Name>`. */
export function validateCustomHeaders(input: unknown): [string, string][] | ApiError {
  if (input === undefined) return [];
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return apiError('invalid_request', 'headers must be an object of header names to string values', 'headers');
  }
  const entries = Object.entries(input);
  if (entries.length > MAX_HEADERS)
    return apiError('invalid_request', `headers may hold at most ${MAX_HEADERS} headers`, 'headers');
  const seen = new Set<string>();
  const out: [string, string][] = [];
  for (const [name, value] of entries) {
    const field = `headers.${name}`;
    if (!FIELD_NAME.test(name))
      return apiError(
        'invalid_request',
        `header name "${name}" must be 1 to 76 printable ASCII characters without a colon or space`,
        field,
      );
    const use = ADDRESS_FIELDS.get(name.toLowerCase());
    if (use !== undefined)
      return apiError('invalid_request', `header ${name} cannot be given in headers: ${use}`, field);
    if (isOwnedHeader(name))
      return apiError('invalid_request', `header ${name} is set by the service and cannot be overridden`, field);
    if (seen.has(name.toLowerCase())) return apiError('invalid_request', `header ${name} is given twice`, field);
    seen.add(name.toLowerCase());
    if (typeof value !== 'string') return apiError('invalid_request', `header ${name} must have a string value`, field);
    if (/[\r\n\0]/.test(value))
      return apiError('invalid_request', `header ${name} must not contain CR, LF or NUL`, field);
    const control = controlCharacter(value);
    if (control !== null)
      return apiError('invalid_request', `header ${name} must not contain control characters; found ${control}`, field);
    if (value.length > MAX_VALUE)
      return apiError('invalid_request', `header ${name} is longer than ${MAX_VALUE} characters`, field);
    if (foldHeader(name, value) === null) {
      return apiError(
        'invalid_request',
        `header ${name} has a run of characters without a space too long for one line: a header line is at most 998 octets (RFC 5322 §2.1.1) and folds only at spaces`,
        field,
      );
    }
    out.push([name, value]);
  }
  return out;
}
