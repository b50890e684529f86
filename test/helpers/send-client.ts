import type { FastifyInstance } from 'fastify';
import { checkResponse } from './openapi-check.js';

/** A POST /v1/send through Fastify's inject(), with the body JSON-encoded unless it is a string. */
export async function postSend(
  app: FastifyInstance,
  key: string | null,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/send',
    headers: {
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      'content-type': 'application/json',
      ...headers,
    },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const parsed: unknown = res.body === '' ? null : JSON.parse(res.body);
  // Every answer the send tests get is checked against docs/openapi.json as well.
  checkResponse('POST', '/v1/send', res.statusCode, String(res.headers['content-type'] ?? ''), parsed ?? undefined);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whichever fields they check
  return { status: res.statusCode, headers: res.headers, body: parsed as any };
}

/** A minimal valid send body from `domain`. */
export function message(domain: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    from: `Acme <hello@${domain}>`,
    to: 'user@example.org',
    subject: 'Your receipt',
    html: '<p>Thanks!</p>',
    ...overrides,
  };
}
