import type { Readable } from 'node:stream';
import { errorCodes, type FastifyRequest } from 'fastify';

/**
 * The app-wide body parser (build-app.ts): the request body as one Buffer, as Fastify's own
 * `parseAs: 'buffer'` gives it, but without holding it twice. Fastify keeps every chunk until the
 * end and then copies them all into one Buffer, so a 9 MiB body costs 18 MiB at its end, and the
 * thousands of small chunks freed afterwards fragment the C heap (docs/security.md, Memory).
 * With a Content-Length, the body is copied into one Buffer of that size as it arrives and each
 * chunk is garbage at once; that Buffer owns its whole ArrayBuffer, so the send pipeline can move
 * it to a worker thread without a copy (src/send/offload.ts). A chunked body, whose length is not
 * known in advance, is gathered as Fastify does.
 *
 * The answers are Fastify's: 413 over the route's bodyLimit, 400 when the bytes that came do not
 * match the Content-Length, and a stream error (the body guard's 408 and 503, an aborted upload)
 * passed on with its status.
 */
export function readBody(
  req: FastifyRequest,
  payload: Readable,
  done: (err: Error | null, body?: Buffer) => void,
): void {
  const limit = req.routeOptions.bodyLimit;
  const declared = Number(req.headers['content-length']);
  const known = Number.isSafeInteger(declared) && declared >= 0;
  if (known && declared > limit) {
    done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    return;
  }
  const whole = known ? Buffer.allocUnsafeSlow(declared) : null;
  const chunks: Buffer[] = [];
  let received = 0;

  const stop = (err: Error | null, body?: Buffer) => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onError);
    done(err, body);
  };
  const onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (received + bytes.length > limit) {
      stop(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    if (whole !== null) {
      if (received + bytes.length > whole.length) {
        stop(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
        return;
      }
      bytes.copy(whole, received);
    } else {
      chunks.push(bytes);
    }
    received += bytes.length;
  };
  const onEnd = () => {
    if (whole !== null && received !== whole.length) {
      stop(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      return;
    }
    stop(null, whole ?? Buffer.concat(chunks, received));
  };
  const onError = (err: Error & { statusCode?: number }) => {
    if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
    stop(err);
  };
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onError);
  payload.resume();
}
