// Crash safety of intake: kill -9 of the server during 2,000 concurrent sends, then a restart —
// every id that got 202 is in the database with its recipient, its accepted-by-system event and its
// job; none partial.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import https from 'node:https';
import { systemClock } from '../../src/core/clock.js';
import { createIds } from '../../src/core/ids.js';
import { createTestDb, testDialects } from '../helpers/test-db.js';
import { seedDomain } from '../helpers/seed.js';
import { postSendHttps, type SendOutcome } from '../helpers/https-send.js';
import { startServer } from '../helpers/spawn-server.js';

const TOTAL = 2000;
const KILL_AFTER_ACCEPTED = 400;

const post = (url: string, agent: https.Agent, key: string, i: number): Promise<SendOutcome> =>
  postSendHttps(url, agent, key, {
    from: 'hello@acme.test',
    to: `user${i}@example.org`,
    subject: `Receipt ${i}`,
    html: `<p>${'x'.repeat(4000)}</p>`,
  });

for (const dialect of testDialects()) {
  describe(`crash safety of accepted sends (${dialect})`, () => {
    test('kill -9 during 2,000 concurrent sends loses no accepted message and leaves none partial', async () => {
      const db = await createTestDb(dialect);
      try {
        const seeded = await seedDomain(
          { db: db.db, clock: systemClock, ids: createIds() },
          { domain: 'acme.test', rateLimit: 1_000_000 },
        );
        const env = {
          ...db.env,
          POSTHORN_SANDBOX: '0',
          POSTHORN_HOSTNAME: 'mail.posthorn.test',
          POSTHORN_LISTEN_HOST: '127.0.0.1',
        };
        const server = await startServer(env, { args: ['--roles', 'api'] });
        const ca = readFileSync(join(db.dataDir, 'tls', 'cert.pem'));
        const agent = new https.Agent({ keepAlive: true, maxSockets: 100, ca });
        let accepted = 0;
        let killed: Promise<void> | null = null;
        const outcomes = await Promise.all(
          Array.from({ length: TOTAL }, (_, i) =>
            post(server.url, agent, seeded.key, i).then((o) => {
              if ('status' in o && o.status === 202 && ++accepted === KILL_AFTER_ACCEPTED) killed = server.kill9();
              return o;
            }),
          ),
        );
        await killed;
        agent.destroy();
        const ids = outcomes.flatMap((o) => ('id' in o && o.id ? [o.id] : []));
        const failed = outcomes.filter((o) => 'error' in o).length;
        assert.ok(ids.length >= KILL_AFTER_ACCEPTED, `accepted ${ids.length}`);
        assert.ok(failed > 0, 'the kill must have cut requests in flight');
        assert.ok(
          outcomes.every((o) => 'error' in o || o.status === 202),
          'no refusals besides the cut connections',
        );

        const restarted = await startServer(env, { args: ['--roles', 'api'] });
        try {
          const messages = await db.db.selectFrom('messages').select('id').execute();
          const stored = new Set(messages.map((m) => m.id));
          const missing = ids.filter((id) => !stored.has(id));
          assert.deepEqual(missing, [], 'every id that got 202 is stored');
          const perMessage = async (table: 'recipients' | 'jobs' | 'events') => {
            const rows = await db.db.selectFrom(table).select('message_id').execute();
            const counts = new Map<string, number>();
            for (const r of rows) counts.set(r.message_id, (counts.get(r.message_id) ?? 0) + 1);
            return counts;
          };
          const [recipients, jobs, events] = await Promise.all([
            perMessage('recipients'),
            perMessage('jobs'),
            perMessage('events'),
          ]);
          for (const id of stored) {
            assert.equal(recipients.get(id), 1, `recipient of ${id}`);
            assert.equal(jobs.get(id), 1, `job of ${id}`);
            assert.equal(events.get(id), 1, `accepted-by-system event of ${id}`);
          }
          assert.equal(recipients.size, stored.size, 'no recipient without its message');
          assert.equal(jobs.size, stored.size, 'no job without its message');
          // The restarted server answers for them over the API too.
          const sample = ids[ids.length - 1] as string;
          const res = await fetchEvents(restarted.url, ca, seeded.key, sample);
          assert.deepEqual(
            res.events.map((e) => e.event),
            ['accepted-by-system'],
          );
        } finally {
          assert.equal(await restarted.stop(), 0);
        }
      } finally {
        await db.close();
      }
    });
  });
}

function fetchEvents(
  url: string,
  ca: Buffer,
  key: string,
  messageId: string,
): Promise<{ events: { event: string }[] }> {
  return new Promise((resolve, reject) => {
    https
      .get(`${url}/v1/events?message_id=${messageId}`, { ca, headers: { authorization: `Bearer ${key}` } }, (res) => {
        let data = '';
        res.setEncoding('utf8').on('data', (d: string) => {
          data += d;
        });
        res.on('end', () =>
          res.statusCode === 200 ? resolve(JSON.parse(data)) : reject(new Error(`${res.statusCode} ${data}`)),
        );
      })
      .on('error', reject);
  });
}
