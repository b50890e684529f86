// Sends in the first seconds after a fresh start: every one is accepted. On PostgreSQL the event
// partitions used to be made by the scheduler while the API already took traffic, and an insert
// racing the move of rows out of the DEFAULT partition failed a whole group commit with a 500.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import https from 'node:https';
import { systemClock } from '../../src/core/clock.js';
import { createIds } from '../../src/core/ids.js';
import { createTestDb, testDialects } from '../helpers/test-db.js';
import { seedDomain } from '../helpers/seed.js';
import { postSendHttps } from '../helpers/https-send.js';
import { startServer, type RunningServer } from '../helpers/spawn-server.js';
import { listEventPartitions, partitionFor } from '../../src/storage/event-partitions.js';

const TOTAL = 600;

for (const dialect of testDialects()) {
  test(`a fresh start on ${dialect} under 50 concurrent senders from the first moment until the month is partitioned: every send accepted`, async () => {
    const db = await createTestDb(dialect);
    let server: RunningServer | undefined;
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
      server = await startServer(env, { args: ['--roles', 'api,scheduler'] });
      const agent = new https.Agent({
        keepAlive: true,
        maxSockets: 100,
        ca: readFileSync(join(db.dataDir, 'tls', 'cert.pem')),
      });
      const url = server.url;
      // Sends go on from the first moment until the current month has its partition (made by the
      // scheduler's first run on the old code, while sends were already coming in) and 600 more.
      const outcomes: Awaited<ReturnType<typeof postSendHttps>>[] = [];
      let partitionedAt: number | null = dialect === 'postgres' ? null : 0;
      const deadline = Date.now() + 60_000;
      const watcher = (async () => {
        while (partitionedAt === null && Date.now() < deadline) {
          const names = (await listEventPartitions(db.db)).map((p) => p.name);
          if (names.includes(partitionFor(Date.now()).name)) partitionedAt = outcomes.length;
          else await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      let i = 0;
      const sender = async (): Promise<void> => {
        while (Date.now() < deadline && (partitionedAt === null || outcomes.length < partitionedAt + TOTAL)) {
          const n = i++;
          outcomes.push(
            await postSendHttps(url, agent, seeded.key, {
              from: 'hello@acme.test',
              to: `user${n}@example.org`,
              subject: `Receipt ${n}`,
              text: 'hello',
            }),
          );
        }
      };
      await Promise.all([watcher, ...Array.from({ length: 50 }, () => sender())]);
      assert.notEqual(partitionedAt, null, 'the current month got its partition');
      agent.destroy();
      const refused = outcomes.filter((o) => !('status' in o) || o.status !== 202);
      assert.deepEqual(refused.slice(0, 3), [], `${refused.length} of ${outcomes.length} not accepted`);
      const { count } = await db.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(count), outcomes.length, 'one accepted-by-system event per send');
      assert.equal(await server.stop(), 0);
    } finally {
      await server?.kill9();
      await db.close();
    }
  });
}
