import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { findAccountDomain } from '../../domains/find-account-domain.js';
import { listAccountNotices } from '../../notices/list-notices.js';
import { callerAccountId, type Caller } from '../authorize.js';
import { errorResponses } from '../schemas/common.js';
import { NoticeList, NoticesQuery } from '../schemas/notices.js';

/**
 * `GET /v1/notices`: the account's newest notices (docs/management.md, Notices), the listing
 * `posthorn notice list` prints, for the dashboard's Notices screen.
 */
export function noticeRoutes(deps: Deps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/notices',
      {
        // A read: viewers may call it too.
        config: { need: { scope: 'manage' } },
        schema: {
          tags: ['Account'],
          summary: 'Notices',
          description:
            'The account’s newest notices (at most 100), newest first: domain warnings, complaint-rate warnings, webhooks disabled after failing. They also go to the domain’s webhook, except `webhook.disabled`, which could not reach it. `domain` limits the list to one domain of the account (404 naming `domain` for an unknown one).',
          operationId: 'listNotices',
          querystring: NoticesQuery,
          response: { 200: NoticeList, ...errorResponses('invalid_request', 'not_found', 'forbidden') },
        },
      },
      async (req) => {
        const accountId = callerAccountId(req.caller as Caller);
        let domain: string | undefined;
        if (req.query.domain !== undefined) domain = (await findAccountDomain(deps, accountId, req.query.domain)).name;
        return { notices: await listAccountNotices(deps, accountId, domain) };
      },
    );
  };
}
