// The documentation the server serves about itself, over real HTTPS: /docs (the API reference,
// rendered by the locally served Redoc bundle from /v1/openapi.json, nothing from elsewhere) and
// /docs/errors (a section for every error type, the target of each error body's `docs` link).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { parseDocument, DomUtils } from 'htmlparser2';
import { testDialects } from '../helpers/test-db.js';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { API_ERROR_TYPES, ERROR_TABLE } from '../../src/core/api-errors.js';

type Document = ReturnType<typeof parseDocument>;
type Element = ReturnType<typeof DomUtils.findAll>[number];

/** Every element of `doc`. */
function elements(doc: Document): Element[] {
  return DomUtils.findAll(() => true, doc.children);
}

/** A Content-Security-Policy as directive → sources. */
function csp(header: string | null): Map<string, string[]> {
  assert.ok(header, 'the page has a Content-Security-Policy');
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** True for a source that names no other origin: keywords, hashes, this origin, data: and blob:. */
const localSource = (s: string): boolean => /^'[^']+'$/.test(s) || s === 'data:' || s === 'blob:';

for (const dialect of testDialects()) {
  describe(`/docs and /docs/errors (${dialect})`, () => {
    let api: ApiHarness;
    before(async () => {
      api = await startApiHarness(dialect);
    });
    after(() => api.close());

    test('/docs loads without a credential and references only assets this server serves', async () => {
      const res = await api.fetch('/docs');
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      const doc = parseDocument(await res.text());
      const refs = elements(doc).flatMap((el) =>
        ['src', 'href', 'spec-url'].flatMap((a) => (el.attribs[a] !== undefined ? [el.attribs[a]] : [])),
      );
      assert.ok(refs.length >= 3, JSON.stringify(refs));
      for (const ref of refs) {
        assert.match(ref, /^\/[^/]/, `${ref} is a path on this server, not another origin`);
        const asset = await api.fetch(ref);
        assert.equal(asset.status, 200, ref);
        await asset.arrayBuffer();
      }
      const scripts = DomUtils.findAll((el) => el.name === 'script', doc.children);
      assert.equal(scripts.length, 1);
      assert.equal(scripts[0]!.children.length, 0, 'no inline script (the CSP allows none)');
      const bundle = await api.fetch(scripts[0]!.attribs.src!);
      assert.match(bundle.headers.get('content-type') ?? '', /^text\/javascript/);
      const js = await bundle.text();
      assert.ok(js.length > 500_000, 'the whole Redoc bundle, not a loader that fetches it from elsewhere');
      assert.match(js, /Redoc/);
      const redoc = DomUtils.findOne((el) => el.name === 'redoc', doc.children);
      assert.equal(redoc?.attribs['spec-url'], '/v1/openapi.json');
      const spec = await api.client().GET('/v1/openapi.json');
      assert.equal(spec.response.status, 200);
    });

    test('/docs is under a Content-Security-Policy that lets it load nothing from another origin', async () => {
      const res = await api.fetch('/docs');
      await res.text();
      const policy = csp(res.headers.get('content-security-policy'));
      assert.deepEqual(policy.get('default-src'), ["'none'"]);
      assert.deepEqual(policy.get('script-src'), ["'self'"]);
      assert.deepEqual(policy.get('connect-src'), ["'self'"], 'the document is fetched from this server only');
      for (const [name, sources] of policy)
        for (const s of sources) assert.ok(localSource(s), `${name} allows ${s}, another origin`);
      assert.ok(!(policy.get('script-src') ?? []).includes("'unsafe-eval'"));
      assert.ok(!(policy.get('script-src') ?? []).includes("'unsafe-inline'"));
    });

    test('/docs/errors has a section for every error type, with its status and an example body linking back', async () => {
      const res = await api.fetch('/docs/errors');
      assert.equal(res.status, 200);
      const html = await res.text();
      const doc = parseDocument(html);
      const ids = new Map(elements(doc).flatMap((el) => (el.attribs.id ? [[el.attribs.id, el] as const] : [])));
      for (const type of API_ERROR_TYPES) {
        const section = ids.get(type);
        assert.ok(section, `no #${type} anchor on /docs/errors`);
        const text = DomUtils.textContent(section);
        assert.ok(text.includes(String(ERROR_TABLE[type].status)), `#${type} states its status`);
        const pre = DomUtils.findOne((el) => el.name === 'pre', section.children);
        const example = DomUtils.textContent(pre!);
        const body = JSON.parse(example.slice(example.indexOf('{'))) as { error: { type: string; docs: string } };
        assert.equal(body.error.type, type);
        assert.equal(body.error.docs, `/docs/errors#${type}`);
      }
      assert.equal(
        [...ids.keys()].filter((id) => (API_ERROR_TYPES as readonly string[]).includes(id)).length,
        API_ERROR_TYPES.length,
      );
      // The page is styled under its own CSP: the inline stylesheet's hash is the one allowed.
      const style = DomUtils.textContent(DomUtils.findOne((el) => el.name === 'style', doc.children)!);
      const hash = `'sha256-${createHash('sha256').update(style).digest('base64')}'`;
      const policy = csp(res.headers.get('content-security-policy'));
      assert.deepEqual(policy.get('style-src'), [hash]);
      assert.equal(policy.get('script-src'), undefined, 'no script at all (default-src none)');
    });

    test('the docs link of real error bodies leads to an anchor on the served page', async () => {
      const page = parseDocument(await (await api.fetch('/docs/errors')).text());
      const anchors = new Set(elements(page).map((el) => el.attribs.id));
      const answers = [
        await api.fetch('/v1/usage'), // 401 invalid_key
        await api.fetch('/v1/no-such-route'), // 404 not_found
        await api.fetch('/v1/usage?month=2026-13', { headers: { authorization: `Bearer ${await api.token('acme')}` } }),
      ];
      const seen: string[] = [];
      for (const res of answers) {
        const { error } = (await res.json()) as { error: { type: string; docs: string } };
        const [path, anchor] = error.docs.split('#');
        assert.equal(path, '/docs/errors');
        assert.ok(anchors.has(anchor), `${error.docs} has no anchor on the page`);
        seen.push(error.type);
      }
      assert.deepEqual(seen, ['invalid_key', 'not_found', 'invalid_request']);
    });

    test('the pages are not API routes: no credential, not in the OpenAPI document', async () => {
      const bad = await api.fetch('/docs/errors', { headers: { authorization: 'Bearer ph_wrong' } });
      assert.equal(bad.status, 200, 'a credential, even a bad one, changes nothing');
      await bad.text();
      const { data } = await api.client().GET('/v1/openapi.json');
      const paths = Object.keys((data as { paths: Record<string, unknown> }).paths);
      assert.ok(!paths.some((p) => p.startsWith('/docs')), paths.join(', '));
    });
  });
}
