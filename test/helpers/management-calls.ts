import assert from 'node:assert/strict';
import type { ApiHarness } from './api-harness.js';
import { checkResponse } from './openapi-check.js';

/** An error body as the API sends it (docs/api.md, Errors). */
export interface ErrorJson {
  error: { type: string; message: string; field?: string; docs: string };
}

/**
 * A raw request for what the typed client cannot send (bodies of the wrong type, bad JSON, odd
 * Content-Types), still checked against docs/openapi.json: `template` is the documented path
 * (`/v1/domains/{domain}`), `path` the concrete one.
 */
export async function rawCall(
  api: ApiHarness,
  method: string,
  template: string,
  path: string,
  token: string | undefined,
  body?: string,
  contentType = 'application/json',
): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = contentType;
  const res = await api.fetch(path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const type = res.headers.get('content-type');
  const text = await res.text();
  const json = text === '' ? undefined : (JSON.parse(text) as unknown);
  checkResponse(method, template, res.status, type, json);
  return { status: res.status, json };
}

/** Asserts an error answer: its status, type and field (absent when `field` is undefined). */
export function assertError(
  got: { status: number; json: unknown } | { response: Response; error?: unknown },
  status: number,
  type: string,
  field?: string,
): void {
  const actual = 'json' in got ? got.status : got.response.status;
  const body = ('json' in got ? got.json : got.error) as ErrorJson | undefined;
  assert.equal(actual, status, JSON.stringify(body));
  assert.equal(body?.error.type, type, JSON.stringify(body));
  assert.equal(body?.error.field, field, JSON.stringify(body));
}

/** The account's audit entries of `action`, newest first, read through the API with `token`. */
export async function auditEntries(
  api: ApiHarness,
  token: string,
  action: string,
): Promise<{ at: string; actor: string; action: string; target: string; ip: string | null }[]> {
  const { data, response } = await api.client(token).GET('/v1/audit', { params: { query: { limit: 1000 } } });
  assert.equal(response.status, 200);
  return data!.entries.filter((e) => e.action === action);
}
