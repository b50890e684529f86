import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route reads its body as a stream, never buffered whole (see bodyGuard). */
    streamedBody?: boolean;
  }
}

/**
 * Request-body bytes one process holds at once. A body reserves its declared Content-Length
 * before a byte of it is read (a chunked body reserves each chunk as it comes) and gives it back
 * when its response is finished or its connection is gone, whichever comes first.
 */
export interface BodyBudget {
  readonly limit: number;
  inFlight(): number;
  /** `large`: the body is (or has grown to) SMALL_BODY bytes or more, so it may not use the small bodies' share. */
  tryReserve(bytes: number, large?: boolean): boolean;
  /** Gives back what tryReserve took, with the same `large`. */
  release(bytes: number, large?: boolean): void;
}

/** A body under this many bytes is small: an ordinary API request, which large ones cannot crowd out. */
export const SMALL_BODY = 64 * 1024;

/**
 * `smallShare` bytes at the top of the budget are for small bodies only: large and slow uploads
 * together can fill no more than `limit - smallShare`, so while they hold their part, ordinary
 * requests (a receipt, a key lookup) still get in instead of a 503 (docs/security.md, Connections
 * and memory). 0 by default: one pool for every body.
 */
export function createBodyBudget(limit: number, smallShare = 0): BodyBudget {
  let used = 0;
  let usedLarge = 0;
  const largeLimit = limit - smallShare;
  return {
    limit,
    inFlight: () => used,
    tryReserve(bytes, large = bytes >= SMALL_BODY) {
      if (used + bytes > limit) return false;
      if (large && usedLarge + bytes > largeLimit) return false;
      used += bytes;
      if (large) usedLarge += bytes;
      return true;
    },
    release(bytes, large = bytes >= SMALL_BODY) {
      used -= bytes;
      if (large) usedLarge -= bytes;
    },
  };
}

/** Seconds a 503 for the budget asks the caller to wait: bodies in flight finish in about that. */
export const BUDGET_RETRY_AFTER = 2;

/**
 * What a streamed body (a route with `config.streamedBody`, e.g. the suppression import) takes
 * from the budget, whatever its length: such a route reads its body as it arrives and holds only
 * what sits in the stream buffers and its current batch, never the whole body.
 */
export const STREAMED_BODY_RESERVE = 1024 * 1024;

