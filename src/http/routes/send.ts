import type { FastifyPluginAsync } from 'fastify';
import type { SubmitPipeline } from '../../send/submit.js';
import { sendError } from '../send-error.js';

/** POST /v1/send: a thin translation of the submit pipeline's result into HTTP (DESIGN.md "One pipeline"). */
export function sendRoute(pipeline: SubmitPipeline): FastifyPluginAsync {
  return async (app) => {
    app.post('/v1/send', async (req, reply) => {
      const idem = req.headers['idempotency-key'];
      const result = await pipeline.submit({
        source: 'http',
        authorization: req.headers.authorization,
        contentType: req.headers['content-type'],
        body: Buffer.isBuffer(req.body) ? req.body : undefined,
        idempotencyKey: Array.isArray(idem) ? idem.join(', ') : idem,
      });
      if (result.replayed) reply.header('Idempotent-Replayed', 'true');
      if (result.kind === 'accepted') return reply.code(202).send(result.body);
      return sendError(reply, result.error);
    });
  };
}
