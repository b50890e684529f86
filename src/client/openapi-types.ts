/**
 * Types of the Posthorn API, generated from docs/openapi.json by openapi-typescript
 * (`npm run gen:openapi`); do not edit. client.ts builds the typed client on them.
 */
export interface paths {
  '/v1/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** This OpenAPI document */
    get: operations['getOpenApi'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/send': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A domain's events
     * @description The domain's events, newest first, ties by id, with offset paging and filters. A sending key reads its own domain; an account token names one of its account's domains with `domain=` (required when the account has more than one). Events are kept 120 days.
     */
    get: operations['listEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/domain': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get: {
      parameters: {
        query?: never;
        header?: never;
        path?: never;
        cookie?: never;
      };
      requestBody?: never;
      responses: {
        /** @description Default Response */
        200: {
          headers: {
            [name: string]: unknown;
          };
          content?: never;
        };
      };
    };
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/audit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The audit log
     * @description Every management change of the account, newest first: who, what, to what, from where. Secrets never appear.
     */
    get: operations['listAudit'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/messages': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Search messages
     * @description A domain's messages, newest first, ties by id, each with its recipients' status. Filters combine; `status` matches a message with at least one recipient in that status. Pages follow `next_cursor`, which never repeats or skips a message while new ones arrive. A sending key reads its own domain; an account token names one with `domain=` (required when the account has more than one).
     */
    get: operations['listMessages'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/messages/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One message
     * @description The message with each recipient's status (`queued`, `deferred`, `delivered`, `failed`, `rejected`, `suppressed`), its newest event and, while another attempt is to come, the last SMTP reply; and the message's events, oldest first. A send refused at submission (suppressed recipients) is shown from its `rejected-by-system` events. Another domain's message (for a sending key) or another account's is 404.
     */
    get: operations['getMessage'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/messages/{id}/content': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * A message's signed source
     * @description The message as delivered (`message/rfc822`): the DKIM-Signature fields the delivery engine added, then the message, byte for byte. Available from the first delivery attempt until the body is purged (`POSTHORN_BODY_RETENTION`, 30 days by default); 404 before and after, saying which. With per-recipient tracking each recipient has its own copy: choose it with `recipient=`.
     */
    get: operations['getMessageContent'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /** Error */
    Error: {
      error: {
        /** @enum {string} */
        type:
          | 'invalid_request'
          | 'invalid_key'
          | 'forbidden'
          | 'domain_unverified'
          | 'recipient_suppressed'
          | 'rate_limited'
          | 'payload_too_large'
          | 'idempotency_key_reused'
          | 'idempotency_conflict'
          | 'conflict'
          | 'quota_exceeded'
          | 'not_found'
          | 'request_timeout'
          | 'headers_too_large'
          | 'server_busy'
          | 'internal_error';
        /** @description What is wrong, in words a person can act on. */
        message: string;
        /** @description The input at fault: a body path, query parameter or header. */
        field?: string;
        /** @description Where this error type is explained: `/docs/errors#<type>`. */
        docs: string;
      };
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getOpenApi: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The OpenAPI 3.1 document. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            [key: string]: unknown;
          };
        };
      };
    };
  };
  listEvents: {
    parameters: {
      query?: {
        limit?: number;
        /** @description Events to skip; to page deeper than 1,000,000, narrow the range with start and end */
        offset?: number;
        /** @description One event type */
        event?:
          | 'accepted-by-system'
          | 'rejected-by-system'
          | 'accepted-by-mta'
          | 'rejected-by-mta'
          | 'delivered'
          | 'failed'
          | 'opened'
          | 'clicked'
          | 'complained'
          | 'unsubscribed';
        /**
         * @description A message id, with or without `msg_`, in any case
         * @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H
         */
        message_id?: string;
        /** @description Inclusive lower bound: Unix seconds (fractions allowed) or ISO 8601 (a date, or a date-time; no zone means UTC; encode + as %2B) */
        start?: string;
        /**
         * @description Inclusive upper bound, in the forms of start
         * @example 2026-11-21T12:00:00Z
         */
        end?: string;
        /**
         * @description Which of the account's domains to read, with an account token (required when the account has more than one). A sending key reads its own domain.
         * @example mail.example.com
         */
        domain?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Events matching the filter (not the number returned) */
            total: number;
            limit: number;
            offset: number;
            /** @description Newest first, ties by id */
            events: {
              /**
               * @description `evt_…`
               * @example evt_01JD8X4Y2Z3A4B5C6D7E8F9G0H
               */
              id: string;
              /**
               * @description The event type: `accepted-by-system`, `rejected-by-system`, `accepted-by-mta`, `rejected-by-mta`, `delivered`, `failed`, `opened`, `clicked`, `complained`, `unsubscribed`. Ignore types you do not know; more may be added.
               * @example delivered
               */
              event: string;
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              occurred_at: string;
              /** @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H */
              message_id: string;
              /**
               * @description The sender address, after the from rules
               * @example orders@example.com
               */
              from: string;
              /**
               * @description The recipient this event is about
               * @example ana@example.org
               */
              to: string;
              /** @example Your order 4711 */
              subject: string;
              /**
               * @example [
               *       "receipt"
               *     ]
               */
              tags: string[];
              /**
               * @description What the event type records (docs/api.md, `GET /v1/events`); ignore keys you do not know.
               * @example {
               *       "mx_host": "mx.example.org",
               *       "response": "250 2.0.0 OK"
               *     }
               */
              details: {
                [key: string]: unknown;
              };
            }[];
          };
        };
      };
      /** @description `invalid_request`: name must be a domain name such as mail.example.com */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: The API key is missing, malformed, revoked or not valid. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no domain "example.org" in this account */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listAudit: {
    parameters: {
      query?: {
        limit?: number;
        /** @description next_cursor of the previous page */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            entries: {
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              at: string;
              /**
               * @description `token:<name>`, `user:<email>` or `cli`
               * @example token:deploy-bot
               */
              actor: string;
              /**
               * @description `<noun>.<verb>`
               * @example domain.add
               */
              action: string;
              /**
               * @description What changed; never a secret
               * @example mail.example.com
               */
              target: string;
              ip: string | null;
            }[];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
          };
        };
      };
      /** @description `invalid_request`: name must be a domain name such as mail.example.com */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: The API key is missing, malformed, revoked or not valid. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: a sending key can only send and read its domain's events and messages; management needs an account token */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listMessages: {
    parameters: {
      query?: {
        /** @description `queued` (waiting for or in its first attempt), `deferred` (failed temporarily, to be tried again: see `last_reply`), `delivered`, `failed` (refused, bounced, or given up), `rejected` (not sent: no mail server for the domain, or refused at submission), `suppressed` (refused at submission: on the suppression list), `scheduled` (held until its send time) */
        status?: 'queued' | 'deferred' | 'delivered' | 'failed' | 'rejected' | 'suppressed' | 'scheduled';
        /**
         * @description Messages to this recipient (case-insensitive)
         * @example ana@example.org
         */
        to?: string;
        /** @description Messages with this tag */
        tag?: string;
        /**
         * @description Sent at or after: Unix seconds or ISO 8601, as in GET /v1/events
         * @example 2026-11-21
         */
        start?: string;
        /**
         * @description Sent at or before, in the forms of start
         * @example 2026-11-21T12:00:00Z
         */
        end?: string;
        /**
         * @description With an account token: which of the account's domains (required when it has more than one). A sending key reads its own domain.
         * @example mail.example.com
         */
        domain?: string;
        limit?: number;
        /** @description next_cursor of the previous page */
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @description Newest first, ties by id */
            messages: {
              /** @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H */
              id: string;
              /**
               * @description The sending domain
               * @example mail.example.com
               */
              domain: string;
              /**
               * @description The sender address, after the from rules
               * @example orders@mail.example.com
               */
              from: string;
              /** @example Your order 4711 */
              subject: string;
              /**
               * @example [
               *       "receipt"
               *     ]
               */
              tags: string[];
              /**
               * @description The metadata given at send
               * @example {
               *       "order": "4711"
               *     }
               */
              metadata: {
                [key: string]: string;
              };
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              created_at: string;
              /** @description The template the message was rendered from; null when it was sent with its own html or text */
              template: {
                name: string;
                version: number;
              } | null;
              recipients: {
                /** @example ana@example.org */
                address: string;
                /**
                 * @description `queued` (waiting for or in its first attempt), `deferred` (failed temporarily, to be tried again: see `last_reply`), `delivered`, `failed` (refused, bounced, or given up), `rejected` (not sent: no mail server for the domain, or refused at submission), `suppressed` (refused at submission: on the suppression list), `scheduled` (held until its send time)
                 * @enum {string}
                 */
                status: 'queued' | 'deferred' | 'delivered' | 'failed' | 'rejected' | 'suppressed' | 'scheduled';
                /** @description The recipient's newest event; null before it has one */
                last_event: {
                  /**
                   * @description `evt_…`
                   * @example evt_01JD8X4Y2Z3A4B5C6D7E8F9G0H
                   */
                  id: string;
                  /**
                   * @description The event type: `accepted-by-system`, `rejected-by-system`, `accepted-by-mta`, `rejected-by-mta`, `delivered`, `failed`, `opened`, `clicked`, `complained`, `unsubscribed`. Ignore types you do not know; more may be added.
                   * @example delivered
                   */
                  event: string;
                  /**
                   * Format: date-time
                   * @example 2026-11-25T09:30:00.000Z
                   */
                  occurred_at: string;
                  /** @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H */
                  message_id: string;
                  /**
                   * @description The sender address, after the from rules
                   * @example orders@example.com
                   */
                  from: string;
                  /**
                   * @description The recipient this event is about
                   * @example ana@example.org
                   */
                  to: string;
                  /** @example Your order 4711 */
                  subject: string;
                  /**
                   * @example [
                   *       "receipt"
                   *     ]
                   */
                  tags: string[];
                  /**
                   * @description What the event type records (docs/api.md, `GET /v1/events`); ignore keys you do not know.
                   * @example {
                   *       "mx_host": "mx.example.org",
                   *       "response": "250 2.0.0 OK"
                   *     }
                   */
                  details: {
                    [key: string]: unknown;
                  };
                } | null;
                /**
                 * Format: date-time
                 * @example 2026-11-25T09:30:00.000Z
                 */
                updated_at: string;
                /**
                 * @description While another attempt is to come: why the last one failed, usually the receiving server's reply (`451 4.3.0 …`). Deferrals are not events, so this is where they show.
                 * @example 451 4.3.0 Temporary failure, try again later
                 */
                last_reply: string | null;
                /** @description When the next attempt is due, while one is (null during an attempt and once done) */
                next_attempt_at: string | null;
              }[];
            }[];
            /** @description Pass as `cursor` for the next page; null on the last page. */
            next_cursor: string | null;
          };
        };
      };
      /** @description `invalid_request`: name must be a domain name such as mail.example.com */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: The API key is missing, malformed, revoked or not valid. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no domain "example.org" in this account */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getMessage: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The message id from the send response, with or without `msg_`
         * @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H
         */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H */
            id: string;
            /**
             * @description The sending domain
             * @example mail.example.com
             */
            domain: string;
            /**
             * @description The sender address, after the from rules
             * @example orders@mail.example.com
             */
            from: string;
            /** @example Your order 4711 */
            subject: string;
            /**
             * @example [
             *       "receipt"
             *     ]
             */
            tags: string[];
            /**
             * @description The metadata given at send
             * @example {
             *       "order": "4711"
             *     }
             */
            metadata: {
              [key: string]: string;
            };
            /**
             * Format: date-time
             * @example 2026-11-25T09:30:00.000Z
             */
            created_at: string;
            /** @description The template the message was rendered from; null when it was sent with its own html or text */
            template: {
              name: string;
              version: number;
            } | null;
            recipients: {
              /** @example ana@example.org */
              address: string;
              /**
               * @description `queued` (waiting for or in its first attempt), `deferred` (failed temporarily, to be tried again: see `last_reply`), `delivered`, `failed` (refused, bounced, or given up), `rejected` (not sent: no mail server for the domain, or refused at submission), `suppressed` (refused at submission: on the suppression list), `scheduled` (held until its send time)
               * @enum {string}
               */
              status: 'queued' | 'deferred' | 'delivered' | 'failed' | 'rejected' | 'suppressed' | 'scheduled';
              /** @description The recipient's newest event; null before it has one */
              last_event: {
                /**
                 * @description `evt_…`
                 * @example evt_01JD8X4Y2Z3A4B5C6D7E8F9G0H
                 */
                id: string;
                /**
                 * @description The event type: `accepted-by-system`, `rejected-by-system`, `accepted-by-mta`, `rejected-by-mta`, `delivered`, `failed`, `opened`, `clicked`, `complained`, `unsubscribed`. Ignore types you do not know; more may be added.
                 * @example delivered
                 */
                event: string;
                /**
                 * Format: date-time
                 * @example 2026-11-25T09:30:00.000Z
                 */
                occurred_at: string;
                /** @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H */
                message_id: string;
                /**
                 * @description The sender address, after the from rules
                 * @example orders@example.com
                 */
                from: string;
                /**
                 * @description The recipient this event is about
                 * @example ana@example.org
                 */
                to: string;
                /** @example Your order 4711 */
                subject: string;
                /**
                 * @example [
                 *       "receipt"
                 *     ]
                 */
                tags: string[];
                /**
                 * @description What the event type records (docs/api.md, `GET /v1/events`); ignore keys you do not know.
                 * @example {
                 *       "mx_host": "mx.example.org",
                 *       "response": "250 2.0.0 OK"
                 *     }
                 */
                details: {
                  [key: string]: unknown;
                };
              } | null;
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              updated_at: string;
              /**
               * @description While another attempt is to come: why the last one failed, usually the receiving server's reply (`451 4.3.0 …`). Deferrals are not events, so this is where they show.
               * @example 451 4.3.0 Temporary failure, try again later
               */
              last_reply: string | null;
              /** @description When the next attempt is due, while one is (null during an attempt and once done) */
              next_attempt_at: string | null;
            }[];
            /** @description The message's events, oldest first (at most 1,000: see events_truncated) */
            events: {
              /**
               * @description `evt_…`
               * @example evt_01JD8X4Y2Z3A4B5C6D7E8F9G0H
               */
              id: string;
              /**
               * @description The event type: `accepted-by-system`, `rejected-by-system`, `accepted-by-mta`, `rejected-by-mta`, `delivered`, `failed`, `opened`, `clicked`, `complained`, `unsubscribed`. Ignore types you do not know; more may be added.
               * @example delivered
               */
              event: string;
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              occurred_at: string;
              /** @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H */
              message_id: string;
              /**
               * @description The sender address, after the from rules
               * @example orders@example.com
               */
              from: string;
              /**
               * @description The recipient this event is about
               * @example ana@example.org
               */
              to: string;
              /** @example Your order 4711 */
              subject: string;
              /**
               * @example [
               *       "receipt"
               *     ]
               */
              tags: string[];
              /**
               * @description What the event type records (docs/api.md, `GET /v1/events`); ignore keys you do not know.
               * @example {
               *       "mx_host": "mx.example.org",
               *       "response": "250 2.0.0 OK"
               *     }
               */
              details: {
                [key: string]: unknown;
              };
            }[];
            /** @description True when the message has more than 1,000 events: page GET /v1/events?message_id= for all */
            events_truncated: boolean;
          };
        };
      };
      /** @description `invalid_request`: name must be a domain name such as mail.example.com */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: The API key is missing, malformed, revoked or not valid. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no domain "example.org" in this account */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getMessageContent: {
    parameters: {
      query?: {
        /**
         * @description The copy signed for this recipient (copies differ per recipient with tracking, and per recipient domain in their DKIM-Signature); default: the copy signed last
         * @example ana@example.org
         */
        recipient?: string;
      };
      header?: never;
      path: {
        /**
         * @description The message id from the send response, with or without `msg_`
         * @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H
         */
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The signed message (RFC 5322) as handed to delivery: its DKIM-Signature fields, then the message. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'message/rfc822': string;
        };
      };
      /** @description `invalid_request`: name must be a domain name such as mail.example.com */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: The API key is missing, malformed, revoked or not valid. */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `not_found`: no domain "example.org" in this account */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
}
