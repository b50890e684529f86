import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import type { AddressInfo, LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { fetchStsPolicy, STS_POLICY_MAX_BYTES } from '../../../src/delivery/security/fetch-sts-policy.js';
import { createTestCa, type TestCa } from '../../helpers/test-ca.js';

// RFC 8461 §3.3 against a real HTTPS server with a test CA: what a policy fetch takes and refuses.
let ca: TestCa;
let server: https.Server;
let port: number;
/** What the server answers, by domain. */
const answers = new Map<string, { status: number; type?: string; body?: string; location?: string }>();
/** Every mta-sts.* name is on loopback. */
const lookup = ((_host, options, cb) => {
  const answer = cb as unknown as (
    err: null,
    address: string | { address: string; family: number }[],
    family?: number,
  ) => void;
  if (options.all) answer(null, [{ address: '127.0.0.1', family: 4 }]);
  else answer(null, '127.0.0.1', 4);
}) as LookupFunction;

before(async () => {
  ca = await createTestCa();
  const names = ['ok', 'big', 'html', 'moved', 'missing'].map((d) => `mta-sts.${d}.test`);
  server = https.createServer(await ca.issue(names), (req, res) => {
    const domain = String(req.headers.host)
      .replace(/:\d+$/, '')
      .replace(/^mta-sts\./, '');
    const a = answers.get(domain) ?? { status: 404 };
    res.writeHead(a.status, {
      ...(a.type ? { 'content-type': a.type } : {}),
      ...(a.location ? { location: a.location } : {}),
    });
    res.end(a.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  ca.close();
});

const opts = () => ({ port, lookup, ca: [...rootCertificates, ca.certPem], timeoutMs: 5000 });

test('a text/plain 200 is the policy', async () => {
  answers.set('ok.test', { status: 200, type: 'text/plain; charset=utf-8', body: 'version: STSv1\r\n' });
  assert.equal(await fetchStsPolicy('ok.test', opts()), 'version: STSv1\r\n');
});

test('refused: an untrusted certificate, a redirect, another type, a body over 64 KiB, a 404', async () => {
  await assert.rejects(
    fetchStsPolicy('ok.test', { ...opts(), ca: [...rootCertificates] }),
    /fetching the policy from mta-sts\.ok\.test: .*certificate/i,
  );
  answers.set('moved.test', { status: 301, location: 'https://mta-sts.ok.test/.well-known/mta-sts.txt' });
  await assert.rejects(fetchStsPolicy('moved.test', opts()), {
    message: 'the policy host mta-sts.moved.test answered HTTP 301 (redirects are not followed)',
  });
  answers.set('html.test', { status: 200, type: 'text/html', body: '<p>hi</p>' });
  await assert.rejects(fetchStsPolicy('html.test', opts()), {
    message: 'the policy from mta-sts.html.test has Content-Type "text/html", not text/plain',
  });
  answers.set('big.test', { status: 200, type: 'text/plain', body: 'x'.repeat(STS_POLICY_MAX_BYTES + 1) });
  await assert.rejects(fetchStsPolicy('big.test', opts()), {
    message: `the policy from mta-sts.big.test is larger than ${STS_POLICY_MAX_BYTES} bytes`,
  });
  await assert.rejects(fetchStsPolicy('missing.test', opts()), {
    message: 'the policy host mta-sts.missing.test answered HTTP 404',
  });
});
