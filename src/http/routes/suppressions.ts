import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { apiError } from '../../core/api-errors.js';
import { addSuppression, listSuppressions, removeSuppression } from '../../suppression/manage-suppressions.js';
import { importSuppressions, ImportInterrupted } from '../../suppression/import-suppressions.js';
import { EXPORT_MEDIA_TYPES, exportSuppressions, type ExportFormat } from '../../suppression/export-suppressions.js';
import type { ImportFormat } from '../../suppression/read-import.js';
import { callerAccountId, callerActor, type Caller } from '../authorize.js';
import { sendError } from '../send-error.js';
import { errorResponses, NoContent } from '../schemas/common.js';
import {
  AddSuppressionBody,
  ExportResponse,
  ImportRequestBody,
  ImportResult,
  SuppressionEntry,
  SuppressionPage,
  SuppressionParams,
  SuppressionQuery,
} from '../schemas/suppressions.js';

/**
 * The largest import body: about five million rows as the export writes them. The upload must
 * also arrive within POSTHORN_HTTP_BODY_TIMEOUT; `posthorn suppression import` has no limit.
 */
export const IMPORT_BODY_LIMIT = 256 * 1024 * 1024;

const TAGS = ['Suppressions'];

/**
 * The account's suppression list (docs/api.md, Suppressions): list and search, add, remove, and
 * streamed export and import. Each change goes through the same functions as `posthorn
 * suppression …`, which record it in the audit log.
 */
export function suppressionRoutes(deps: Deps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/suppressions',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: TAGS,
          summary: 'List and search the suppression list',
          description:
            'In address order, a page at a time. `address` matches any part of the address, case-insensitively; `reason` one reason.',
          operationId: 'listSuppressions',
          querystring: SuppressionQuery,
          response: { 200: SuppressionPage, ...errorResponses('invalid_request', 'forbidden') },
        },
      },
      async (req) => {
        const caller = req.caller as Caller;
        return listSuppressions(deps, callerAccountId(caller), {
          limit: req.query.limit ?? 100,
          ...(req.query.address !== undefined ? { address: req.query.address } : {}),
          ...(req.query.reason !== undefined ? { reason: req.query.reason } : {}),
          ...(req.query.cursor !== undefined ? { cursor: req.query.cursor } : {}),
        });
      },
    );

    app.post(
      '/v1/suppressions',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Suppress an address',
          description:
            'Adds the address (reason `manual` unless given): 201 with the new entry. An address already on the list keeps its entry, which comes back with 200.',
          operationId: 'addSuppression',
          body: AddSuppressionBody,
          response: {
            201: SuppressionEntry,
            200: SuppressionEntry,
            ...errorResponses('invalid_request', 'forbidden'),
          },
        },
      },
      async (req, reply) => {
        const caller = req.caller as Caller;
        const { entry, created } = await addSuppression(
          deps,
          callerAccountId(caller),
          { address: req.body.address, ...(req.body.reason !== undefined ? { reason: req.body.reason } : {}) },
          callerActor(caller),
        );
        return reply.code(created ? 201 : 200).send(entry);
      },
    );

    app.delete(
      '/v1/suppressions/:address',
      {
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: TAGS,
          summary: 'Remove an address from the suppression list',
          description: 'Mail to the address is accepted again from now on. 404 when it is not on the list.',
          operationId: 'removeSuppression',
          params: SuppressionParams,
          response: { 204: NoContent, ...errorResponses('invalid_request', 'forbidden', 'not_found') },
        },
      },
      async (req, reply) => {
        const caller = req.caller as Caller;
        await removeSuppression(deps, callerAccountId(caller), req.params.address, callerActor(caller));
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/v1/suppressions/export',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: TAGS,
          summary: 'Export the suppression list',
          description:
            'The whole list, streamed: CSV by default, NDJSON with `Accept: application/x-ndjson`. Importing it into an empty account gives back the same export.',
          operationId: 'exportSuppressions',
          response: { 200: ExportResponse, ...errorResponses('forbidden') },
        },
      },
      async (req, reply) => {
        const caller = req.caller as Caller;
        const format = exportFormat(req.headers.accept);
        return reply
          .header('content-type', EXPORT_MEDIA_TYPES[format])
          .header('content-disposition', `attachment; filename="suppressions.${format === 'csv' ? 'csv' : 'ndjson'}"`)
          .send(exportSuppressions(deps, callerAccountId(caller), format));
      },
    );

    // The import reads its body as a stream: in a plugin of its own, so that its pass-through
    // content-type parser (Fastify would otherwise buffer the body) applies to this route only.
    await app.register(async (child) => {
      child.removeAllContentTypeParsers();
      child.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
      child.post(
        '/v1/suppressions/import',
        {
          bodyLimit: IMPORT_BODY_LIMIT,
          config: {
            need: { scope: 'manage', write: true },
            rawBody: true,
            streamedBody: true,
            documentedBody: ImportRequestBody,
          },
          // After authorization (a root hook, so it runs first): a wrong Content-Type is refused
          // before a byte of the body is read.
          onRequest: checkImportType,
          schema: {
            tags: TAGS,
            summary: 'Import addresses into the suppression list',
            description:
              'Streams a CSV (header line required) or NDJSON body into the list, in batches. Valid rows are imported even when others are invalid; an address already listed keeps its entry; the same file imported again imports 0. The first 100 invalid rows are listed with their line numbers. If the upload stops part-way (cut off, too slow, over 256 MiB), the rows before are kept and the error says how many: send the file again.',
            operationId: 'importSuppressions',
            response: {
              200: ImportResult,
              ...errorResponses('invalid_request', 'forbidden', 'payload_too_large', 'request_timeout', 'server_busy'),
            },
          },
        },
        async (req) => {
          const caller = req.caller as Caller;
          try {
            return await importSuppressions(
              deps,
              callerAccountId(caller),
              { format: importFormat(req.headers['content-type'])!, body: req.body as Readable },
              callerActor(caller),
            );
          } catch (err) {
            if (err instanceof ImportInterrupted) throw withImportedCount(err);
            throw err;
          }
        },
      );
    });
  };
}