/** The errors the guard raises; build-app.ts turns them into API errors by `code`. */
export class BodyGuardError extends Error {
  constructor(
    readonly code: 'POSTHORN_BODY_BUDGET' | 'POSTHORN_BODY_TOO_SLOW' | 'POSTHORN_BODY_TOO_LARGE',
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export interface BodyGuardOptions {
  budget: BodyBudget;
  /** Bytes per second, averaged over each window. */
  minRate: number;
  windowMs: number;
}

/**
 * The `preParsing` hook of every route: it runs after authentication (`onRequest`) and before the
 * content-type parser buffers the body. Node's requestTimeout bounds a request's whole life; this
 * adds the two things Node has no option for, so they are written here: the global budget and a
 * minimum rate, so a client trickling a byte every few seconds is cut off within one window
 * instead of holding its share of the budget until the deadline.
 *
 * A route with `config.streamedBody` consumes its body as a stream (Fastify does not buffer it),
 * which changes two things: it reserves STREAMED_BODY_RESERVE rather than its length, as it never
 * holds more; and the guard, not Fastify's buffering parser, enforces its bodyLimit (413). The
 * rate rule is the same for every route, and judges only the client: a window in which the
 * route held the body back (its consumer busy, say writing a batch to the database, so the
 * stream's buffer was full and Node stopped reading the socket) is not counted against the sender.
 * A buffered route's body is always read as fast as it comes, so this never applies to it.
 */
export function bodyGuard(opts: BodyGuardOptions): preParsingHookHandler {
  return (req: FastifyRequest, reply: FastifyReply, payload, done) => {
    const lengthHeader = req.headers['content-length'];
    const chunked = req.headers['transfer-encoding'] !== undefined;
    const declared = lengthHeader === undefined ? null : Number(lengthHeader);
    if (!chunked && (declared === null || declared === 0)) {
      done(null, payload);
      return;
    }
    const streamed = req.routeOptions.config.streamedBody === true;
    const limit = req.routeOptions.bodyLimit;
    const tooLarge = () => new BodyGuardError('POSTHORN_BODY_TOO_LARGE', 413, `request body is over ${limit} bytes`);
    // Over the route's limit: 413 from the header alone, without reading (Fastify's buffering
    // parser answers it for other routes).
    if (declared !== null && declared > limit) {
      done(streamed ? tooLarge() : null, payload);
      return;
    }

    const busy = () =>
      new BodyGuardError(
        'POSTHORN_BODY_BUDGET',
        503,
        `the server is holding as many request bodies as it may (POSTHORN_HTTP_BODY_BUDGET); retry after ${BUDGET_RETRY_AFTER} s`,
      );
    // What this body holds of the budget, as small and as large bytes (a chunked body starts small
    // and its chunks count as large once it has grown to SMALL_BODY).
    let reserved = 0;
    let reservedLarge = 0;
    const upFront = streamed ? Math.min(declared ?? STREAMED_BODY_RESERVE, STREAMED_BODY_RESERVE) : declared;
    if (upFront !== null) {
      // A streamed body counts as large whatever its length: it may go on for long.
      const large = streamed || upFront >= SMALL_BODY;
      if (!opts.budget.tryReserve(upFront, large)) {
        done(busy(), payload);
        return;
      }
      if (large) reservedLarge = upFront;
      else reserved = upFront;
    }

    // The request passed authentication and the budget: now the body is wanted (build-app.ts).
    if (/^\s*100-continue\s*$/i.test(req.headers.expect ?? '')) reply.raw.writeContinue();

    let received = 0;
    let atWindowStart = 0;
    // Set when the route left the body unread (the stream's buffer full) during this window.
    let heldBack = false;
    const full = () => counter.readableLength >= counter.readableHighWaterMark;
    const timer = setInterval(() => {
      if (heldBack || full()) {
        atWindowStart = received;
        heldBack = full();
        return;
      }
      const remaining = declared === null ? Infinity : declared - atWindowStart;
      const needed = Math.min(remaining, Math.ceil((opts.minRate * opts.windowMs) / 1000));
      if (received - atWindowStart < needed) {
        counter.destroy(
          new BodyGuardError(
            'POSTHORN_BODY_TOO_SLOW',
            408,
            `the request body arrived at under ${opts.minRate} bytes per second (POSTHORN_HTTP_MIN_BODY_RATE); ${received} of ${declared ?? 'an unknown number of'} bytes came`,
          ),
        );
      }
      atWindowStart = received;
    }, opts.windowMs);
    timer.unref();

    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb: TransformCallback) {
        received += chunk.length;
        if (streamed && received > limit) {
          cb(tooLarge());
          return;
        }
        // A chunked body has no length to reserve up front: each chunk is reserved on arrival.
        if (declared === null && !released && !streamed) {
          const large = received >= SMALL_BODY;
          if (!opts.budget.tryReserve(chunk.length, large)) {
            cb(busy());
            return;
          }
          if (large) reservedLarge += chunk.length;
          else reserved += chunk.length;
        }
        (counter as Transform & { receivedEncodedLength: number }).receivedEncodedLength = received;
        if (!this.push(chunk)) heldBack = true;
        cb();
      },
    });
    (counter as Transform & { receivedEncodedLength: number }).receivedEncodedLength = 0;

    let released = false;
    const finish = () => {
      clearInterval(timer);
      if (released) return;
      released = true;
      opts.budget.release(reserved, false);
      opts.budget.release(reservedLarge, true);
    };
    counter.once('end', () => clearInterval(timer));
    // 'close' on the response comes when it has been sent and also when the connection is lost
    // first (an aborted upload): either way the body is no longer held for it.
    reply.raw.once('close', finish);
    // What stream.pipeline does here, wired by hand: a client that disconnects mid-body errors the
    // counter too, so the parser gives up instead of waiting for an end that never comes, and an
    // error in the counter (too large, too slow, over the budget) stops reading the body. pipeline made
    // an AbortController for every request and aborted it when the body ended, building a
    // DOMException each time: about a tenth of a millisecond of the event loop per request, on
    // every `POST /v1/send` (bench:send).
    req.raw.pipe(counter);
    req.raw.on('error', (err) => counter.destroy(err));
    req.raw.once('close', () => {
      if (!req.raw.readableEnded && !counter.destroyed) counter.destroy(prematureClose());
    });
    counter.once('error', () => {
      clearInterval(timer);
      req.raw.unpipe(counter);
      // The rest of the body is never read: the connection ends after the error response, rather
      // than stay open for bytes nobody wants (a trickling client is cut off, not kept).
      if (!reply.raw.headersSent) reply.raw.setHeader('connection', 'close');
    });
    counter.once('close', () => clearInterval(timer));
    done(null, counter);
  };
}

/** The error stream.pipeline gives when the client goes away before the body ended. */
function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}
