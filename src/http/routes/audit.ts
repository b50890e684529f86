import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { listAudit } from '../../audit/audit-log.js';
import { callerAccountId, type Caller } from '../authorize.js';
import { errorResponses } from '../schemas/common.js';
import { AuditPage, AuditQuery } from '../schemas/audit.js';

/** `GET /v1/audit`: the account's management changes, newest first (docs/management.md, Audit log). */
export function auditRoutes(deps: Deps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/audit',
      {
        config: { need: { scope: 'manage' } },
        schema: {
          tags: ['Account'],
          summary: 'The audit log',
          description:
            'Every management change of the account, newest first: who, what, to what, from where. Secrets never appear.',
          operationId: 'listAudit',
          querystring: AuditQuery,
          response: { 200: AuditPage, ...errorResponses('invalid_request', 'forbidden') },
        },
      },
      async (req) => {
        const caller = req.caller as Caller;
        return listAudit(deps, callerAccountId(caller), {
          limit: req.query.limit ?? 100,
          ...(req.query.cursor !== undefined ? { cursor: req.query.cursor } : {}),
        });
      },
    );
  };
}
