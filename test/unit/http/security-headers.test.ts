// The dashboard's security headers (docs/management.md, Users and sign-in): the CSP on HTML pages
// that set none of their own, nosniff and Referrer-Policy everywhere, HSTS outside the sandbox only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { DASHBOARD_CSP, securityHeaders } from '../../../src/http/security-headers.js';

async function app(sandbox: boolean) {
  const a = Fastify();
  a.addHook('onSend', securityHeaders({ sandbox }));
  a.get('/', async (_req, reply) => reply.type('text/html; charset=utf-8').send('<!doctype html><p>dashboard</p>'));
  a.get('/own', async (_req, reply) =>
    reply.type('text/html').header('Content-Security-Policy', "default-src 'none'").send('<p>docs</p>'),
  );
  a.get('/json', async () => ({ ok: true }));
  return a;
}

test('an HTML page gets the dashboard CSP: no inline script, no framing; HSTS in production', async () => {
  const a = await app(false);
  const page = await a.inject('/');
  const csp = page.headers['content-security-policy'] as string;
  assert.equal(csp, DASHBOARD_CSP);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.equal(page.headers['x-content-type-options'], 'nosniff');
  assert.equal(page.headers['referrer-policy'], 'strict-origin-when-cross-origin');
  assert.equal(page.headers['strict-transport-security'], 'max-age=31536000');
  assert.equal(
    (await a.inject('/own')).headers['content-security-policy'],
    "default-src 'none'",
    'a page keeps its own',
  );
  const json = await a.inject('/json');
  assert.equal(json.headers['content-security-policy'], undefined);
  assert.equal(json.headers['x-content-type-options'], 'nosniff');
  await a.close();
});

test('the sandbox sends no HSTS (a self-signed certificate on localhost must not be pinned)', async () => {
  const a = await app(true);
  const page = await a.inject('/');
  assert.equal(page.headers['strict-transport-security'], undefined);
  assert.equal(page.headers['content-security-policy'], DASHBOARD_CSP);
  await a.close();
});
