import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import type { ApiError } from '../../core/api-errors.js';
import { sharedOffloadPool, OffloadBusyError } from '../../offload/offload-pool.js';
import { apiError } from '../../core/api-errors.js';
import {
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  listTemplateVersions,
  updateTemplate,
} from '../../templates/template-store.js';
import { previewTemplate } from '../../templates/preview-template.js';
import { callerAccountId, callerActor, type Caller } from '../authorize.js';
import { errorResponses, NoContent } from '../schemas/common.js';
import {
  CreateTemplateBody,
  RenderedTemplate,
  RenderTemplateBody,
  TemplateList,
  TemplateParams,
  TemplateVersionList,
  TemplateVersionQuery,
  TemplateVersionView,
  UpdateTemplateBody,
} from '../schemas/templates.js';

const TAGS = ['Templates'];

/** An ApiError for the error handler (build-app.ts) to send as it is. */
const refusal = (error: ApiError) => Object.assign(new Error(error.message), { apiError: error });

/**
 * The template routes (docs/api.md, Templates): an account token reads (a viewer too) and renders
 * previews; an admin creates, versions and deletes. Each calls the feature function the CLI calls
 * (templates/template-store.ts), which records the audit entry.
 */
export function templateRoutes(deps: Deps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const pool = sharedOffloadPool(deps.config.offloadThreads);
    const account = (caller: Caller | null) => callerAccountId(caller as Caller);

    app.get(
      '/v1/templates',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: TAGS,
          summary: 'List templates',
          description: "The account's templates by name, each with its newest version.",
          operationId: 'listTemplates',
          response: { 200: TemplateList, ...errorResponses('forbidden') },
        },
      },
      async (req) => ({ templates: await listTemplates(deps, account(req.caller)) }),
    );

    app.post(
      '/v1/templates',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Create a template',
          description:
            'Makes a template with its version 1. Each part is checked now: a syntax error, or anything outside what templates may use (partials, unknown helpers), is 400 with `field` naming the part (`subject`, `html`, `text`) and a message with its line and column.',
          operationId: 'createTemplate',
          body: CreateTemplateBody,
          response: { 201: TemplateVersionView, ...errorResponses('invalid_request', 'forbidden', 'conflict') },
        },
      },
      async (req, reply) => {
        const caller = req.caller as Caller;
        const { name, ...input } = req.body;
        return reply.code(201).send(await createTemplate(deps, account(caller), name, input, callerActor(caller)));
      },
    );

    app.get(
      '/v1/templates/:name',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: TAGS,
          summary: 'Show a template',
          description: 'One version of a template (the newest unless `version` is given), with the variables it uses.',
          operationId: 'getTemplate',
          params: TemplateParams,
          querystring: TemplateVersionQuery,
          response: { 200: TemplateVersionView, ...errorResponses('invalid_request', 'forbidden', 'not_found') },
        },
      },
      async (req) => getTemplate(deps, account(req.caller), req.params.name, req.query.version),
    );

    app.put(
      '/v1/templates/:name',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Add a version',
          description:
            'Makes the next version of the template from the whole body; earlier versions never change, and a send may still name them.',
          operationId: 'updateTemplate',
          params: TemplateParams,
          body: UpdateTemplateBody,
          response: { 200: TemplateVersionView, ...errorResponses('invalid_request', 'forbidden', 'not_found') },
        },
      },
      async (req) => {
        const caller = req.caller as Caller;
        return updateTemplate(deps, account(caller), req.params.name, req.body, callerActor(caller));
      },
    );

    app.get(
      '/v1/templates/:name/versions',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: TAGS,
          summary: "List a template's versions",
          description: 'Every version of the template, newest first.',
          operationId: 'listTemplateVersions',
          params: TemplateParams,
          response: { 200: TemplateVersionList, ...errorResponses('invalid_request', 'forbidden', 'not_found') },
        },
      },
      async (req) => ({ versions: await listTemplateVersions(deps, account(req.caller), req.params.name) }),
    );

    app.post(
      '/v1/templates/:name/render',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: TAGS,
          summary: 'Preview a template',
          description:
            'Renders the template (the newest version unless `version` is given) with `variables` exactly as a send would, and sends nothing. A variable used outside an `#if`, `#unless` or `#each` and not given is 400 naming `variables.<path>`; a render over its budget is 400, one over 10 MiB is 413.',
          operationId: 'renderTemplate',
          params: TemplateParams,
          body: RenderTemplateBody,
          response: {
            200: RenderedTemplate,
            ...errorResponses('invalid_request', 'forbidden', 'not_found', 'payload_too_large', 'server_busy'),
          },
        },
      },
      async (req) => {
        let out;
        try {
          out = await previewTemplate(deps, pool, account(req.caller), {
            name: req.params.name,
            version: req.body?.version ?? null,
            variables: req.body?.variables,
          });
        } catch (err) {
          if (err instanceof OffloadBusyError)
            throw refusal(
              apiError('server_busy', 'Too many large renders are in progress; retry shortly.', undefined, 2),
            );
          throw err;
        }
        if ('type' in out) throw refusal(out);
        return out;
      },
    );

    app.delete(
      '/v1/templates/:name',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Delete a template',
          description:
            'Deletes the template and all its versions; a later send naming it is 400 `template.name`. Messages already sent keep the name and version they were rendered from.',
          operationId: 'deleteTemplate',
          params: TemplateParams,
          response: { 204: NoContent, ...errorResponses('invalid_request', 'forbidden', 'not_found') },
        },
      },
      async (req, reply) => {
        const caller = req.caller as Caller;
        await deleteTemplate(deps, account(caller), req.params.name, callerActor(caller));
        return reply.code(204).send(null);
      },
    );
  };
}
