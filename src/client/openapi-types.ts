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
  '/v1/templates': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List templates
     * @description The account's templates by name, each with its newest version.
     */
    get: operations['listTemplates'];
    put?: never;
    /**
     * Create a template
     * @description Makes a template with its version 1. Each part is checked now: a syntax error, or anything outside what templates may use (partials, unknown helpers), is 400 with `field` naming the part (`subject`, `html`, `text`) and a message with its line and column.
     */
    post: operations['createTemplate'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/templates/{name}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show a template
     * @description One version of a template (the newest unless `version` is given), with the variables it uses.
     */
    get: operations['getTemplate'];
    /**
     * Add a version
     * @description Makes the next version of the template from the whole body; earlier versions never change, and a send may still name them.
     */
    put: operations['updateTemplate'];
    post?: never;
    /**
     * Delete a template
     * @description Deletes the template and all its versions; a later send naming it is 400 `template.name`. Messages already sent keep the name and version they were rendered from.
     */
    delete: operations['deleteTemplate'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/templates/{name}/versions': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a template's versions
     * @description Every version of the template, newest first.
     */
    get: operations['listTemplateVersions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/templates/{name}/render': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Preview a template
     * @description Renders the template (the newest version unless `version` is given) with `variables` exactly as a send would, and sends nothing. A variable used outside an `#if`, `#unless` or `#each` and not given is 400 naming `variables.<path>`; a render over its budget is 400, one over 10 MiB is 413.
     */
    post: operations['renderTemplate'];
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
  listTemplates: {
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
        content: {
          'application/json': {
            /** @description By name */
            templates: {
              id: string;
              name: string;
              /** @description The newest version */
              version: number;
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              updated_at: string;
            }[];
          };
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
  createTemplate: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** @description At least one of html and text. */
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description A slug, unique in the account
           * @example welcome
           */
          name: string;
          /**
           * @description The subject line, a template: variables are written as they are, with any line break or control character turned into a space.
           * @example Welcome to Acme, {{user.first_name}}!
           */
          subject: string;
          /**
           * @description The HTML part, a template: `{{value}}` is HTML-escaped, `{{{value}}}` is written as it is.
           * @example <p>Hello {{user.first_name}},</p>{{#if trial}}<p>Your trial ends {{date trial.ends_at "D MMMM"}}.</p>{{/if}}
           */
          html?: string | null;
          /**
           * @description The plain-text part, a template: values are written as they are.
           * @example Hello {{user.first_name}},
           */
          text?: string | null;
        };
      };
    };
    responses: {
      /** @description One version of a template. */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example tmpl_01JDQ8Y4X3R9G6M2A7B5C8D0EF */
            id: string;
            /** @example welcome */
            name: string;
            /**
             * @description This version
             * @example 2
             */
            version: number;
            /** @description The newest version, what a send without `version` uses */
            latest_version: number;
            subject: string;
            html: string | null;
            text: string | null;
            /**
             * @description The variable paths this version uses, sorted; `[]` marks an element of an `#each` list. A path used outside an `#if`, `#unless` or `#each` must be given to send.
             * @example [
             *       "items",
             *       "items[].name",
             *       "items[].price",
             *       "user.first_name"
             *     ]
             */
            variables: string[];
            /**
             * Format: date-time
             * @example 2026-11-25T09:30:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the newest version was made
             * @example 2026-11-25T09:30:00.000Z
             */
            updated_at: string;
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
      /** @description `conflict`: domain "example.com" already exists */
      409: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  getTemplate: {
    parameters: {
      query?: {
        /** @description A version; the newest when left out */
        version?: number;
      };
      header?: never;
      path: {
        /**
         * @description The template name: a slug, unique in the account
         * @example welcome
         */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One version of a template. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example tmpl_01JDQ8Y4X3R9G6M2A7B5C8D0EF */
            id: string;
            /** @example welcome */
            name: string;
            /**
             * @description This version
             * @example 2
             */
            version: number;
            /** @description The newest version, what a send without `version` uses */
            latest_version: number;
            subject: string;
            html: string | null;
            text: string | null;
            /**
             * @description The variable paths this version uses, sorted; `[]` marks an element of an `#each` list. A path used outside an `#if`, `#unless` or `#each` must be given to send.
             * @example [
             *       "items",
             *       "items[].name",
             *       "items[].price",
             *       "user.first_name"
             *     ]
             */
            variables: string[];
            /**
             * Format: date-time
             * @example 2026-11-25T09:30:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the newest version was made
             * @example 2026-11-25T09:30:00.000Z
             */
            updated_at: string;
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
      /** @description `not_found`: no domain "example.org" in this account */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  updateTemplate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The template name: a slug, unique in the account
         * @example welcome
         */
        name: string;
      };
      cookie?: never;
    };
    /** @description The whole new version: a part left out is not in it. At least one of html and text. */
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description The subject line, a template: variables are written as they are, with any line break or control character turned into a space.
           * @example Welcome to Acme, {{user.first_name}}!
           */
          subject: string;
          /**
           * @description The HTML part, a template: `{{value}}` is HTML-escaped, `{{{value}}}` is written as it is.
           * @example <p>Hello {{user.first_name}},</p>{{#if trial}}<p>Your trial ends {{date trial.ends_at "D MMMM"}}.</p>{{/if}}
           */
          html?: string | null;
          /**
           * @description The plain-text part, a template: values are written as they are.
           * @example Hello {{user.first_name}},
           */
          text?: string | null;
        };
      };
    };
    responses: {
      /** @description One version of a template. */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example tmpl_01JDQ8Y4X3R9G6M2A7B5C8D0EF */
            id: string;
            /** @example welcome */
            name: string;
            /**
             * @description This version
             * @example 2
             */
            version: number;
            /** @description The newest version, what a send without `version` uses */
            latest_version: number;
            subject: string;
            html: string | null;
            text: string | null;
            /**
             * @description The variable paths this version uses, sorted; `[]` marks an element of an `#each` list. A path used outside an `#if`, `#unless` or `#each` must be given to send.
             * @example [
             *       "items",
             *       "items[].name",
             *       "items[].price",
             *       "user.first_name"
             *     ]
             */
            variables: string[];
            /**
             * Format: date-time
             * @example 2026-11-25T09:30:00.000Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the newest version was made
             * @example 2026-11-25T09:30:00.000Z
             */
            updated_at: string;
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
      /** @description `not_found`: no domain "example.org" in this account */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  deleteTemplate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The template name: a slug, unique in the account
         * @example welcome
         */
        name: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Done; no body. */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
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
      /** @description `not_found`: no domain "example.org" in this account */
      404: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'];
        };
      };
    };
  };
  listTemplateVersions: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The template name: a slug, unique in the account
         * @example welcome
         */
        name: string;
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
            /** @description Newest first */
            versions: {
              version: number;
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              created_at: string;
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
      /** @description `forbidden`: a sending key can only send and read its domain's events and messages; management needs an account token */
      403: {
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
    };
  };
  renderTemplate: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The template name: a slug, unique in the account
         * @example welcome
         */
        name: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description The values the template uses, as a send would give them (at most 256 KiB as JSON).
           * @example {
           *       "user": {
           *         "first_name": "Ada"
           *       },
           *       "trial": {
           *         "ends_at": "2026-12-09"
           *       }
           *     }
           */
          variables?: {
            [key: string]: unknown;
          };
          /** @description A version; the newest when left out */
          version?: number;
        };
      };
    };
    responses: {
      /** @description Default Response */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            subject: string;
            /** @description Null when the template has no html part */
            html: string | null;
            /** @description Null when the template has no text part */
            text: string | null;
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
      /** @description `not_found`: no domain "example.org" in this account */
      404: {
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
}
