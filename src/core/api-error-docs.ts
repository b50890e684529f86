import type { ApiErrorType } from './api-errors.js';

/**
 * What each API error type means to the person who got it: the text of the page every error
 * body's `docs` field points at (`/docs/errors#<type>`, served by src/http/routes/docs.ts). The
 * type is a Record over every ApiErrorType, so a new error type does not compile without its
 * explanation here, and test/unit/core/api-error-docs.test.ts checks that none is left empty.
 */
export interface ErrorDoc {
  /** A short name for the heading. */
  title: string;
  /** One line on what it means, whatever the route: the OpenAPI document's description of the response. */
  brief: string;
  /** What causes it, in the API's terms. */
  cause: string;
  /** What to do about it. */
  remedy: string;
  /** Whether the SMTP relay answers with it too (with the SMTP reply of ERROR_TABLE). */
  relay: boolean;
  /** Whether the same request may succeed when sent again later, unchanged. */
  retry: boolean;
  /** The example error body's message and field. */
  example: { message: string; field?: string };
}

export const ERROR_DOCS: Record<ApiErrorType, ErrorDoc> = {
  invalid_request: {
    title: 'Invalid request',
    brief: 'a field, parameter or header is missing or malformed; `field` names it',
    cause:
      'A field of the body, a query or path parameter, or a header is missing, malformed or not allowed; or the body is not JSON, not UTF-8, or sent with another Content-Type than application/json. `field` names the input at fault: a body path such as `to`, `tracking.opens` or `attachments[2].filename`, a query parameter such as `limit`, or a header such as `Idempotency-Key`.',
    remedy:
      'Fix the input that `field` names, as the message says, and send the request again. Sending it unchanged gets the same answer. The OpenAPI document (`/docs`) lists every field with its type and limits.',
    relay: true,
    retry: false,
    example: { message: 'to[1] "bob@" is not an email address (expected local@domain)', field: 'to' },
  },
  invalid_key: {
    title: 'Invalid credential',
    brief: 'the credential is missing, malformed, unknown or revoked',
    cause:
      'The `Authorization` header is missing, uses another scheme than `Bearer`, or carries a key or token that is malformed, unknown or revoked: an API key replaced by a newer one, an account token revoked, a sandbox key outside sandbox mode. Every cause gets the same answer, with a `WWW-Authenticate: Bearer realm="posthorn"` challenge, so the body tells nothing to someone guessing keys.',
    remedy:
      'Send `Authorization: Bearer <credential>` with a current credential: the domain’s API key (`ph_…`, made by `posthorn key create DOMAIN` or `POST /v1/domains/{domain}/api-key`) for sending, an account token (`pha_…`, made by `posthorn token create --account NAME`) for managing the account. Creating a new API key revokes the old one at once; `posthorn token list --account NAME` shows which tokens are live.',
    relay: true,
    retry: false,
    example: { message: 'The API key is missing, malformed, revoked or not valid.' },
  },
  forbidden: {
    title: 'Forbidden',
    brief:
      "the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change",
    cause:
      'The credential is valid but may not do this: a sending key (`ph_…`) on a management route, an account token (`pha_…`) on `POST /v1/send`, or a write (any change) by a token whose role is `viewer`.',
    remedy:
      'Use the credential the route needs: an account token for the management routes, the domain’s API key for sending. For a change, use a token with the `admin` role (`posthorn token create --account NAME --role admin`). Each operation in `/docs` shows which credential it takes.',
    relay: false,
    retry: false,
    example: {
      message:
        "a sending key can only send and read its domain's events and messages; management needs an account token (posthorn token create)",
    },
  },
  domain_unverified: {
    title: 'Domain not verified',
    brief: 'the domain has not passed verification',
    cause:
      'The sending domain, or the domain of the `from` address, has not passed verification, or has failed it since (status `pending` or `unverified`): its DNS records (SPF, DKIM, return path, DMARC) are not all published as Posthorn asked. An API key is not issued to such a domain either.',
    remedy:
      'Publish the records that `GET /v1/domains/{domain}` (or `posthorn domain show DOMAIN`) lists as `missing` or `mismatch`, then check them now with `POST /v1/domains/{domain}/verify` (or `posthorn domain verify DOMAIN`). Sending works as soon as the domain is verified. A `from` on another domain must be a verified domain of the same account.',
    relay: true,
    retry: false,
    example: {
      message: 'The sending domain example.com has not passed verification; the message was not sent.',
      field: 'from',
    },
  },
  recipient_suppressed: {
    title: 'Recipient suppressed',
    brief: "a recipient is on the account's suppression list",
    cause:
      'A recipient is on the account’s suppression list: an earlier message to it bounced hard, it complained about spam, it unsubscribed, or someone added it by hand. Nothing was sent to anyone and nothing was counted against the quota; each suppressed recipient got a `rejected-by-system` event. Over the SMTP relay only that recipient is refused and the others go ahead.',
    remedy:
      'Leave the address out of the request. Remove it from the list (`DELETE /v1/suppressions/{address}` or `posthorn suppression remove ADDRESS --account NAME`) only when the person has asked for mail again: sending to addresses that complained or bounce harms the reputation of every domain of the account.',
    relay: true,
    retry: false,
    example: { message: 'Recipient is on the suppression list: ana@example.org. Nothing was sent.', field: 'to' },
  },
  rate_limited: {
    title: 'Rate limited',
    brief: 'over a rate limit; `Retry-After` says when to retry',
    cause:
      'Too many requests in too short a time: sends above the account’s rate (messages per second per sending domain, 5 by default), or reads such as `GET /v1/events` above `POSTHORN_EVENTS_RATE_LIMIT` per second per key. The limit holds across every node of the server.',
    remedy:
      'Wait the number of seconds in the `Retry-After` header, then send the same request again (with the same `Idempotency-Key`, so a send is never made twice). Spread bursts out; an operator can raise the send rate with `posthorn account set NAME --rate-limit N`.',
    relay: true,
    retry: true,
    example: { message: 'Above 5 messages per second for example.com.' },
  },
  payload_too_large: {
    title: 'Payload too large',
    brief: 'the body is over 10 MiB',
    cause:
      'The request body is over 10 MiB (10,485,760 bytes), or what it decodes to (a message with its attachments) is.',
    remedy:
      'Send less: link to large files instead of attaching them, and compress images. The limit is the same over the SMTP relay.',
    relay: true,
    retry: false,
    example: { message: 'request body is over 10485760 bytes (10 MiB)', field: 'body' },
  },
  idempotency_key_reused: {
    title: 'Idempotency key reused',
    brief: 'the `Idempotency-Key` was used with a different request',
    cause:
      'The `Idempotency-Key` was used within the last 24 hours with a different request (another recipient, subject, body, …). The key names one request; a replay must be the same request.',
    remedy:
      'Use a new key for each new request, such as a random UUID or your own order id plus a step name. Retry with the same key only the request that first used it.',
    relay: true,
    retry: false,
    example: {
      message: 'This Idempotency-Key was used with a different request body.',
      field: 'Idempotency-Key',
    },
  },
  idempotency_conflict: {
    title: 'Idempotency conflict',
    brief: 'a request with the same `Idempotency-Key` is still in progress',
    cause:
      'A request with the same `Idempotency-Key` is still being processed. If that first request’s server process died, the key is released after 60 seconds.',
    remedy:
      'Wait a moment and send the same request again with the same key: it then gets the first request’s answer, and the message is sent once.',
    relay: true,
    retry: true,
    example: {
      message: 'A request with this Idempotency-Key is still in progress; retry later.',
      field: 'Idempotency-Key',
    },
  },
  conflict: {
    title: 'Conflict',
    brief: 'the change clashes with what is stored, such as a name already taken',
    cause:
      'The change clashes with what is stored: a name that is already taken (a domain that exists on any account, a template name used in this account), or an action that is no longer possible (cancelling a message whose delivery has begun).',
    remedy:
      'Read the current state (the `GET` of the same resource) and decide again: choose another name, or leave the resource as it is. Sending the same request again gets the same answer.',
    relay: false,
    retry: false,
    example: { message: 'domain "example.com" already exists', field: 'name' },
  },
  quota_exceeded: {
    title: 'Monthly quota exceeded',
    brief: "over the account's monthly quota; `Retry-After` points at the next month",
    cause:
      'The send would take the account over its monthly quota of accepted recipients (per UTC calendar month). The whole request is refused and nothing is counted.',
    remedy:
      'Wait for the next month (`Retry-After` points at its start), or ask the operator to raise the quota (`posthorn account set NAME --monthly-quota N`, or `none` for no quota). `GET /v1/usage` shows the month’s count against the quota.',
    relay: true,
    retry: true,
    example: { message: 'The monthly volume of 50000 recipients is reached.' },
  },
  not_found: {
    title: 'Not found',
    brief: 'no such route, or no such resource in this account; `field` names the path parameter',
    cause:
      'No such route, or the resource the path names does not exist in your account: a domain, message, template, suppression, API key or webhook. A resource of another account is answered the same way, so the answer does not tell whether it exists elsewhere. `field` names the path parameter (`domain`, `id`, `address`, …) when one is at fault.',
    remedy:
      'Check the method and path against `/docs`, the spelling of the name or id, and that the credential belongs to the account that owns it. List what exists with the collection’s `GET` (for example `GET /v1/domains`).',
    relay: false,
    retry: false,
    example: { message: 'no domain "example.org" in this account', field: 'domain' },
  },
  request_timeout: {
    title: 'Request timeout',
    brief: 'the headers or body did not arrive in time; the connection is closed',
    cause:
      'The request’s headers or body did not arrive in time, or the body came too slowly (`POSTHORN_HTTP_HEADERS_TIMEOUT`, `POSTHORN_HTTP_BODY_TIMEOUT`, `POSTHORN_HTTP_MIN_BODY_RATE`). The connection is closed after the answer, and nothing of the request was acted on.',
    remedy:
      'Send the request again, on a faster or steadier connection, with the same `Idempotency-Key`. Operators tune the deadlines in the configuration (docs/config.md).',
    relay: false,
    retry: true,
    example: {
      message:
        'the request body arrived at under 1024 bytes per second (POSTHORN_HTTP_MIN_BODY_RATE); 2048 of 1048576 bytes came',
      field: 'body',
    },
  },
  headers_too_large: {
    title: 'Headers too large',
    brief: 'the request line and headers are over 16 KiB; the connection is closed',
    cause: 'The request line and headers together are over 16 KiB. The connection is closed after the answer.',
    remedy: 'Send fewer or shorter headers (large cookies, long custom headers) and a shorter URL.',
    relay: false,
    retry: false,
    example: {
      message: "the request line and headers are over 16 KiB (Node's limit on a request head)",
      field: 'headers',
    },
  },
  server_busy: {
    title: 'Server busy',
    brief: 'the server is at its limit of request bodies being received; `Retry-After` says when to retry',
    cause:
      'The server is holding as many request bodies as it allows in memory (`POSTHORN_HTTP_BODY_BUDGET`), or too many large messages (over 64 KiB) are being processed at once. Nothing of the request was accepted.',
    remedy:
      'Wait the seconds in `Retry-After` and send the same request again, with the same `Idempotency-Key`. Persistent answers like this call for more servers or a larger budget.',
    relay: true,
    retry: true,
    example: { message: 'Too many large messages are being processed; retry shortly.' },
  },
  internal_error: {
    title: 'Internal error',
    brief: 'a fault on the server; the request may be retried',
    cause:
      'A fault on the server: the database did not answer, or a bug. It is logged with the request. Anything the server already answered as accepted stays accepted.',
    remedy:
      'Send the same request again after a short wait, with the same `Idempotency-Key` so a send that did get through is not made twice. If it persists, the server’s log says what failed.',
    relay: true,
    retry: true,
    example: { message: 'internal error; the request may be retried' },
  },
};
