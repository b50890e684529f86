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
  '/v1/usage': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Usage of a month
     * @description The account’s accepted recipients in a calendar month (UTC) against its monthly quota, what happened each day (accepted, delivered, failed, complained, opened, clicked), and the rolling 30-day complaint rate.
     */
    get: operations['getUsage'];
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
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
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
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getUsage: {
    parameters: {
      query?: {
        /**
         * @description The month to report, `YYYY-MM` (UTC); the current month when left out.
         * @example 2026-11
         */
        month?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The month’s usage. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "month": "2026-11",
           *       "accepted": 1250,
           *       "quota": 50000,
           *       "days": [
           *         {
           *           "date": "2026-11-01",
           *           "accepted": 40,
           *           "delivered": 39,
           *           "failed": 1,
           *           "complained": 0,
           *           "opened": 12,
           *           "clicked": 3
           *         }
           *       ],
           *       "complaint_rate": {
           *         "complaints": 1,
           *         "delivered": 5120,
           *         "rate": 0.000195,
           *         "threshold": 0.001,
           *         "warning_at": 0.0008,
           *         "window_days": 30,
           *         "min_delivered": 1000
           *       }
           *     }
           */
          'application/json': {
            /**
             * @description The month reported, `YYYY-MM` (UTC).
             * @example 2026-11
             */
            month: string;
            /** @description Recipients accepted this month over every domain of the account: the count the quota is held against. */
            accepted: number;
            /** @description The account’s monthly quota in accepted recipients; null when there is none. */
            quota: number | null;
            /** @description One entry per UTC day of the month, oldest first: up to today for the current month, every day for a past one, none for a month to come. */
            days: {
              /**
               * Format: date
               * @description The UTC day, `YYYY-MM-DD`.
               * @example 2026-11-21
               */
              date: string;
              /** @description Recipients accepted (`accepted-by-system` events). */
              accepted: number;
              /** @description `delivered` events. */
              delivered: number;
              /** @description `failed` events (hard, soft and block bounces, and mail given up on). */
              failed: number;
              /** @description `complained` events (spam complaints). */
              complained: number;
              /** @description `opened` events, every load of the pixel. */
              opened: number;
              /** @description `clicked` events, every tracked link followed. */
              clicked: number;
            }[];
            /**
             * @description The account’s rolling 30-day complaint rate as of now, over all its domains (the same figures as `GET /v1/domain` gives per domain), whatever `month` asks for.
             * @example {
             *       "complaints": 1,
             *       "delivered": 5120,
             *       "rate": 0.000195,
             *       "threshold": 0.001,
             *       "warning_at": 0.0008,
             *       "window_days": 30,
             *       "min_delivered": 1000
             *     }
             */
            complaint_rate: {
              /** @description `complained` events in the window. */
              complaints: number;
              /** @description `delivered` events in the window. */
              delivered: number;
              /** @description complaints / delivered; null when nothing was delivered in the window. */
              rate: number | null;
              /** @description The acceptable use policy’s limit (0.001 = 0.1%). */
              threshold: number;
              /** @description A domain above this rate gets a `domain.complaint_rate` notice. */
              warning_at: number;
              /** @description The rolling window, in days, ending now. */
              window_days: number;
              /** @description No notice is raised below this many deliveries in the window. */
              min_delivered: number;
            };
          };
        };
      };
      /** @description `invalid_request`: a field, parameter or header is missing or malformed; `field` names it ([more](/docs/errors#invalid_request)) */
      400: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `invalid_key`: the credential is missing, malformed, unknown or revoked ([more](/docs/errors#invalid_key)) */
      401: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `forbidden`: the credential is valid but may not do this: a sending key on a management route, an account token on a send, a viewer token's change ([more](/docs/errors#forbidden)) */
      403: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed ([more](/docs/errors#request_timeout)) */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed ([more](/docs/errors#headers_too_large)) */
      431: {
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
