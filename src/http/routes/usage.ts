import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { monthOf, monthUsage } from '../../accounts/month-usage.js';
import { callerAccountId, type Caller } from '../authorize.js';
import { errorResponses } from '../schemas/common.js';
import { Usage, UsageQuery } from '../schemas/usage.js';

/** `GET /v1/usage`: the account's month against its quota, per day (docs/api.md, `GET /v1/usage`). */
export function usageRoutes(deps: Deps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/usage',
      {
        // A read: viewers may call it too.
        config: { need: { scope: 'manage' } },
        schema: {
          tags: ['Account'],
          summary: 'Usage of a month',
          description:
            'The account’s accepted recipients in a calendar month (UTC) against its monthly quota, what happened each day (accepted, delivered, failed, complained, opened, clicked), and the rolling 30-day complaint rate.',
          operationId: 'getUsage',
          querystring: UsageQuery,
          response: { 200: Usage, ...errorResponses('invalid_request', 'forbidden') },
        },
      },
      async (req) => {
        const accountId = callerAccountId(req.caller as Caller);
        return monthUsage(deps, accountId, req.query.month ?? monthOf(deps.clock.now()));
      },
    );
  };
}
