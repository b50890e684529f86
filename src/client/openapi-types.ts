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
    /**
     * The sending key's domain
     * @description The API key's own sending domain: its name, status, when it was verified, and its rolling 30-day complaint rate against the 0.1% of the acceptable use policy. Reads share the per-key limit of `GET /v1/events` under their own key (POSTHORN_EVENTS_RATE_LIMIT). An account token uses `GET /v1/domains/{domain}` instead (403 `forbidden` here).
     */
    get: operations['getOwnDomain'];
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
  '/v1/domains': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List domains
     * @description The account's sending domains, by name, each as `GET /v1/domains/{domain}` shows it.
     */
    get: operations['listDomains'];
    put?: never;
    /**
     * Add a domain
     * @description Adds a sending domain with a new 2048-bit DKIM key. It starts `pending`: publish the four `records`, then `POST /v1/domains/{domain}/verify`. A name held by a live domain of any account is 409 `conflict`.
     */
    post: operations['addDomain'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/domains/{domain}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show a domain
     * @description The domain's status, its DNS records with what the last check found, its tracking defaults, Ed25519 signing, complaint rate, and the account's month against its quota. Nothing is looked up in DNS: `POST …/verify` checks now.
     */
    get: operations['getDomain'];
    put?: never;
    post?: never;
    /**
     * Delete a domain
     * @description Its API key, SMTP logins and webhook stop working at once (the next request is 401, the next relay AUTH refused, no more webhook posts). Mail it already accepted is still delivered, and its events stay until retention ends. The name may be added again.
     */
    delete: operations['deleteDomain'];
    options?: never;
    head?: never;
    /**
     * Change domain settings
     * @description Any subset of the tracking defaults and Ed25519 signing. Turning `ed25519` on makes a new Ed25519 key; its record appears in `records` (publish it; mail is also signed with RSA, so nothing breaks before it exists). The defaults apply to messages accepted from now on.
     */
    patch: operations['updateDomain'];
    trace?: never;
  };
  '/v1/domains/{domain}/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Verify a domain now
     * @description Checks the domain's four DNS records now and returns the domain with the result: `verified` once all four match. A resolver that does not answer changes nothing (the records then show `unknown`). The sandbox domain needs no DNS and is returned as it is.
     */
    post: operations['verifyDomain'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/domains/{domain}/api-key': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show the API key
     * @description The active key's prefix and dates; the key itself cannot be read back. 404 when there is none.
     */
    get: operations['getApiKey'];
    put?: never;
    /**
     * Create or replace the API key
     * @description Issues the domain's API key, shown only in this answer. Any earlier key of the domain gets 401 from this moment, with no overlap. The domain must be verified (or `warning`): otherwise 403 `domain_unverified`.
     */
    post: operations['createApiKey'];
    /**
     * Revoke the API key
     * @description The key gets 401 from this moment; the domain has no key until one is created. SMTP logins are untouched.
     */
    delete: operations['revokeApiKey'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/domains/{domain}/smtp-credentials': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List SMTP logins
     * @description The domain's active SMTP relay logins, oldest first: usernames and dates, never passwords.
     */
    get: operations['listSmtpCredentials'];
    put?: never;
    /**
     * Create an SMTP login
     * @description A new relay login for the domain, its password shown only in this answer. Connect to `host`:`port` with STARTTLS and AUTH PLAIN or LOGIN. The API key and other logins are untouched.
     */
    post: operations['createSmtpCredential'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/v1/domains/{domain}/smtp-credentials/{username}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /**
     * Revoke an SMTP login
     * @description That login's next AUTH is refused, and a session it opened is refused at its next message. The API key and the domain's other logins are untouched. A login already revoked is 409 `conflict`.
     */
    delete: operations['revokeSmtpCredential'];
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
    /**
     * Domain
     * @description A sending domain
     */
    Domain: {
      /** @example mail.example.com */
      name: string;
      /**
       * @description `pending` (never verified), `verified`, `warning` (verified, a record stopped matching; sending continues during the grace period), `unverified` (sends are refused with 403)
       * @enum {unknown}
       */
      status: 'pending' | 'verified' | 'warning' | 'unverified';
      /**
       * Format: date-time
       * @example 2026-11-25T09:30:00.000Z
       */
      created_at: string;
      verified_at: string | null;
      /** @description When the records were last checked (POST …/verify, or the daily re-check) */
      last_checked_at: string | null;
      /** @description The DNS records to publish, with their status */
      records: {
        /**
         * @description What the record is for. The four `spf`, `dkim`, `return_path`, `dmarc` decide verification; `dkim_ed25519` is listed while Ed25519 signing is on.
         * @enum {unknown}
         */
        purpose: 'spf' | 'dkim' | 'return_path' | 'dmarc' | 'dkim_ed25519';
        /** @enum {unknown} */
        type: 'TXT' | 'CNAME';
        /**
         * @description Where to publish it
         * @example ph202611._domainkey.mail.example.com
         */
        name: string;
        /**
         * @description What to publish
         * @example v=DKIM1; k=rsa; p=MIIBIjANBg…
         */
        value: string;
        /** @description What the last check saw: `ok`; `missing` (no record of its kind at the name); `mismatch` (a record is there but not this one); `unknown` (not checked yet, the resolver did not answer, or the record changed since) */
        status: 'ok' | 'missing' | 'mismatch' | 'unknown';
        /** @description The values the last check found at the name (empty when none or not checked) */
        found: string[];
      }[];
      /** @description Defaults for this domain's messages; each message may override them */
      tracking: {
        /** @description Open tracking pixel */
        opens: boolean;
        /** @description Click tracking (links rewritten) */
        clicks: boolean;
        /** @description List-Unsubscribe and one-click unsubscribe headers (RFC 8058) */
        unsubscribe: boolean;
      };
      /** @description Messages are also signed with Ed25519 (RFC 8463); its record is then among `records` */
      ed25519: boolean;
      /** @description The rolling complaint rate: complaints over deliveries, 30 days */
      complaint_rate: {
        /** @description `complained` events in the window */
        complaints: number;
        /** @description `delivered` events in the window */
        delivered: number;
        /** @description complaints / delivered; null when nothing was delivered in the window */
        rate: number | null;
        /**
         * @description The limit of the acceptable use policy (0.001 = 0.1%)
         * @example 0.001
         */
        threshold: number;
        /**
         * @description A notice is raised above this rate
         * @example 0.0008
         */
        warning_at: number;
        /**
         * @description The rolling window, in days
         * @example 30
         */
        window_days: number;
        /**
         * @description Below this many deliveries in the window no notice is raised (the rate says little yet)
         * @example 1000
         */
        min_delivered: number;
      };
      /** @description The account’s month against its quota (the quota is account-wide) */
      month: {
        /** @description Recipients the account had accepted this calendar month (UTC), across all its domains */
        accepted: number;
        /** @description The account's monthly quota; null is unlimited */
        quota: number | null;
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
  getOwnDomain: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The key's sending domain */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example mail.example.com */
            domain: string;
            /** @enum {unknown} */
            status: 'pending' | 'verified' | 'warning' | 'unverified';
            verified_at: string | null;
            /** @description The rolling complaint rate: complaints over deliveries, 30 days */
            complaint_rate: {
              /** @description `complained` events in the window */
              complaints: number;
              /** @description `delivered` events in the window */
              delivered: number;
              /** @description complaints / delivered; null when nothing was delivered in the window */
              rate: number | null;
              /**
               * @description The limit of the acceptable use policy (0.001 = 0.1%)
               * @example 0.001
               */
              threshold: number;
              /**
               * @description A notice is raised above this rate
               * @example 0.0008
               */
              warning_at: number;
              /**
               * @description The rolling window, in days
               * @example 30
               */
              window_days: number;
              /**
               * @description Below this many deliveries in the window no notice is raised (the rate says little yet)
               * @example 1000
               */
              min_delivered: number;
            };
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
  listDomains: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The account's domains, by name */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            domains: components['schemas']['Domain'][];
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
  addDomain: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          /**
           * @description The domain to send from, e.g. `mail.example.com` (a subdomain keeps its DNS apart)
           * @example mail.example.com
           */
          name: string;
        };
      };
    };
    responses: {
      /** @description The new domain, `pending`, with the records to publish */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Domain'];
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
  getDomain: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The domain */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Domain'];
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
  deleteDomain: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
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
  updateDomain: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "tracking": {
         *         "opens": true,
         *         "clicks": true
         *       },
         *       "ed25519": true
         *     }
         */
        'application/json': {
          /** @description Any of the three tracking defaults */
          tracking?: {
            opens?: boolean;
            clicks?: boolean;
            unsubscribe?: boolean;
          };
          /** @description On: a new Ed25519 key and record (publish it); off: the key is dropped */
          ed25519?: boolean;
        };
      };
    };
    responses: {
      /** @description The domain with its new settings */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Domain'];
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
  verifyDomain: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The domain after the check */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Domain'];
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
  getApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The domain's active key (never the key itself) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example ph_1a2b3c4d */
            prefix: string;
            /**
             * Format: date-time
             * @example 2026-11-25T09:30:00.000Z
             */
            created_at: string;
            /** @description The last request made with it, to the minute; null when never used */
            last_used_at: string | null;
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
  createApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The new key; any earlier key of the domain gets 401 from now on */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /**
             * @description The key, shown this once: send it as `Authorization: Bearer <key>`
             * @example ph_1a2b3c4d_Q2hhbmdlIG1lISBUaGlzIGlzIG5vdCBhIHJlYWwga2V5Lg
             */
            key: string;
            /**
             * @description Its public part, to tell keys apart
             * @example ph_1a2b3c4d
             */
            prefix: string;
            /**
             * Format: date-time
             * @example 2026-11-25T09:30:00.000Z
             */
            created_at: string;
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
  revokeApiKey: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
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
  listSmtpCredentials: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The domain's active SMTP logins, oldest first (never a password) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            credentials: {
              /** @example ph_smtp_0123456789ab */
              username: string;
              /**
               * Format: date-time
               * @example 2026-11-25T09:30:00.000Z
               */
              created_at: string;
              /** @description The last successful AUTH with it, to the minute; null when never used */
              last_used_at: string | null;
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
  createSmtpCredential: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The new SMTP login */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @example ph_smtp_0123456789ab */
            username: string;
            /**
             * @description Shown this once; only its hash is kept
             * @example phs_VGhpcyBpcyBub3QgYSByZWFsIHBhc3N3b3JkLCBqdXN0IGFu
             */
            password: string;
            /**
             * @description The relay host (POSTHORN_HOSTNAME)
             * @example smtp.example.net
             */
            host: string;
            /**
             * @description The submission port, STARTTLS (POSTHORN_SMTP_PORT); implicit TLS is on POSTHORN_SMTPS_PORT
             * @example 587
             */
            port: number;
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
  revokeSmtpCredential: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The domain name
         * @example mail.example.com
         */
        domain: string;
        /** @example ph_smtp_0123456789ab */
        username: string;
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
}
