// Crash safety of delivery: kill -9 of `posthorn serve --roles api,delivery` during a 5,000-message
// burst, then a restart — every recipient that got 202 reaches the sink MX, and the recipients it
// received twice are no more than the deliveries that were in flight
// (POSTHORN_DELIVERY_CONCURRENCY).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import https from 'node:https';
import { systemClock } from '../../src/core/clock.js';
import { createIds } from '../../src/core/ids.js';
import { LEASE_MS } from '../../src/delivery/delivery-worker.js';
import { startDnsServer } from '../helpers/dns-server.js';
import { giveRealDkimKey, seedDomain } from '../helpers/seed.js';
import { postSendHttps, type SendOutcome } from '../helpers/https-send.js';
import { startSinkMx, type SinkMessage } from '../helpers/sink-mx.js';
import { startServer, deliveringEnv } from '../helpers/spawn-server.js';
import { createTestDb, testDialects } from '../helpers/test-db.js';

const TOTAL = 5000;
const KILL_AFTER_RECEIVED = 500;
/** Deliveries in flight at once: the bound on what a crash can make arrive twice. */
const CONCURRENCY = 64;
const DELIVER_ALL_TIMEOUT_MS = 120_000;

const post = (url: string, agent: https.Agent, key: string, i: number): Promise<SendOutcome> =>
  postSendHttps(url, agent, key, {
    from: 'hello@acme.test',
    to: `r${i}@example.org`,
    subject: `Receipt ${i}`,
    html: `<p>Order ${i}: thanks!</p>`,
  });

/** Counts per recipient of what the sink accepted, updated incrementally as messages arrive. */
function arrivals() {
  const counts = new Map<string, number>();
  let seen = 0;
  return {
    counts,
    update(messages: SinkMessage[]) {
      for (; seen < messages.length; seen++) {
        for (const r of messages[seen]!.rcptTo) counts.set(r.toLowerCase(), (counts.get(r.toLowerCase()) ?? 0) + 1);
      }
    },
  };
}