const MEDIA_TYPE = /^\s*([^;\s]+)\s*(?:;(.*))?$/;

/** The import format a Content-Type names, or null; a charset other than UTF-8 is refused too. */
function importFormat(contentType: string | undefined): ImportFormat | null {
  const m = MEDIA_TYPE.exec(contentType ?? '');
  if (!m) return null;
  const type = m[1]!.toLowerCase();
  const charset = /(?:^|;)\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(m[2] ?? '')?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return null;
  return type === 'text/csv' ? 'csv' : type === 'application/x-ndjson' ? 'ndjson' : null;
}

async function checkImportType(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    await sendError(
      reply,
      apiError(
        'invalid_request',
        `Content-Encoding ${JSON.stringify(encoding)} is not supported; send the file uncompressed`,
        'Content-Encoding',
      ),
    );
    return;
  }
  if (importFormat(req.headers['content-type']) !== null) return;
  await sendError(
    reply,
    apiError(
      'invalid_request',
      `Content-Type must be text/csv or application/x-ndjson (UTF-8), not ${JSON.stringify(req.headers['content-type'] ?? '')}`,
      'Content-Type',
    ),
  );
}

/**
 * The export format an Accept header asks for (RFC 9110 §12.5.1): NDJSON when
 * `application/x-ndjson` has a higher weight than `text/csv`, CSV otherwise, including when the
 * header names neither (the RFC lets a server send its default rather than 406). Hand-written: it
 * is a choice between two types, and Fastify brings no negotiation library.
 */
function exportFormat(accept: string | undefined): ExportFormat {
  let best: ExportFormat = 'csv';
  let bestQ = 0;
  for (const part of (accept ?? '').split(',')) {
    const [type, ...params] = part.split(';');
    const q = params.map((p) => p.trim()).find((p) => /^q=/i.test(p));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    const media = type!.trim().toLowerCase();
    const format = media === 'application/x-ndjson' ? 'ndjson' : media === 'text/csv' ? 'csv' : null;
    if (format !== null && weight > bestQ) {
      best = format;
      bestQ = weight;
    }
  }
  return best;
}

/** The error that stopped an import, saying how many rows were imported before it. */
function withImportedCount(err: ImportInterrupted): unknown {
  const cause = err.cause as Error & { apiError?: { message: string } };
  const note = `; ${err.result.imported} rows were imported before the import stopped (they stay: send the file again, and rows already there count as already_suppressed)`;
  if (cause instanceof Error) {
    if (cause.apiError !== undefined) cause.apiError = { ...cause.apiError, message: cause.apiError.message + note };
    else cause.message += note;
    return cause;
  }
  return err;
}
