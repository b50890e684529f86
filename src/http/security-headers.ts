import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';

/**
 * The dashboard's Content-Security-Policy (docs/management.md, Users and sign-in): scripts,
 * styles and everything else only from this server, no inline script and no eval, images also as
 * `data:` URLs (the TOTP QR code), no plugins, no framing of the dashboard by any site
 * (`frame-ancestors 'none'`, which supersedes X-Frame-Options), forms posting only here. Sandboxed
 * `srcdoc` iframes (the sandbox mailbox's message view) are same-document and need no frame-src.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** One year, the value HSTS preload lists ask for (RFC 6797 §6.1.1). */
const HSTS = 'max-age=31536000';

/**
 * Sets the security headers of a response: on every response `X-Content-Type-Options: nosniff`,
 * a `Referrer-Policy` that sends only the origin to other sites, and, outside sandbox mode, HSTS
 * (RFC 6797; the sandbox's self-signed certificate on localhost must not be pinned in a
 * browser); on HTML pages that set no policy of their own (the docs pages do), DASHBOARD_CSP.
 * Exported for a route that sends a page on its own (reply.hijack) to call.
 */
export function setSecurityHeaders(reply: FastifyReply, opts: { sandbox: boolean }): void {
  reply.header('X-Content-Type-Options', 'nosniff');
  if (!reply.hasHeader('Referrer-Policy')) reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
  if (!opts.sandbox) reply.header('Strict-Transport-Security', HSTS);
  const type = String(reply.getHeader('content-type') ?? '');
  if (type.startsWith('text/html') && !reply.hasHeader('Content-Security-Policy'))
    reply.header('Content-Security-Policy', DASHBOARD_CSP);
}

/** The onSend hook build-app.ts adds for every response. */
export function securityHeaders(opts: { sandbox: boolean }): onSendHookHandler {
  return (_req: FastifyRequest, reply: FastifyReply, payload, done) => {
    setSecurityHeaders(reply, opts);
    done(null, payload);
  };
}
