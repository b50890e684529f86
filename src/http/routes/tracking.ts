import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { trackingSecret } from '../../tracking/secret.js';
import { recordClick, recordOpen } from '../../tracking/record.js';
import { readToken } from '../../tracking/token.js';
import { recordUnsubscribe, unsubscribeTarget } from '../../tracking/unsubscribe-record.js';
import { confirmPage, invalidLinkPage, PAGE_HEADERS, unsubscribedPage } from '../../tracking/unsubscribe-page.js';

/** Bytes an unsubscribe POST may carry. */
export const UNSUBSCRIBE_BODY_LIMIT = 16 * 1024;

/** A transparent 1×1 GIF (GIF89a, one transparent pixel): 43 bytes. */
export const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/**
 * The Location value for an original URL: the URL itself when it is printable ASCII, which is
 * byte for byte what the sender wrote; other characters (non-ASCII, spaces) percent-encoded as
 * UTF-8 (RFC 3986 §2.1, what a browser sends for them anyway), since a header holds no raw UTF-8.
 */
export function locationFor(url: string): string {
  return url.replace(/[^\x21-\x7e]+/g, (s) => encodeURI(s));
}

function userAgent(req: FastifyRequest): string {
  const ua = req.headers['user-agent'];
  return typeof ua === 'string' ? ua.slice(0, 512) : '';
}

function tokenParam(req: FastifyRequest): string {
  return (req.params as Record<string, string | undefined>)['*'] ?? '';
}

/**
 * Routes hit by recipients' mail clients and by mailbox providers, with no API key (docs/tracking.md,
 * The URLs): the open pixel, the click redirect and the one-click unsubscribe (RFC 8058).
 * Wildcard paths, because a click token carries its URL and may be far longer than a route
 * parameter's 100-character limit.
 */
export function trackingRoutes(deps: Deps): FastifyPluginAsync {
  return async (app) => {
    // Read (or made) on first use, not at start: an API that never sees a tracking URL writes nothing.
    let loaded: Promise<Buffer> | null = null;
    const key = (): Promise<Buffer> =>
      (loaded ??= trackingSecret(deps).catch((err: unknown) => {
        loaded = null;
        throw err;
      }));

    app.get('/t/o/*', async (req, reply) => {
      try {
        await recordOpen(deps, await key(), { token: tokenParam(req), userAgent: userAgent(req), ip: req.ip });
      } catch (err) {
        // The reader's image never breaks over our database: the open is lost, the pixel is not.
        req.log.error({ err }, 'recording an open failed');
      }
      return reply
        .code(200)
        .headers({
          'content-type': 'image/gif',
          'cache-control': 'no-store, no-cache, must-revalidate, private',
          pragma: 'no-cache',
        })
        .send(PIXEL_GIF);
    });

    app.get('/t/c/*', async (req, reply) => {
      const token = tokenParam(req);
      const secret = await key();
      const valid = readToken(secret, 'click', token);
      // No Location on a bad token: the URL inside it is not one we signed (no open redirect).
      if (valid === null) return reply.code(404).headers(PAGE_HEADERS).send(invalidLinkPage('click'));
      try {
        await recordClick(deps, secret, { token, userAgent: userAgent(req), ip: req.ip });
      } catch (err) {
        req.log.error({ err }, 'recording a click failed');
      }
      return reply
        .code(302)
        .headers({
          location: locationFor(valid.payload),
          'cache-control': 'no-store',
          'referrer-policy': 'no-referrer',
        })
        .send();
    });

    app.get('/u/*', async (req, reply) => {
      const target = await unsubscribeTarget(deps, await key(), tokenParam(req));
      if (target === null) return reply.code(400).headers(PAGE_HEADERS).send(invalidLinkPage('unsubscribe'));
      return reply.code(200).headers(PAGE_HEADERS).send(confirmPage(target.address));
    });

    // The only body a caller without a key can make us read: RFC 8058's is 26 bytes, our page's
    // form a few more, so anything near this limit is not an unsubscribe (413 from the header).
    app.post('/u/*', { bodyLimit: UNSUBSCRIBE_BODY_LIMIT }, async (req: FastifyRequest, reply: FastifyReply) => {
      // RFC 8058 §3.2: the body is `List-Unsubscribe=One-Click`, with no cookie or credential;
      // the signed token alone says who. Our own confirmation page adds `via=page`.
      const body = Buffer.isBuffer(req.body) ? req.body.toString('latin1') : '';
      const method = new URLSearchParams(body).get('via') === 'page' ? 'page' : 'one-click';
      const result = await recordUnsubscribe(deps, await key(), {
        token: tokenParam(req),
        userAgent: userAgent(req),
        method,
      });
      if (result.kind === 'invalid') return reply.code(400).headers(PAGE_HEADERS).send(invalidLinkPage('unsubscribe'));
      return reply.code(200).headers(PAGE_HEADERS).send(unsubscribedPage(result.address));
    });
  };
}
