import type { FastifyPluginAsync, onRequestHookHandler } from 'fastify';
import type { AuthContext } from '../../credentials/authenticate.js';
import type { Intake } from '../../send/intake.js';
import type { SubmitPipeline } from '../../send/submit.js';
import { sendError } from '../send-error.js';
import { SEND_BODY_LIMIT } from '../../core/limits.js';
import { errorResponses } from '../schemas/common.js';
import { SendAccepted, SendBody, SendHeaders } from '../schemas/send.js';

/**
 * A `POST /v1/send` request as the submit pipeline's intake value: the key (already resolved by
 * `authorize` when it ran), the raw JSON body the validate step checks, and the Idempotency-Key.
 */
export function httpIntake(input: {
  authorization: string | undefined;
  auth?: AuthContext | null;
  contentType: string | undefined;
  body: Buffer | undefined;
  idempotencyKey: string | undefined;
}): Intake {
  return {
    source: 'http',
    size: input.body?.length ?? 0,
    credential: {
      kind: 'api-key',
      authorization: input.authorization,
      ...(input.auth ? { resolved: input.auth } : {}),
    },
    request: {
      kind: 'json',
      contentType: input.contentType,
      body: input.body,
      idempotencyKey: input.idempotencyKey,
    },
  };
}

/**
 * POST /v1/send: a thin translation of the submit pipeline's result into HTTP. The key is checked
 * by `authorize` (authorize.ts) from the headers, before the body is read; the pipeline gets the result.
 */
export function sendRoute(pipeline: SubmitPipeline): FastifyPluginAsync {
  return async (app) => {
    // After the key, before the body: a large body that the pipeline would refuse for want of room
    // (503 server_busy) is refused from its Content-Length, never read.
    const roomForBody: onRequestHookHandler = async (req, reply) => {
      const declared = Number(req.headers['content-length']);
      const refusal = Number.isFinite(declared) && declared > 0 ? pipeline.refusalForSize(declared) : null;
      if (refusal !== null) return sendError(reply, refusal);
    };
    app.post(
      '/v1/send',
      {
        // The pipeline checks the key again (send/submit.ts, `authenticate` and `rateLimit`).
        config: { need: { scope: 'send' }, rawBody: true, keyCheckedAgain: true },
        onRequest: [roomForBody],
        // Attachments arrive base64, a third larger than the 10 MiB of content they may add up to.
        bodyLimit: SEND_BODY_LIMIT,
        schema: {
          tags: ['Sending'],
          summary: 'Send a message',
          description:
            'Queues one message to 1–50 recipients (to, cc and bcc together), with optional attachments and inline images, and answers 202 once it is committed. Checks run in a fixed order; the first that fails decides the answer (docs/api.md, Order of the checks). Over the SMTP relay the same rules answer with SMTP replies.',
          operationId: 'send',
          headers: SendHeaders,
          body: SendBody,
          response: {
            202: SendAccepted,
            ...errorResponses(
              'invalid_request',
              'forbidden',
              'domain_unverified',
              'request_timeout',
              'idempotency_conflict',
              'payload_too_large',
              'recipient_suppressed',
              'idempotency_key_reused',
              'rate_limited',
              'quota_exceeded',
              'internal_error',
              'server_busy',
            ),
          },
        },
        // The body is the raw Buffer the submit pipeline validates itself (src/send/validate-send-json.ts:
        // after authentication, with the messages and fields the API documents); the schema above
        // describes it for the OpenAPI document and is checked against that validator by
        // test/unit/send/send-schema.test.ts. Fastify is not to validate anything here.
        validatorCompiler: () => () => true,
      },
      async (req, reply) => {
        const idem = req.headers['idempotency-key'];
        const result = await pipeline.submit(
          httpIntake({
            authorization: req.headers.authorization,
            auth: req.auth,
            contentType: req.headers['content-type'],
            body: Buffer.isBuffer(req.body) ? req.body : undefined,
            idempotencyKey: Array.isArray(idem) ? idem.join(', ') : idem,
          }),
        );
        if (result.replayed) reply.header('Idempotent-Replayed', 'true');
        if (result.kind === 'accepted') return reply.code(202).send(result.body);
        return sendError(reply, result.error);
      },
    );
  };
}
