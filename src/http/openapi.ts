import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ErrorBody, transportErrorResponses } from './schemas/common.js';
import type { Need } from './authorize.js';

// ajv-formats is CommonJS; its default export is the plugin function under ESM.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** The OpenAPI security requirement of each credential need (docs/management.md, Credentials). */
const SECURITY: Record<Need['scope'], Record<string, string[]>[]> = {
  public: [],
  send: [{ sendingKey: [] }],
  read: [{ sendingKey: [] }, { accountToken: [] }, { dashboardSession: [] }],
  manage: [{ accountToken: [] }, { dashboardSession: [] }],
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The OpenAPI request body of a route that reads its body itself (not validated by Fastify). */
    documentedBody?: object;
  }
}

/**
 * Registers @fastify/swagger so that `app.swagger()` is the OpenAPI 3.1 document of every `/v1`
 * route, built from the same TypeBox schemas Fastify validates requests with, and each route's
 * credential need (authorize.ts) as its security requirement. Other routes (tracking links,
 * /healthz, /metrics, the dashboard) are not part of the API and are left out.
 */
export function registerOpenApi(app: FastifyInstance, version: string): void {
  app.addSchema(ErrorBody);
  app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Posthorn API',
        version,
        description:
          'Send transactional email, read its events, and manage the account: domains, keys, SMTP logins, webhooks, messages, suppressions, usage and the audit log. Every error has the body `{"error":{"type","message","field"?,"docs"}}`; [/docs/errors](/docs/errors) explains each type.',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: '/', description: 'This Posthorn server' }],
      components: {
        securitySchemes: {
          sendingKey: {
            type: 'http',
            scheme: 'bearer',
            description: "A domain's API key, `ph_…`: sends, and reads its own domain's events and messages.",
          },
          accountToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'An account token, `pha_…` (`posthorn token create`): manages every domain of its account.',
          },
          dashboardSession: {
            type: 'apiKey',
            in: 'cookie',
            name: '__Host-posthorn_session',
            description:
              "A dashboard user's session, set by `POST /v1/session`: what the user's role allows. A request that changes something also needs the session's `csrf_token` in `X-CSRF-Token`, and a same-origin `Origin` when one is sent.",
          },
        },
      },
      tags: [
        { name: 'Sending', description: 'Send mail and read what became of it.' },
        { name: 'Domains', description: 'Sending domains, their DNS records and settings.' },
        { name: 'Credentials', description: 'API keys and SMTP logins of a domain.' },
        { name: 'Webhook', description: "A domain's signed event webhook." },
        { name: 'Messages', description: 'One message and its recipients, and message search.' },
        { name: 'Suppressions', description: "The account's suppression list, with import and export." },
        {
          name: 'Queue',
          description:
            'The delivery queue: unfinished jobs, retry, cancel, and holds on a recipient domain or provider.',
        },
        { name: 'Templates', description: 'Versioned Handlebars templates to send by name, and their previews.' },
        { name: 'Account', description: 'Usage, quota and the audit log.' },
        { name: 'Users', description: 'Dashboard sign-in, two-factor sign-in, users and account tokens.' },
        { name: 'Sandbox', description: 'The sandbox mailbox, and test messages from a domain.' },
        { name: 'Meta', description: 'This document.' },
      ],
    },
    // Shared schemas are named by their $id in components/schemas (`Error`), not `def-0`.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    // The route's credential need becomes its security requirement; routes outside /v1 are hidden.
    // A body the route reads itself as a stream (config.documentedBody) is documented here only:
    // as a route schema, Fastify would validate the stream object against it.
    transform: ({ schema, url, route }) => {
      const config = route.config as { need?: Need; documentedBody?: object } | undefined;
      const need = config?.need;
      const hide = !url.startsWith('/v1/');
      const out = { ...(schema ?? {}), hide } as Record<string, unknown>;
      if (need !== undefined) out.security = SECURITY[need.scope];
      // Every request can be refused before its route runs (408, 431): each documented operation
      // says so, so a generated client knows those answers too.
      const response = out.response as Record<string, unknown> | undefined;
      if (response !== undefined) out.response = { ...transportErrorResponses(), ...response };
      if (config?.documentedBody !== undefined) out.body = config.documentedBody;
      return { schema: out, url };
    },
  });
}

/**
 * An Ajv for request validation: formats (date-time, email, uri) on, no type coercion in bodies
 * (a JSON body says what it means), coercion in query strings and paths (they are all strings on
 * the wire), defaults filled in. Unknown body fields are refused by each schema's
 * `additionalProperties: false`, never silently dropped.
 */
export function requestAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: false,
    coerceTypes: coerce ? 'array' : false,
    useDefaults: true,
    removeAdditional: false,
    strict: false,
  });
  addFormats(ajv);
  ajv.addSchema(ErrorBody);
  return ajv;
}
