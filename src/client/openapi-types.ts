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
    /**
     * Send a message
     * @description Queues one message to 1–50 recipients (to, cc and bcc together), with optional attachments and inline images, and answers 202 once it is committed. Checks run in a fixed order; the first that fails decides the answer (docs/api.md, Order of the checks). Over the SMTP relay the same rules answer with SMTP replies.
     */
    post: operations['send'];
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
  send: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description 1 to 255 printable ASCII characters; a retry with the same key and request gets the first answer again (docs/api.md, Idempotency).
         * @example order-4711-receipt
         */
        'idempotency-key'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "from": "Acme Orders <orders@example.com>",
         *       "to": [
         *         "ana@example.org"
         *       ],
         *       "cc": "Accounts <accounts@example.org>",
         *       "bcc": [
         *         "audit@example.com"
         *       ],
         *       "reply_to": "help@example.com",
         *       "subject": "Your order 4711",
         *       "html": "<p>Thanks for your order.</p><img src=\"cid:logo@acme\" alt=\"Acme\">",
         *       "attachments": [
         *         {
         *           "filename": "invoice-4711.pdf",
         *           "content": "JVBERi0xLjcKJcfsj6IK"
         *         },
         *         {
         *           "filename": "logo.png",
         *           "content": "iVBORw0KGgo=",
         *           "content_type": "image/png",
         *           "content_id": "logo@acme"
         *         }
         *       ],
         *       "tags": [
         *         "receipt"
         *       ],
         *       "metadata": {
         *         "order_id": "4711"
         *       }
         *     }
         */
        'application/json': {
          /**
           * @description The sender: one mailbox on the key's domain or another verified domain of the account (rewritten to the key's domain).
           * @example Acme Orders <orders@example.com>
           */
          from: string;
          /**
           * @description 1 to 50 recipients. `to`, `cc` and `bcc` together hold at most 50 distinct addresses.
           * @example [
           *       "ana@example.org",
           *       "Bob <bob@example.net>"
           *     ]
           */
          to: string | string[];
          /**
           * @description Copy recipients: delivered to, and shown in the Cc header. null means none.
           * @example Accounts <accounts@example.org>
           */
          cc?: string | string[] | null;
          /**
           * @description Blind copy recipients: delivered to, never shown in the message. null means none.
           * @example [
           *       "audit@example.com"
           *     ]
           */
          bcc?: string | string[] | null;
          /**
           * @description The Reply-To header: where replies go. null means none.
           * @example help@example.com
           */
          reply_to?: string | string[] | null;
          /**
           * @description Trimmed; not blank, at most 998 characters, no CR, LF, NUL or other control characters.
           * @example Your order 4711
           */
          subject: string;
          /**
           * @description The HTML body. At least one of `html` and `text` is required; an empty string counts as absent.
           * @example <p>Thanks for your order.</p><img src="cid:logo@acme" alt="Acme">
           */
          html?: string | null;
          /**
           * @description The plain-text body; generated from `html` when absent.
           * @example Thanks for your order.
           */
          text?: string | null;
          /** @description At most 100 files. html, text and the decoded files together are at most 10 MiB (413 `payload_too_large` otherwise). */
          attachments?:
            | {
                /**
                 * @description The file name readers see (any characters but control characters, `/` and `\`; non-ASCII is sent RFC 2231-encoded). Executable and script types are refused: see docs/api.md, Attachments.
                 * @example invoice-4711.pdf
                 */
                filename: string;
                /**
                 * Format: byte
                 * @description The file's bytes, base64 (RFC 4648 §4, standard alphabet; line breaks are ignored, padding may be left out).
                 * @example JVBERi0xLjcKJcfsj6IK
                 */
                content: string;
                /**
                 * @description The media type (`type/subtype`, parameters allowed); from the file name when absent. `multipart/*`, `message/*` and executable types are refused.
                 * @example application/pdf
                 */
                content_type?: string | null;
                /**
                 * @description Makes the file an inline part that the html shows with `<img src="cid:<content_id>">`; without angle brackets, unique in the message.
                 * @example logo@acme
                 */
                content_id?: string | null;
              }[]
            | null;
          /**
           * @description At most 20, each 1–100 characters, not blank, no control characters. Every event carries them.
           * @example [
           *       "receipt"
           *     ]
           */
          tags?: string[];
          /**
           * @description Your own string values (at most 20 keys of 1–40 characters, values of at most 500); every event and webhook of the message carries them as `metadata`.
           * @example {
           *       "order_id": "4711",
           *       "customer": "c_829"
           *     }
           */
          metadata?: {
            [key: string]: string;
          } | null;
          /**
           * @description At most 50 custom headers, each name once (case-insensitively). Headers the service sets (From, To, Cc, Bcc, Reply-To, Subject, Date, Message-ID, Content-*, …) are refused: use the fields.
           * @example {
           *       "X-Order": "4711"
           *     }
           */
          headers?: {
            [key: string]: string;
          };
          /** @description Overrides the domain's open tracking. */
          track_opens?: boolean | null;
          /** @description Overrides the domain's click tracking. */
          track_clicks?: boolean | null;
          /** @description Overrides the domain's List-Unsubscribe setting (RFC 8058). */
          unsubscribe?: boolean | null;
        };
      };
    };
    responses: {
      /** @description Default Response */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": "msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H",
           *       "status": "queued",
           *       "dkim": "signed",
           *       "dmarc": "aligned"
           *     }
           */
          'application/json': {
            /**
             * @description The message id every event of the message carries.
             * @example msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H
             */
            id: string;
            /** @enum {string} */
            status: 'queued';
            /** @enum {string} */
            dkim: 'signed';
            /** @enum {string} */
            dmarc: 'aligned';
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
      /** @description `forbidden`: a sending key can only send and read its domain's events and messages; management needs an account token; `domain_unverified` */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout` */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `idempotency_conflict` */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `payload_too_large` */
      413: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `recipient_suppressed`; `idempotency_key_reused` */
      422: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `rate_limited`; `quota_exceeded` */
      429: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `internal_error` */
      500: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `server_busy` */
      503: {
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
}
