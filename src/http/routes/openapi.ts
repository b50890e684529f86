import type { FastifyPluginAsync } from 'fastify';

/** `GET /v1/openapi.json`: the OpenAPI 3.1 document of the API (openapi.ts), no credential needed. */
export function openApiRoute(): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/v1/openapi.json',
      {
        config: { need: { scope: 'public' } },
        schema: {
          tags: ['Meta'],
          summary: 'This OpenAPI document',
          operationId: 'getOpenApi',
          response: { 200: { type: 'object', additionalProperties: true, description: 'The OpenAPI 3.1 document.' } },
        },
      },
      async (_req, reply) => reply.send(app.swagger()),
    );
  };
}
