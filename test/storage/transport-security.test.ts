// Transport security of outbound delivery (docs/delivery.md): MTA-STS policies
// served by a real HTTPS server with a test CA, DANE TLSA answers with the AD bit from the loopback
// DNS server, a real sink MX with and without a certificate valid for its name, and the daily
// TLS-RPT report mailed to a sink mailbox. The fake clock is moved instead of sleeping.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, X509Certificate } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { simpleParser } from 'mailparser';
import { sendDueTlsReports } from '../../src/delivery/security/send-tls-reports.js';
import { testDialects } from '../helpers/test-db.js';
import { createDeliveryHarness, SENDER_DOMAIN, type DeliveryHarness } from '../helpers/delivery-harness.js';
import { createTestCa, type TestCa, type TestCertificate } from '../helpers/test-ca.js';
import { startStsServer, type StsServer } from '../helpers/sts-server.js';
import type { Zone } from '../helpers/dns-server.js';

const DAY = 86_400_000;
const policy = (mode: string, mx: string[], maxAge = 86_400) =>
  ['version: STSv1', `mode: ${mode}`, ...mx.map((m) => `mx: ${m}`), `max_age: ${maxAge}`, ''].join('\r\n');

/** A recipient domain whose one MX is `mx.<domain>` (the sink on 127.0.0.1), with an MTA-STS record when `stsId` is given. */
function domainZone(domain: string, stsId?: string): Zone {
  return {
    [domain]: { MX: [{ exchange: `mx.${domain}`, priority: 10 }] },
    [`mx.${domain}`]: { A: ['127.0.0.1'] },
    [`mta-sts.${domain}`]: { A: ['127.0.0.1'] },
    ...(stsId ? { [`_mta-sts.${domain}`]: { TXT: [`v=STSv1; id=${stsId};`] } } : {}),
  };
}

let ca: TestCa;
let sts: StsServer;
let validCerts: TestCertificate;
/** An https: rua: what it was POSTed. */
let rua: { port: number; posts: { type: string; body: Buffer }[]; server: https.Server };

