import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { addDomain } from '../../domains/add-domain.js';
import { verifyDomainNow } from '../../domains/check-domain.js';
import { deleteDomain } from '../../domains/delete-domain.js';
import { accountMonth, domainResource } from '../../domains/domain-resource.js';
import { findAccountDomain } from '../../domains/find-account-domain.js';
import { listAccountDomains } from '../../domains/list-domains.js';
import { updateDomain } from '../../domains/update-domain.js';
import { rotateDkim } from '../../domains/dkim-rotation.js';
import { callerAccountId, callerActor, type Caller } from '../authorize.js';
import { DomainParams, errorResponses, NoContent } from '../schemas/common.js';
import { AddDomainBody, DomainList, UpdateDomainBody } from '../schemas/domains.js';

const TAGS = ['Domains'];

/** A response that is the shared Domain component, with what it is in this answer. */
const domainAnswer = (description: string) => Type.Ref('Domain', { description });

/**
 * The account's sending domains (docs/api.md, Management API): list, add, show with each record's
 * status, verify now, change settings, delete. Each change is one feature function (src/domains/),
 * the same the `posthorn domain …` commands call, and is audited with the caller as actor.
 */
export function domainsRoutes(deps: Deps): FastifyPluginAsyncTypebox {
  return async (app) => {
    // The Domain component (schemas/domains.ts) is added at the root by build-app.ts.
    const caller = (req: { caller: Caller | null }): Caller => req.caller as Caller;
    const find = (req: { caller: Caller | null }, name: string) =>
      findAccountDomain(deps, callerAccountId(caller(req)), name);

    app.get(
      '/v1/domains',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: TAGS,
          summary: 'List domains',
          description: "The account's sending domains, by name, each as `GET /v1/domains/{domain}` shows it.",
          operationId: 'listDomains',
          response: { 200: DomainList, ...errorResponses('forbidden') },
        },
      },
      async (req) => {
        const accountId = callerAccountId(caller(req));
        const rows = await listAccountDomains(deps, accountId);
        const month = await accountMonth(deps, accountId, deps.clock.now());
        const domains = [];
        for (const row of rows) domains.push(await domainResource(deps, row, month));
        return { domains };
      },
    );

    app.post(
      '/v1/domains',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Add a domain',
          description:
            'Adds a sending domain with a new 2048-bit DKIM key. It starts `pending`: publish the four `records`, then `POST /v1/domains/{domain}/verify`. A name held by a live domain of any account is 409 `conflict`.',
          operationId: 'addDomain',
          body: AddDomainBody,
          response: {
            201: domainAnswer('The new domain, `pending`, with the records to publish'),
            ...errorResponses('invalid_request', 'forbidden', 'conflict'),
          },
        },
      },
      async (req, reply) => {
        const c = caller(req);
        const row = await addDomain(deps, { id: callerAccountId(c) }, req.body.name, { actor: callerActor(c) });
        return reply.code(201).send(await domainResource(deps, row));
      },
    );

    app.get(
      '/v1/domains/:domain',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: TAGS,
          summary: 'Show a domain',
          description:
            "The domain's status, its DNS records with what the last check found, its tracking defaults, Ed25519 signing, complaint rate, and the account's month against its quota. Nothing is looked up in DNS: `POST …/verify` checks now.",
          operationId: 'getDomain',
          params: DomainParams,
          response: {
            200: domainAnswer('The domain'),
            ...errorResponses('invalid_request', 'forbidden', 'not_found'),
          },
        },
      },
      async (req) => domainResource(deps, await find(req, req.params.domain)),
    );

    app.post(
      '/v1/domains/:domain/verify',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Verify a domain now',
          description:
            "Checks the domain's four DNS records now and returns the domain with the result: `verified` once all four match. A resolver that does not answer changes nothing (the records then show `unknown`). The sandbox domain needs no DNS and is returned as it is.",
          operationId: 'verifyDomain',
          params: DomainParams,
          response: {
            200: domainAnswer('The domain after the check'),
            ...errorResponses('invalid_request', 'forbidden', 'not_found'),
          },
        },
      },
      async (req) => {
        const domain = await find(req, req.params.domain);
        const outcome = await verifyDomainNow(deps, domain, callerActor(caller(req)));
        return domainResource(deps, outcome?.domain ?? domain);
      },
    );

    app.patch(
      '/v1/domains/:domain',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Change domain settings',
          description:
            'Any subset of the tracking defaults, Ed25519 signing and the DKIM rotation period (`dkim.rotate_days`). Turning `ed25519` on makes a new Ed25519 key; its record appears in `records` (publish it; mail is also signed with RSA, so nothing breaks before it exists). The defaults apply to messages accepted from now on.',
          operationId: 'updateDomain',
          params: DomainParams,
          body: UpdateDomainBody,
          response: {
            200: domainAnswer('The domain with its new settings'),
            ...errorResponses('invalid_request', 'forbidden', 'not_found'),
          },
        },
      },
      async (req) => {
        const domain = await find(req, req.params.domain);
        const updated = await updateDomain(
          deps,
          domain,
          {
            ...(req.body.tracking !== undefined ? { tracking: req.body.tracking } : {}),
            ...(req.body.ed25519 !== undefined ? { ed25519: req.body.ed25519 } : {}),
            ...(req.body.dkim !== undefined ? { dkimRotateDays: req.body.dkim.rotate_days } : {}),
          },
          callerActor(caller(req)),
        );
        return domainResource(deps, updated);
      },
    );

    app.post(
      '/v1/domains/:domain/dkim/rotate',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Rotate the DKIM key',
          description:
            'Makes a new 2048-bit RSA DKIM key under a new selector, shown as `dkim.pending` and as the `dkim_pending` record: publish it beside the current one. Mail is signed with the current key until the new record is found in DNS (the re-check looks every hour, `POST …/verify` at once); then signing moves to the new key and the old selector is listed as `dkim.retired` with the date after which its record may be removed. A rotation already pending is 409 `conflict`; the sandbox domain (no DNS) is 400.',
          operationId: 'rotateDomainDkim',
          params: DomainParams,
          response: {
            200: domainAnswer('The domain with its pending DKIM record'),
            ...errorResponses('invalid_request', 'forbidden', 'not_found', 'conflict'),
          },
        },
      },
      async (req) => {
        const domain = await find(req, req.params.domain);
        const { domain: rotated } = await rotateDkim(deps, domain, callerActor(caller(req)));
        return domainResource(deps, rotated);
      },
    );

    app.delete(
      '/v1/domains/:domain',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Delete a domain',
          description:
            'Its API key, SMTP logins and webhook stop working at once (the next request is 401, the next relay AUTH refused, no more webhook posts). Mail it already accepted is still delivered, and its events stay until retention ends. The name may be added again.',
          operationId: 'deleteDomain',
          params: DomainParams,
          response: { 204: NoContent, ...errorResponses('invalid_request', 'forbidden', 'not_found') },
        },
      },
      async (req, reply) => {
        await deleteDomain(deps, await find(req, req.params.domain), callerActor(caller(req)));
        return reply.code(204).send(null);
      },
    );
  };
}
