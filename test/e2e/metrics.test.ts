// What an operator watching Posthorn sees (docs/observability.md): a real `posthorn serve` with
// every role, a loopback MX that answers 451 once and then 250, and the metrics listener read over
// HTTP — the deferral and delivery counters and the queue gauge move, the log tells the message's
// story under its message_id, the API port has no /metrics, and every metric the Grafana dashboard
// (docs/grafana-dashboard.json) queries is in the scrape.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import http from 'node:http';
import https from 'node:https';
import { systemClock } from '../../src/core/clock.js';
import { createIds } from '../../src/core/ids.js';
import { startDnsServer } from '../helpers/dns-server.js';
import { giveRealDkimKey, seedDomain } from '../helpers/seed.js';
import { postSendHttps } from '../helpers/https-send.js';
import { startSinkMx } from '../helpers/sink-mx.js';
import { startServer, type RunningServer, deliveringEnv } from '../helpers/spawn-server.js';
import { createTestDb, testDialects } from '../helpers/test-db.js';
import { runCli } from '../helpers/run-cli.js';
import { until } from '../helpers/raw-http.js';

const REPO = join(import.meta.dirname, '..', '..');

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        let body = '';
        res
          .setEncoding('utf8')
          .on('data', (d: string) => (body += d))
          .on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

/** The value of one sample line (`name{labels} value`) of a Prometheus text scrape; 0 when absent. */
function sample(scrape: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of scrape.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) total += Number(m[3]);
  }
  return total;
}

