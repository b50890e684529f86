import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../deps.js';
import { listProviders } from '../../delivery/provider-status.js';
import { errorResponses } from '../schemas/common.js';
import { ProviderList } from '../schemas/providers.js';

/**
 * `GET /v1/providers`: the mailbox providers with their limits and automatic shaping state
 * (docs/delivery.md), what `posthorn provider list` prints. Admins only: it is the state of
 * the whole installation, shared by every account, not of the caller's account.
 */
export function providerRoutes(deps: Deps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/v1/providers',
      {
        // `write` is the admin-role requirement (http/authorize.ts); this route changes nothing.
        config: { need: { scope: 'manage', write: true } },
        schema: {
          tags: ['Account'],
          summary: 'Mailbox providers and delivery shaping',
          description:
            'Every mailbox provider MX hosts roll up into (`other` last): its limits, the pace it is sent to now after throttling replies, and the nodes that suspended it after a reputation block. Admins only: the state is the installation’s, not the account’s.',
          operationId: 'listProviders',
          response: { 200: ProviderList, ...errorResponses('forbidden') },
        },
      },
      async () => ({ providers: await listProviders(deps) }),
    );
  };
}
