import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { createDomainApiKey, revokeDomainApiKey, showDomainApiKey } from '../../credentials/domain-api-key.js';
import { createSmtpCredential, listSmtpCredentials, revokeSmtpCredential } from '../../credentials/smtp-credentials.js';
import { findAccountDomain } from '../../domains/find-account-domain.js';
import { callerAccountId, callerActor, type Caller } from '../authorize.js';
import { DomainParams, errorResponses, NoContent } from '../schemas/common.js';
import {
  ApiKeyInfo,
  CreatedApiKey,
  CreatedSmtpCredential,
  SmtpCredentialList,
  SmtpCredentialParams,
} from '../schemas/credentials.js';

const TAGS = ['Credentials'];

/**
 * A domain's API key (one at a time: creating replaces it at once, docs/api.md, Authentication)
 * and its SMTP relay logins (several, independent of the key). Secrets are shown once, in the
 * answer that makes them; reads show prefixes and usernames only, so a viewer token never sees one.
 * The same feature functions serve `posthorn key …` and `posthorn smtp-credential …`.
 */
export function credentialRoutes(deps: Deps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const caller = (req: { caller: Caller | null }): Caller => req.caller as Caller;
    const find = (req: { caller: Caller | null }, name: string) =>
      findAccountDomain(deps, callerAccountId(caller(req)), name);

    app.post(
      '/v1/domains/:domain/api-key',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Create or replace the API key',
          description:
            "Issues the domain's API key, shown only in this answer. Any earlier key of the domain gets 401 from this moment, with no overlap. The domain must be verified (or `warning`): otherwise 403 `domain_unverified`.",
          operationId: 'createApiKey',
          params: DomainParams,
          response: {
            201: CreatedApiKey,
            ...errorResponses('invalid_request', 'forbidden', 'domain_unverified', 'not_found'),
          },
        },
      },
      async (req, reply) => {
        const made = await createDomainApiKey(deps, await find(req, req.params.domain), callerActor(caller(req)));
        return reply.code(201).send({ key: made.key, prefix: made.prefix, created_at: made.created_at });
      },
    );

    app.get(
      '/v1/domains/:domain/api-key',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: TAGS,
          summary: 'Show the API key',
          description: "The active key's prefix and dates; the key itself cannot be read back. 404 when there is none.",
          operationId: 'getApiKey',
          params: DomainParams,
          response: { 200: ApiKeyInfo, ...errorResponses('invalid_request', 'forbidden', 'not_found') },
        },
      },
      async (req) => showDomainApiKey(deps, await find(req, req.params.domain)),
    );

    app.delete(
      '/v1/domains/:domain/api-key',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Revoke the API key',
          description:
            'The key gets 401 from this moment; the domain has no key until one is created. SMTP logins are untouched.',
          operationId: 'revokeApiKey',
          params: DomainParams,
          response: { 204: NoContent, ...errorResponses('invalid_request', 'forbidden', 'not_found') },
        },
      },
      async (req, reply) => {
        await revokeDomainApiKey(deps, await find(req, req.params.domain), callerActor(caller(req)));
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/v1/domains/:domain/smtp-credentials',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: TAGS,
          summary: 'List SMTP logins',
          description: "The domain's active SMTP relay logins, oldest first: usernames and dates, never passwords.",
          operationId: 'listSmtpCredentials',
          params: DomainParams,
          response: { 200: SmtpCredentialList, ...errorResponses('invalid_request', 'forbidden', 'not_found') },
        },
      },
      async (req) => {
        const { credentials } = await listSmtpCredentials(deps, await find(req, req.params.domain));
        return {
          credentials: credentials
            .filter((c) => c.revoked_at === null)
            .map((c) => ({ username: c.username, created_at: c.created_at, last_used_at: c.last_used_at })),
        };
      },
    );

    app.post(
      '/v1/domains/:domain/smtp-credentials',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Create an SMTP login',
          description:
            'A new relay login for the domain, its password shown only in this answer. Connect to `host`:`port` with STARTTLS and AUTH PLAIN or LOGIN. The API key and other logins are untouched.',
          operationId: 'createSmtpCredential',
          params: DomainParams,
          response: { 201: CreatedSmtpCredential, ...errorResponses('invalid_request', 'forbidden', 'not_found') },
        },
      },
      async (req, reply) => {
        const made = await createSmtpCredential(deps, await find(req, req.params.domain), {
          actor: callerActor(caller(req)),
        });
        return reply.code(201).send({
          username: made.username,
          password: made.password,
          host: deps.config.hostname,
          port: deps.config.smtpPort,
        });
      },
    );

    app.delete(
      '/v1/domains/:domain/smtp-credentials/:username',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Revoke an SMTP login',
          description:
            "That login's next AUTH is refused, and a session it opened is refused at its next message. The API key and the domain's other logins are untouched. A login already revoked is 409 `conflict`.",
          operationId: 'revokeSmtpCredential',
          params: SmtpCredentialParams,
          response: {
            204: NoContent,
            ...errorResponses('invalid_request', 'forbidden', 'not_found', 'conflict'),
          },
        },
      },
      async (req, reply) => {
        const domain = await find(req, req.params.domain);
        await revokeSmtpCredential(deps, req.params.username, { domain, actor: callerActor(caller(req)) });
        return reply.code(204).send(null);
      },
    );
  };
}