/** Scrapes until `done` holds for a scrape (the delivery worker runs on its own time), or fails after `timeoutMs`. */
async function scrapeUntil(url: string, what: string, done: (s: string) => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await get(`${url}/metrics`);
    assert.equal(r.status, 200);
    if (done(r.body)) return r.body;
    if (Date.now() > deadline) throw new Error(`metrics never showed ${what}; last scrape:\n${r.body}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Metric names a PromQL expression reads: every posthorn_* identifier. */
export function promqlMetrics(expr: string): string[] {
  return [...expr.matchAll(/\bposthorn_[a-zA-Z0-9_]+/g)].map((m) => m[0]);
}

/** The metric family a sample name belongs to (histograms expose _bucket, _sum and _count). */
function family(name: string, declared: Set<string>): string {
  if (declared.has(name)) return name;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  return declared.has(base) ? base : name;
}

for (const dialect of testDialects()) {
  describe(`metrics of a running server (${dialect})`, () => {
    test('a deferral (451) then a delivery: counters and the queue gauge move on the metrics listener; the log tells the story', async () => {
      const db = await createTestDb(dialect);
      // 451 4.7.1 the first time the recipient is given, 250 after (greylisting, as real MXs do).
      const sink = await startSinkMx({
        behaviour: (_rcpt, ctx) =>
          ctx.seen === 1
            ? { kind: 'reject', code: 451, message: '4.7.1 Greylisted, try again later' }
            : { kind: 'accept' },
      });
      const dns = await startDnsServer({ 'example.org': { MX: [{ exchange: '127.0.0.1', priority: 10 }] } });
      let server: RunningServer | undefined;
      try {
        const seeded = await seedDomain({ db: db.db, clock: systemClock, ids: createIds() }, { domain: 'acme.test' });
        await giveRealDkimKey(db.db, seeded.domainId);
        server = await startServer({
          ...db.env,
          ...deliveringEnv(dns, sink),
          // The retry comes a few seconds after the deferral: time to see the job waiting in the queue.
          POSTHORN_RETRY_SCHEDULE: '4s',
        });
        const metricsUrl = server.metricsUrl;
        assert.ok(metricsUrl, 'the metrics listener logged its URL');
        assert.notEqual(new URL(metricsUrl).port, new URL(server.url).port);

        // Not on the public API port.
        const ca = readFileSync(join(db.dataDir, 'tls', 'cert.pem'));
        const agent = new https.Agent({ ca });
        const apiMetrics = await new Promise<number>((resolve, reject) =>
          https
            .get(`${server!.url}/metrics`, { agent }, (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            })
            .on('error', reject),
        );
        assert.equal(apiMetrics, 404, 'GET /metrics on the API port');

        const before = (await get(`${metricsUrl}/metrics`)).body;
        assert.equal(sample(before, 'posthorn_queue_depth'), 0);
        assert.equal((await get(`${metricsUrl}/healthz`)).status, 200);
        // Ready once every role serves (the API may answer a moment before the last role started).
        const deadline = Date.now() + 30_000;
        let ready = await get(`${metricsUrl}/readyz`);
        while (ready.status !== 200 && Date.now() < deadline) {
          assert.match(ready.body, /roles are not serving/);
          await new Promise((resolve) => setImmediate(resolve));
          ready = await get(`${metricsUrl}/readyz`);
        }
        assert.deepEqual(JSON.parse(ready.body), { status: 'ready', database: dialect });

        const sent = await postSendHttps(server.url, agent, seeded.key, {
          from: 'hello@acme.test',
          to: 'someone@example.org',
          subject: 'Your receipt',
          text: 'Thanks!',
        });
        assert.ok('status' in sent && sent.status === 202 && sent.id, JSON.stringify(sent));
        const messageId = sent.id;

        const deferred = await scrapeUntil(
          metricsUrl,
          'the deferral',
          (s) => sample(s, 'posthorn_deferrals_total') >= 1,
        );
        assert.equal(sample(deferred, 'posthorn_deferrals_total', { class: '4.7.x', provider: 'other' }), 1);
        assert.equal(sample(deferred, 'posthorn_deliveries_total', { outcome: 'deferred' }), 1);
        assert.equal(sample(deferred, 'posthorn_deliveries_total', { outcome: 'delivered' }), 0);
        assert.equal(
          sample(deferred, 'posthorn_queue_depth', { state: 'scheduled' }),
          1,
          'the retry waits in the queue',
        );
        assert.equal(sample(deferred, 'posthorn_sends_total', { source: 'http', outcome: 'accepted' }), 1);

        await sink.waitFor((m) => m.length >= 1, 30_000);
        const delivered = await scrapeUntil(
          metricsUrl,
          'the delivery',
          (s) => sample(s, 'posthorn_deliveries_total', { outcome: 'delivered' }) >= 1,
        );
        assert.equal(sample(delivered, 'posthorn_deliveries_total', { outcome: 'delivered', provider: 'other' }), 1);
        assert.equal(sample(delivered, 'posthorn_deferrals_total'), 1);
        assert.equal(sample(delivered, 'posthorn_queue_depth'), 0, 'the queue is empty again');
        assert.equal(sample(delivered, 'posthorn_queue_oldest_due_seconds'), 0);
        assert.ok(sample(delivered, 'posthorn_db_commit_seconds_count', { path: 'delivery' }) >= 2);
        assert.ok(sample(delivered, 'posthorn_db_commit_seconds_count', { path: 'send' }) >= 1);

        // Every metric the Grafana dashboard queries is in this scrape (declared by a # TYPE line).
        const declared = new Set([...delivered.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!));
        const dashboard = JSON.parse(readFileSync(join(REPO, 'docs', 'grafana-dashboard.json'), 'utf8')) as {
          panels: { title: string; targets?: { expr: string }[] }[];
          templating: { list: { query?: { query?: string } }[] };
        };
        const exprs = [
          ...dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr)),
          ...dashboard.templating.list.map((v) => v.query?.query ?? ''),
        ];
        const queried = new Set(exprs.flatMap(promqlMetrics));
        assert.ok(queried.size >= 15, `the dashboard queries ${queried.size} metrics`);
        const missing = [...queried].filter((n) => !declared.has(family(n, declared)));
        assert.deepEqual(missing, [], 'dashboard metrics missing from a real scrape');

        // One message's story in the log: both attempts under its message_id, with the recipient.
        // The counter can move before the server's log line has come through its stderr pipe: wait for two lines.
        const running = server;
        const storyLines = (): Record<string, unknown>[] =>
          running
            .stderr()
            .split('\n')
            .flatMap((l) => {
              try {
                return [JSON.parse(l) as Record<string, unknown>];
              } catch {
                return [];
              }
            })
            .filter((l) => l.message_id === messageId);
        const lines = await until('both log lines of the message', () => {
          const found = storyLines();
          return found.length >= 2 && found;
        });
        assert.deepEqual(
          lines.map((l) => [l.msg, l.recipient, l.outcome]),
          [
            ['delivery deferred', 'someone@example.org', 'deferred'],
            ['delivered', 'someone@example.org', 'delivered'],
          ],
        );
        assert.equal(lines[0]!.deferral_class, '4.7.x');
        agent.destroy();
        assert.equal(await server.stop(), 0);
      } finally {
        await server?.kill9();
        await sink.close();
        await dns.close();
        await db.close();
      }
    });
  });
}

describe('metrics listener off loopback', () => {
  test('serve refuses to start without POSTHORN_METRICS_TOKEN, naming it', async () => {
    const db = await createTestDb('sqlite');
    try {
      const r = await runCli(['serve', '--roles', 'scheduler'], {
        ...db.env,
        POSTHORN_SANDBOX: '0',
        POSTHORN_HOSTNAME: 'mail.posthorn.test',
        POSTHORN_METRICS_HOST: '0.0.0.0',
      });
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /POSTHORN_METRICS_TOKEN: required when POSTHORN_METRICS_HOST \(0\.0\.0\.0\)/);
    } finally {
      await db.close();
    }
  });
});
