import type { FastifyPluginAsync, onRequestHookHandler } from 'fastify';
import type { SubmitPipeline } from '../../send/submit.js';
import { sendError } from '../send-error.js';

/**
 * POST /v1/send: a thin translation of the submit pipeline's result into HTTP. The key is checked
 * by `requireKey` from the headers, before the body is read; the pipeline gets the result.
 */
export function sendRoute(pipeline: SubmitPipeline, requireKey: onRequestHookHandler): FastifyPluginAsync {
  return async (app) => {
    // After the key, before the body: a large body that the pipeline would refuse for want of room
    // (503 server_busy) is refused from its Content-Length, never read.
    const roomForBody: onRequestHookHandler = async (req, reply) => {
      const declared = Number(req.headers['content-length']);
      const refusal = Number.isFinite(declared) && declared > 0 ? pipeline.refusalForSize(declared) : null;
      if (refusal !== null) return sendError(reply, refusal);
    };
    app.post('/v1/send', { onRequest: [requireKey, roomForBody] }, async (req, reply) => {
      const idem = req.headers['idempotency-key'];
      const result = await pipeline.submit({
        source: 'http',
        authorization: req.headers.authorization,
        ...(req.auth ? { auth: req.auth } : {}),
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