before(async () => {
  ca = await createTestCa();
  const domains = ['secure.test', 'testing.test', 'moved.test'];
  sts = await startStsServer(await ca.issue(domains.map((d) => `mta-sts.${d}`)));
  validCerts = await ca.issue(domains.map((d) => `mx.${d}`).concat('mx.dane.test'));
  const posts: { type: string; body: Buffer }[] = [];
  const server = https.createServer(await ca.issue(['rua.reports.test']), (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      posts.push({ type: String(req.headers['content-type']), body: Buffer.concat(chunks) });
      res.writeHead(201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  rua = { port: (server.address() as AddressInfo).port, posts, server };
});
after(async () => {
  rua.server.closeAllConnections();
  await new Promise((resolve) => rua.server.close(resolve));
  await sts.close();
  ca.close();
});

for (const dialect of testDialects()) {
  describe(`transport security (${dialect})`, () => {
    let h: DeliveryHarness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    async function harness(opts: {
      zone: Zone;
      certificate?: { key: string; cert: string };
    }): Promise<DeliveryHarness> {
      h = await createDeliveryHarness(dialect, {
        namedMx: true,
        zone: opts.zone,
        sink: opts.certificate ? { certificate: opts.certificate } : {},
        env: {
          POSTHORN_TLS_CA_FILE: ca.file,
          POSTHORN_MTA_STS_PORT: String(sts.port),
          POSTHORN_RETRY_SCHEDULE: '1s',
          POSTHORN_MAX_QUEUE_LIFETIME: '3s',
          // The https: rua is on loopback, which report POSTs refuse otherwise (as webhooks do).
          POSTHORN_WEBHOOK_ALLOW_PRIVATE: '1',
        },
      });
      return h;
    }

    async function send(hx: DeliveryHarness, to: string): Promise<string> {
      const res = await hx.send({ from: `hello@${SENDER_DOMAIN}`, to, subject: 'Receipt', text: 'Thanks' });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      return res.body.id;
    }

    const counts = (hx: DeliveryHarness, domain: string) =>
      hx.deps.db
        .selectFrom('tls_report_counts')
        .select(['policy_type', 'mx_host', 'result_type', 'failure_reason', 'count'])
        .where('domain', '=', domain)
        .orderBy('result_type')
        .execute();

    test('enforce, MX without a valid certificate: deferred with the reason, failed with it when retries end; the policy is fetched once', async () => {
      sts.policies.set('secure.test', policy('enforce', ['mx.secure.test']));
      sts.fetches.delete('secure.test');
      const hx = await harness({ zone: domainZone('secure.test', 'v1') }); // the sink's self-signed certificate
      const to = 'pat@secure.test';
      const id = await send(hx, to);
      await hx.run();
      assert.equal(hx.received(to).length, 0, 'nothing is sent over a session the policy refuses');
      assert.deepEqual(await hx.timeline(id, to), ['accepted-by-system', 'accepted-by-mta']);
      const job = await hx.deps.db.selectFrom('jobs').select(['last_error', 'attempts']).executeTakeFirstOrThrow();
      assert.match(
        String(job.last_error),
        /certificate of mx\.secure\.test is not valid for it \(DEPTH_ZERO_SELF_SIGNED_CERT\).*MTA-STS policy requires/,
      );

      for (let i = 0; i < 5; i++) await hx.advance(1000);
      const events = await hx.events(id, to);
      assert.deepEqual(
        events.map((e) => e.event),
        ['accepted-by-system', 'accepted-by-mta', 'failed'],
      );
      const failed = events[2]!.details;
      assert.match(
        String(failed.reason),
        /^gave up after \d+ attempts: mx\.secure\.test:\d+: the certificate of mx\.secure\.test is not valid/,
      );
      // The handshake happened; the certificate is what the policy refused.
      const tls = failed.tls as Record<string, unknown>;
      assert.match(String(tls.version), /^TLSv1\.[23]$/);
      assert.deepEqual(
        { policy: tls.policy, mode: tls.mode, validated: tls.validated, result_type: tls.result_type },
        { policy: 'mta-sts', mode: 'enforce', validated: false, result_type: 'certificate-not-trusted' },
      );
      assert.equal(hx.received(to).length, 0);
      // Cached in the database and reused by every retry: one fetch for all attempts.
      assert.equal(sts.fetches.get('secure.test'), 1);
      const cached = await hx.deps.db.selectFrom('mta_sts_policies').selectAll().executeTakeFirstOrThrow();
      assert.equal(cached.domain, 'secure.test');
      assert.equal(cached.policy_id, 'v1');
      assert.equal(cached.mode, 'enforce');
      assert.deepEqual(JSON.parse(cached.mx), ['mx.secure.test']);
      const rows = await counts(hx, 'secure.test');
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.result_type, 'certificate-not-trusted');
      assert.equal(rows[0]!.mx_host, 'mx.secure.test');
      assert.ok(Number(rows[0]!.count) >= 4, `one failure per attempt, got ${rows[0]!.count}`);
    });

    test('enforce with a valid certificate: delivered, details.tls says so; a new TXT id refetches; a failed refresh keeps the cached policy', async () => {
      sts.policies.set('secure.test', policy('enforce', ['*.secure.test']));
      sts.fetches.delete('secure.test');
      const hx = await harness({ zone: domainZone('secure.test', 'v1'), certificate: validCerts });
      const first = await send(hx, 'ana@secure.test');
      await hx.run();
      assert.equal(hx.received('ana@secure.test').length, 1);
      const events = await hx.events(first);
      assert.deepEqual(
        events.map((e) => e.event),
        ['accepted-by-system', 'accepted-by-mta', 'delivered'],
      );
      const tls = events[2]!.details.tls as Record<string, unknown>;
      assert.match(String(tls.version), /^TLSv1\.[23]$/);
      assert.equal(typeof tls.cipher, 'string');
      assert.deepEqual(
        { policy: tls.policy, mode: tls.mode, validated: tls.validated, failure: tls.failure },
        {
          policy: 'mta-sts',
          mode: 'enforce',
          validated: true,
          failure: undefined,
        },
      );
      const accepted = events[1]!.details as Record<string, unknown>;
      assert.match(String(accepted.dkim_selector), /^ph\d/, 'accepted-by-mta names the DKIM selector');
      assert.deepEqual(
        { ...accepted, dkim_selector: undefined },
        { dkim: 'signed', dkim_selector: undefined, tls },
        'accepted-by-mta carries the same TLS outcome',
      );
      assert.equal(sts.fetches.get('secure.test'), 1);

      // Same id: the cached policy, no fetch.
      await send(hx, 'bo@secure.test');
      await hx.run();
      assert.equal(sts.fetches.get('secure.test'), 1);

      // A new id: fetched again and stored (RFC 8461 §5.1).
      hx.dns.zone['_mta-sts.secure.test'] = { TXT: ['v=STSv1; id=v2;'] };
      sts.policies.set('secure.test', policy('enforce', ['mx.secure.test'], 172_800));
      await send(hx, 'cy@secure.test');
      await hx.run();
      assert.equal(sts.fetches.get('secure.test'), 2);
      const row = await hx.deps.db.selectFrom('mta_sts_policies').selectAll().executeTakeFirstOrThrow();
      assert.deepEqual([row.policy_id, Number(row.max_age), JSON.parse(row.mx)], ['v2', 172_800, ['mx.secure.test']]);

      // Another id, but the policy host fails: the cached policy still applies (RFC 8461 §5).
      hx.dns.zone['_mta-sts.secure.test'] = { TXT: ['v=STSv1; id=v3;'] };
      sts.policies.set('secure.test', 500);
      const kept = await send(hx, 'di@secure.test');
      await hx.run();
      assert.equal(sts.fetches.get('secure.test'), 3);
      const delivered = (await hx.events(kept)).find((e) => e.event === 'delivered');
      assert.equal((delivered?.details.tls as { policy?: string }).policy, 'mta-sts');
      assert.equal(
        (await hx.deps.db.selectFrom('mta_sts_policies').select('policy_id').executeTakeFirstOrThrow()).policy_id,
        'v2',
      );
      const rows = await counts(hx, 'secure.test');
      // Counted per policy: two sessions under the first policy, two under the second.
      assert.deepEqual(
        rows.map((r) => [r.result_type, Number(r.count)]),
        [
          ['success', 2],
          ['success', 2],
        ],
      );
    });

    test('enforce: an MX host the policy does not name is never tried; a redirecting policy host gives no policy', async () => {
      sts.policies.set('moved.test', policy('enforce', ['mx.elsewhere.test']));
      const hx = await harness({ zone: domainZone('moved.test', 'v1'), certificate: validCerts });
      const id = await send(hx, 'eve@moved.test');
      await hx.run();
      assert.equal(hx.sink!.connections, 0);
      const job = await hx.deps.db.selectFrom('jobs').select('last_error').executeTakeFirstOrThrow();
      assert.equal(
        job.last_error,
        'the MTA-STS policy of moved.test (mode enforce) names none of its MX hosts (mx.moved.test)',
      );

      // RFC 8461 §3.3: a 3xx is not followed. With no cached policy the mail goes out opportunistically.
      await hx.deps.db.deleteFrom('mta_sts_policies').execute();
      sts.policies.set('moved.test', 301);
      await hx.advance(1000);
      assert.equal(hx.received('eve@moved.test').length, 1);
      const tls = (await hx.events(id)).find((e) => e.event === 'delivered')!.details.tls as Record<string, unknown>;
      assert.equal(tls.policy, 'none');
      const rows = await counts(hx, 'moved.test');
      assert.deepEqual(
        rows.map((r) => [r.policy_type, r.result_type]),
        [
          ['no-policy-found', 'sts-policy-fetch-error'],
          ['sts', 'validation-failure'],
        ],
      );
      assert.match(rows[0]!.failure_reason, /HTTP 301 \(redirects are not followed\)/);
    });

    test('testing mode: delivered despite the certificate, the failure recorded and reported the next day to the rua mailbox', async () => {
      sts.policies.set('testing.test', policy('testing', ['mx.testing.test']));
      const zone: Zone = {
        ...domainZone('testing.test', 't1'),
        '_smtp._tls.testing.test': {
          TXT: [`v=TLSRPTv1; rua=mailto:tls-reports@reports.test,https://rua.reports.test:${rua.port}/tlsrpt`],
        },
        'reports.test': { MX: [{ exchange: '127.0.0.1', priority: 10 }] },
        'rua.reports.test': { A: ['127.0.0.1'] },
      };
      const hx = await harness({ zone });
      const ids = [await send(hx, 'fay@testing.test'), await send(hx, 'gus@testing.test')];
      await hx.run();
      assert.equal(hx.received('fay@testing.test').length, 1);
      assert.equal(hx.received('gus@testing.test').length, 1);
      const tls = (await hx.events(ids[0]!)).find((e) => e.event === 'delivered')!.details.tls as Record<
        string,
        unknown
      >;
      assert.deepEqual(
        { policy: tls.policy, mode: tls.mode, validated: tls.validated, result_type: tls.result_type },
        { policy: 'mta-sts', mode: 'testing', validated: false, result_type: 'certificate-not-trusted' },
      );
      assert.match(String(tls.failure), /certificate of mx\.testing\.test is not valid/);

      // Nothing is reported for a day that has not ended.
      assert.equal(await sendDueTlsReports(hx.deps), 0);
      rua.posts.length = 0;
      hx.deps.clock.advance(DAY);
      // Two schedulers at once (two nodes): the (domain, day) claim lets only one send it.
      const both = await Promise.all([sendDueTlsReports(hx.deps), sendDueTlsReports(hx.deps)]);
      assert.equal(both[0] + both[1], 1);
      assert.equal(await sendDueTlsReports(hx.deps), 0, 'a day is reported once');
      const [mail] = hx.received('tls-reports@reports.test');
      assert.ok(mail, 'the report reached the rua mailbox');
      const parsed = await simpleParser(mail.raw);
      assert.equal(parsed.headers.get('tls-report-domain'), 'testing.test');
      assert.equal(parsed.headers.get('tls-report-submitter'), hx.deps.config.hostname);
      const type = parsed.headers.get('content-type') as { value: string; params: Record<string, string> };
      assert.equal(type.value, 'multipart/report');
      assert.equal(type.params['report-type'], 'tlsrpt');
      assert.match(
        String(parsed.subject),
        /^Report Domain: testing\.test Submitter: mail\.posthorn\.test Report-ID: </,
      );
      const attachment = parsed.attachments.find((a) => a.contentType === 'application/tlsrpt+gzip');
      assert.ok(attachment);
      const day = '2026-11-21';
      const start = Date.UTC(2026, 10, 21) / 1000;
      assert.equal(attachment.filename, `mail.posthorn.test!testing.test!${start}!${start + 86_400}.json.gz`);
      const report = JSON.parse(gunzipSync(attachment.content).toString('utf8')) as Record<string, unknown>;
      assert.deepEqual(report, {
        'organization-name': 'mail.posthorn.test',
        'date-range': { 'start-datetime': `${day}T00:00:00Z`, 'end-datetime': `${day}T23:59:59Z` },
        'contact-info': 'postmaster@mail.posthorn.test',
        'report-id': `${day}.testing.test@mail.posthorn.test`,
        policies: [
          {
            policy: {
              'policy-type': 'sts',
              'policy-string': ['version: STSv1', 'mode: testing', 'mx: mx.testing.test', 'max_age: 86400'],
              'policy-domain': 'testing.test',
              'mx-host': ['mx.testing.test'],
            },
            summary: { 'total-successful-session-count': 0, 'total-failure-session-count': 2 },
            'failure-details': [
              {
                'result-type': 'certificate-not-trusted',
                'receiving-mx-hostname': 'mx.testing.test',
                'failed-session-count': 2,
                'failure-reason-code': (
                  report.policies as { 'failure-details': { 'failure-reason-code': string }[] }[]
                )[0]!['failure-details'][0]!['failure-reason-code'],
              },
            ],
          },
        ],
      });
      // The same report, POSTed gzipped to the https: rua (RFC 8460 §5.2).
      assert.equal(rua.posts.length, 1);
      assert.equal(rua.posts[0]!.type, 'application/tlsrpt+gzip');
      assert.deepEqual(JSON.parse(gunzipSync(rua.posts[0]!.body).toString('utf8')), report);
      const sent = await hx.deps.db.selectFrom('tls_reports').selectAll().executeTakeFirstOrThrow();
      assert.equal(Number(sent.sent_at), hx.deps.clock.now());
    });

    test('DANE: authenticated TLSA matching the certificate delivers; a mismatch defers; without AD it is not DANE', async () => {
      const spki = new X509Certificate(validCerts.leafDer).publicKey.export({ type: 'spki', format: 'der' });
      const matching = { usage: 3, selector: 1, matchingType: 1, data: createHash('sha256').update(spki).digest() };
      const hx = await harness({ zone: domainZone('dane.test'), certificate: validCerts });
      const tlsaName = `_${hx.sink!.port}._tcp.mx.dane.test`;
      hx.dns.zone[tlsaName] = { TLSA: [matching], AD: true };
      const good = await send(hx, 'hal@dane.test');
      await hx.run();
      assert.equal(hx.received('hal@dane.test').length, 1);
      const tls = (await hx.events(good)).find((e) => e.event === 'delivered')!.details.tls as Record<string, unknown>;
      assert.deepEqual({ policy: tls.policy, validated: tls.validated }, { policy: 'dane', validated: true });

      const wrong = { ...matching, data: createHash('sha256').update('another key').digest() };
      hx.dns.zone[tlsaName] = { TLSA: [wrong], AD: true };
      const bad = await send(hx, 'ida@dane.test');
      await hx.run();
      assert.equal(hx.received('ida@dane.test').length, 0);
      assert.deepEqual(await hx.timeline(bad, 'ida@dane.test'), ['accepted-by-system', 'accepted-by-mta']);
      const job = await hx.deps.db.selectFrom('jobs').select('last_error').executeTakeFirstOrThrow();
      assert.match(String(job.last_error), /DANE: no TLSA record matches the certificate chain of mx\.dane\.test/);

      // The same records without the AD bit are not authenticated: opportunistic TLS, delivered on retry.
      hx.dns.zone[tlsaName] = { TLSA: [wrong] };
      await hx.advance(1000);
      assert.equal(hx.received('ida@dane.test').length, 1);
      const plain = (await hx.events(bad)).find((e) => e.event === 'delivered')!.details.tls as Record<string, unknown>;
      assert.equal(plain.policy, 'none');
      const rows = await counts(hx, 'dane.test');
      assert.deepEqual(
        rows.map((r) => [r.policy_type, r.result_type, Number(r.count)]),
        [
          ['tlsa', 'success', 1],
          ['tlsa', 'tlsa-invalid', 1],
        ],
      );
      // posthorn_delivery_tls_total: one validated DANE delivery, one refusal, and one opportunistic delivery
      // whose certificate happens to be valid (the test CA is trusted).
      const metric = await hx.deps.metrics.registry.getSingleMetric('posthorn_delivery_tls_total')!.get();
      const byLabels = Object.fromEntries(metric.values.map((v) => [`${v.labels.policy}/${v.labels.result}`, v.value]));
      assert.deepEqual(byLabels, { 'dane/validated': 1, 'dane/refused': 1, 'none/validated': 1 });
      const deferrals = await hx.deps.metrics.registry.getSingleMetric('posthorn_deferrals_total')!.get();
      assert.deepEqual(
        deferrals.values.map((v) => [v.labels.class, v.value]),
        [['tls', 1]],
      );
    });
  });
}