for (const dialect of testDialects()) {
  describe(`crash safety of delivery (${dialect})`, () => {
    test(`kill -9 during a ${TOTAL}-message burst, restart: every accepted recipient arrives, duplicates ≤ deliveries in flight`, async (t) => {
      const db = await createTestDb(dialect);
      const sink = await startSinkMx();
      const dns = await startDnsServer({ 'example.org': { MX: [{ exchange: '127.0.0.1', priority: 10 }] } });
      try {
        const seeded = await seedDomain(
          { db: db.db, clock: systemClock, ids: createIds() },
          { domain: 'acme.test', rateLimit: 1_000_000 },
        );
        // seedDomain's key is a placeholder: this server signs for real.
        await giveRealDkimKey(db.db, seeded.domainId);
        const env = {
          ...db.env,
          ...deliveringEnv(dns, sink),
          POSTHORN_DELIVERY_CONCURRENCY: String(CONCURRENCY),
        };
        const roles = { args: ['--roles', 'api,delivery'] };
        const server = await startServer(env, roles);
        const ca = readFileSync(join(db.dataDir, 'tls', 'cert.pem'));
        const agent = new https.Agent({ keepAlive: true, maxSockets: 100, ca });
        const started = performance.now();

        // The whole burst is accepted first; the kill then comes while the sink is receiving.
        const outcomes = await Promise.all(
          Array.from({ length: TOTAL }, (_, i) => post(server.url, agent, seeded.key, i)),
        );
        const acceptedAt = performance.now();
        const receivedAtAccept = sink.messages.length;
        agent.destroy();
        const ids = outcomes.flatMap((o) => ('id' in o && o.id ? [o.id] : []));
        assert.deepEqual(
          outcomes.filter((o) => !('status' in o) || o.status !== 202),
          [],
          'the whole burst is accepted',
        );
        await sink.waitFor((m) => m.length >= KILL_AFTER_RECEIVED, 60_000);
        await server.kill9();
        const killedAt = performance.now();
        const receivedAtKill = sink.messages.length;
        assert.ok(
          receivedAtKill < ids.length,
          `the kill came while mail was still going out (${receivedAtKill} of ${ids.length} received)`,
        );

        // What the dead worker held: claimed and not finished, i.e. in flight when it died.
        const held = await db.db.selectFrom('jobs').select('id').where('locked_by', 'is not', null).execute();
        assert.ok(held.length <= CONCURRENCY, `${held.length} jobs held, more than ${CONCURRENCY} in flight`);
        // The restarted server runs on the real clock; the dead worker's leases would end LEASE_MS
        // (the default POSTHORN_QUEUE_LEASE) from now. Moving them back by exactly the lease stands for waiting that long.
        await db.db
          .updateTable('jobs')
          .set((eb) => ({ run_at: eb('run_at', '-', LEASE_MS), locked_until: eb('locked_until', '-', LEASE_MS) }))
          .where('locked_by', 'is not', null)
          .execute();

        const restarted = await startServer(env, roles);
        let stopped = false;
        try {
          // Every recipient committed before the kill (a superset of the 202s: a 202 can be cut on its way).
          const stored = await db.db.selectFrom('recipients').select(['message_id', 'address']).execute();
          const storedIds = new Set(stored.map((r) => r.message_id));
          assert.deepEqual(
            ids.filter((id) => !storedIds.has(id)),
            [],
            'every id that got 202 is stored',
          );
          const expected = new Set(stored.map((r) => r.address.toLowerCase()));
          const got = arrivals();
          await sink
            .waitFor((messages) => {
              got.update(messages);
              return [...expected].every((a) => got.counts.has(a));
            }, DELIVER_ALL_TIMEOUT_MS)
            .catch((err: Error) => {
              const missing = [...expected].filter((a) => !got.counts.has(a));
              throw new Error(
                `${missing.length} accepted recipients never reached the sink (e.g. ${missing.slice(0, 3).join(', ')}): ${err.message}`,
              );
            });
          const deliveredAt = performance.now();
          assert.equal(await restarted.stop(), 0, 'a clean SIGTERM stop');
          stopped = true;
          got.update(sink.messages);

          const ok = new Set(
            outcomes.flatMap((o, i) => ('status' in o && o.status === 202 ? [`r${i}@example.org`] : [])),
          );
          assert.deepEqual(
            [...ok].filter((a) => !got.counts.has(a)),
            [],
            "every 202'd recipient arrived",
          );
          const twice = [...got.counts].filter(([, n]) => n > 1);
          assert.ok(
            twice.every(([, n]) => n === 2),
            'nothing arrived three times',
          );
          assert.ok(
            twice.length <= held.length,
            `${twice.length} recipients arrived twice, but only ${held.length} deliveries were in flight`,
          );
          assert.ok(twice.length <= CONCURRENCY);
          assert.equal(got.counts.size, expected.size, 'nothing arrived that was not accepted');

          // The queue is empty and each recipient has exactly one outcome: delivered.
          assert.equal((await db.db.selectFrom('jobs').select('id').execute()).length, 0, 'no job left');
          const outcomesByEvent = await db.db
            .selectFrom('events')
            .select(['event', 'recipient'])
            .where('event', 'in', ['delivered', 'failed', 'rejected-by-mta'])
            .execute();
          assert.ok(
            outcomesByEvent.every((e) => e.event === 'delivered'),
            'no failures',
          );
          assert.equal(outcomesByEvent.length, stored.length, 'one delivered event per recipient');
          assert.equal(new Set(outcomesByEvent.map((e) => e.recipient)).size, stored.length);

          t.diagnostic(
            `${dialect}: ${ids.length} accepted in ${Math.round(acceptedAt - started)} ms (${receivedAtAccept} at the sink by then); ` +
              `killed at ${receivedAtKill} received, ${Math.round(killedAt - started)} ms; ${held.length} held, ${twice.length} arrived twice; ` +
              `all ${expected.size} at the sink ${Math.round(deliveredAt - killedAt)} ms after the kill; ${sink.socketErrors.length} sink socket errors`,
          );
        } finally {
          if (!stopped) await restarted.kill9();
        }
      } finally {
        await sink.close();
        await dns.close();
        await db.close();
      }
    });

    test('SIGTERM with a delivery in flight: it finishes and is recorded, and the process exits 0 within a bounded time', async () => {
      const db = await createTestDb(dialect);
      const sink = await startSinkMx({ slowDataMs: 1500 });
      const dns = await startDnsServer({ 'example.org': { MX: [{ exchange: '127.0.0.1', priority: 10 }] } });
      try {
        const seeded = await seedDomain({ db: db.db, clock: systemClock, ids: createIds() }, { domain: 'acme.test' });
        await giveRealDkimKey(db.db, seeded.domainId);
        const server = await startServer(
          {
            ...db.env,
            ...deliveringEnv(dns, sink),
          },
          { args: ['--roles', 'api,delivery'] },
        );
        const agent = new https.Agent({ ca: readFileSync(join(db.dataDir, 'tls', 'cert.pem')) });
        const body = JSON.stringify({
          from: 'hello@acme.test',
          to: 'slow-term@example.org',
          subject: 'Slow',
          html: '<p>x</p>',
        });
        const res = await new Promise<number>((resolve, reject) => {
          https
            .request(
              `${server.url}/v1/send`,
              {
                method: 'POST',
                agent,
                headers: {
                  authorization: `Bearer ${seeded.key}`,
                  'content-type': 'application/json',
                  'content-length': Buffer.byteLength(body),
                },
              },
              (r) => {
                r.resume();
                r.on('end', () => resolve(r.statusCode ?? 0));
              },
            )
            .on('error', reject)
            .end(body);
        });
        agent.destroy();
        assert.equal(res, 202);
        await sink.waitFor((_m, s) => s.openConnections > 0, 10_000);
        const started = performance.now();
        const code = await server.stop();
        const took = performance.now() - started;
        assert.equal(code, 0, server.stderr());
        assert.ok(took < 8_000, `stopping took ${Math.round(took)} ms`);
        assert.deepEqual(
          sink.messages.map((m) => m.rcptTo),
          [['slow-term@example.org']],
          'the delivery in flight was finished',
        );
        assert.deepEqual(await db.db.selectFrom('jobs').select('id').execute(), [], 'and recorded: no job left');
        const events = await db.db
          .selectFrom('events')
          .select('event')
          .where('recipient', '=', 'slow-term@example.org')
          .orderBy('occurred_at')
          .orderBy('id')
          .execute();
        assert.deepEqual(
          events.map((e) => e.event),
          ['accepted-by-system', 'accepted-by-mta', 'delivered'],
        );
      } finally {
        await sink.close();
        await dns.close();
        await db.close();
      }
    });
  });
}
