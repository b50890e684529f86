// The metrics listener on its own (docs/observability.md): a token off loopback, /readyz's
// reasons (roles not serving, migrations pending, the database unreachable) on both databases.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import pino from 'pino';
import { ConfigError } from '../../src/config/load.js';
import { createMetrics } from '../../src/metrics/metrics.js';
import {
  checkMetricsConfig,
  isLoopbackHost,
  startMetricsListener,
  type MetricsListenerDeps,
} from '../../src/metrics/metrics-listener.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { createTestDb, testDialects } from '../helpers/test-db.js';

const TOKEN = 'a-long-random-metrics-token-0123';

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

const listenerDeps = (
  db: Pick<MetricsListenerDeps, 'db' | 'dialect'>,
  config: Partial<MetricsListenerDeps['config']> = {},
): MetricsListenerDeps => ({
  ...db,
  config: { metricsHost: '127.0.0.1', metricsPort: 0, metricsToken: null, ...config },
  log: pino({ level: 'silent' }),
  metrics: createMetrics(false),
});

describe('metrics listener configuration', () => {
  test('loopback addresses', () => {
    for (const h of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', '::ffff:127.0.0.1'])
      assert.equal(isLoopbackHost(h), true, h);
    for (const h of ['0.0.0.0', '::', '10.0.0.5', 'metrics.example.com', '::ffff:10.0.0.1'])
      assert.equal(isLoopbackHost(h), false, h);
  });

  test('off loopback without a token is refused, naming the variables; with one, or off, it is not', () => {
    assert.throws(
      () => checkMetricsConfig({ metricsHost: '0.0.0.0', metricsPort: 9464, metricsToken: null }),
      (err: Error) =>
        err instanceof ConfigError && /^POSTHORN_METRICS_TOKEN: .*POSTHORN_METRICS_HOST/.test(err.message),
    );
    checkMetricsConfig({ metricsHost: '0.0.0.0', metricsPort: 9464, metricsToken: TOKEN });
    checkMetricsConfig({ metricsHost: '0.0.0.0', metricsPort: null, metricsToken: null });
    checkMetricsConfig({ metricsHost: '127.0.0.1', metricsPort: 9464, metricsToken: null });
  });
});

for (const dialect of testDialects()) {
  describe(`metrics listener (${dialect})`, () => {
    test('with a token off loopback: 401 without the header or with a wrong one, 200 with it, on every path', async () => {
      const db = await createTestDb(dialect);
      const listener = await startMetricsListener(
        listenerDeps(db, { metricsHost: '0.0.0.0', metricsToken: TOKEN }),
      ).catch(async (err: unknown) => {
        await db.close();
        throw err;
      });
      try {
        listener.setServing(true);
        const url = listener.url.replace('0.0.0.0', '127.0.0.1');
        for (const path of ['/metrics', '/healthz', '/readyz']) {
          const none = await get(`${url}${path}`);
          assert.equal(none.status, 401, path);
          assert.equal(
            (await get(`${url}${path}`, { authorization: 'Bearer wrong-token-of-some-length' })).status,
            401,
          );
          const ok = await get(`${url}${path}`, { authorization: `Bearer ${TOKEN}` });
          assert.equal(ok.status, 200, `${path}: ${ok.body}`);
        }
        const scrape = await get(`${url}/metrics`, { authorization: `Bearer ${TOKEN}` });
        assert.match(scrape.body, /^# TYPE posthorn_deliveries_total counter$/m);
        assert.equal((await get(`${url}/v1/send`, { authorization: `Bearer ${TOKEN}` })).status, 404);
      } finally {
        await listener.close();
        await db.close();
      }
    });

    test('/readyz: 503 until the roles serve, 200 then, 503 again when stopping; /healthz 200 throughout', async () => {
      const db = await createTestDb(dialect);
      const listener = await startMetricsListener(listenerDeps(db));
      try {
        const starting = await get(`${listener.url}/readyz`);
        assert.equal(starting.status, 503);
        assert.match(JSON.parse(starting.body).reason, /roles are not serving/);
        assert.equal((await get(`${listener.url}/healthz`)).status, 200);
        listener.setServing(true);
        const ready = await get(`${listener.url}/readyz`);
        assert.equal(ready.status, 200, ready.body);
        assert.deepEqual(JSON.parse(ready.body), { status: 'ready', database: dialect });
        listener.setServing(false);
        assert.equal((await get(`${listener.url}/readyz`)).status, 503);
        assert.equal((await get(`${listener.url}/healthz`)).status, 200);
      } finally {
        await listener.close();
        await db.close();
      }
    });

    test('/readyz: 503 naming the migrations when some are pending', async () => {
      const db = await createTestDb(dialect, { migrateUpTo: '0014-event-metadata' });
      const listener = await startMetricsListener(listenerDeps(db));
      try {
        listener.setServing(true);
        const r = await get(`${listener.url}/readyz`);
        assert.equal(r.status, 503);
        const body = JSON.parse(r.body) as { status: string; reason: string };
        assert.equal(body.status, 'unavailable');
        assert.match(body.reason, /^migrations pending: 0015-templates, 0016-users(, \d{4}-[a-z-]+)*$/);
        assert.equal((await get(`${listener.url}/healthz`)).status, 200, 'liveness does not depend on the database');
      } finally {
        await listener.close();
        await db.close();
      }
    });

    test('/readyz: 503 when the database is unreachable', async () => {
      const db = await createTestDb(dialect);
      // PostgreSQL: a server that is not there (nothing listens on port 1); SQLite: a closed file.
      const gone =
        dialect === 'postgres'
          ? openDatabase({ databaseUrl: 'postgres://posthorn@127.0.0.1:1/posthorn', dataDir: db.dataDir })
          : db;
      if (dialect === 'sqlite') await db.close();
      const listener = await startMetricsListener(listenerDeps({ db: gone.db, dialect }));
      try {
        listener.setServing(true);
        const r = await get(`${listener.url}/readyz`);
        assert.equal(r.status, 503);
        assert.match(JSON.parse(r.body).reason, /^database unreachable: /);
        assert.equal((await get(`${listener.url}/healthz`)).status, 200);
      } finally {
        await listener.close();
        if (dialect === 'postgres') {
          await gone.close();
          await db.close();
        }
      }
    });

    test('a port already in use is refused naming POSTHORN_METRICS_PORT', async () => {
      const db = await createTestDb(dialect);
      const first = await startMetricsListener(listenerDeps(db));
      try {
        const port = Number(new URL(first.url).port);
        await assert.rejects(
          startMetricsListener(listenerDeps(db, { metricsPort: port })),
          (err: Error) =>
            err instanceof ConfigError &&
            /^POSTHORN_METRICS_PORT: 127\.0\.0\.1:\d+ is already in use/.test(err.message),
        );
      } finally {
        await first.close();
        await db.close();
      }
    });
  });
}
