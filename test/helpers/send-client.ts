import type { FastifyInstance } from 'fastify';

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
  return { status: res.statusCode, headers: res.headers, body: res.body === '' ? null : JSON.parse(res.body) };
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
