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
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed. Retry the same request. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed. */
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
      /** @description `request_timeout`: the headers or body did not arrive in time; the connection is closed. Retry the same request. */
      408: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
      /** @description `headers_too_large`: the request line and headers are over 16 KiB; the connection is closed. */
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
