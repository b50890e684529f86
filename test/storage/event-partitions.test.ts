// Events on PostgreSQL are partitioned by month of occurred_at (so retention is a
// partition drop); SQLite keeps one table. Both must behave the same through writeEvents, the
// events query and the retention purge.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { writeEvents, type NewEvent } from '../../src/events/write-events.js';
import { EVENT_RETENTION_MS, purgeRetention } from '../../src/events/purge-retention.js';
import {
  ensureEventPartitions,
  listEventPartitions,
  partitionFor,
  PARTITION_MONTHS_AHEAD,
} from '../../src/storage/event-partitions.js';
import { migrate } from '../../src/storage/migrate.js';
import { startScheduler } from '../../src/scheduler/start-scheduler.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { createTestDb, testDialects, type TestDb } from '../helpers/test-db.js';

const DAY = 86_400_000;

for (const dialect of testDialects()) {
  describe(`event partitions (${dialect})`, () => {
    let opened: { close(): Promise<void> }[] = [];
    afterEach(async () => {
      for (const o of opened) await o.close();
      opened = [];
    });

    async function setup(): Promise<TestDeps> {
      const t = await createTestDeps(dialect);
      opened.push(t);
      await t.db
        .insertInto('accounts')
        .values({ id: 'acc_1', name: 'a', rate_limit: 5, monthly_quota: null, created_at: t.clock.now() })
        .execute();
      return t;
    }

    function event(t: TestDeps, at: number, n: number): NewEvent {
      return {
        id: t.ids.next('evt', at),
        accountId: 'acc_1',
        domainId: 'dom_1',
        messageId: `msg_${n}`,
        event: 'delivered',
        recipient: `r${n}@example.org`,
        from: 'app@example.com',
        subject: 's',
        tags: [],
        details: {},
        occurredAt: at,
      };
    }
    const write = (t: TestDeps, events: NewEvent[]) => t.db.transaction().execute((trx) => writeEvents(trx, events));
    /** Which table holds the event: a monthly partition, events_default, or events itself on SQLite. */
    const home = async (t: TestDeps, id: string): Promise<string> =>
      dialect === 'postgres'
        ? (
            await sql<{ part: string }>`SELECT tableoid::regclass::text AS part FROM events WHERE id = ${id}`.execute(
              t.db,
            )
          ).rows[0]!.part
        : (await t.db.selectFrom('events').select('id').where('id', '=', id).executeTakeFirst())
          ? 'events'
          : '';

    test('a partition for every month retention covers and the next ones; a second call makes none', async () => {
      const t = await setup();
      const now = t.clock.now();
      const made = await ensureEventPartitions(t.db, dialect, now - EVENT_RETENTION_MS, now);
      if (dialect === 'sqlite') {
        assert.deepEqual(made, []);
        return;
      }
      const names = (await listEventPartitions(t.db)).map((p) => p.name);
      assert.deepEqual(names, made);
      assert.equal(names[0], partitionFor(now - EVENT_RETENTION_MS).name);
      assert.equal(
        names.at(-1),
        partitionFor(Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() + PARTITION_MONTHS_AHEAD, 1))
          .name,
      );
      assert.equal(names.length, new Set(names).size);
      assert.deepEqual(await ensureEventPartitions(t.db, dialect, now - EVENT_RETENTION_MS, now), []);
      const e = event(t, now, 1);
      await write(t, [e]);
      assert.equal(await home(t, e.id), partitionFor(now).name);
    });

    test('rows that landed in DEFAULT before their month had a partition are moved into it, and stay readable', async () => {
      const t = await setup();
      const now = t.clock.now();
      await ensureEventPartitions(t.db, dialect, now, now);
      // Five months ahead: past the partitions made in advance (the server was off for months).
      const later = now + 150 * DAY;
      const e = event(t, later, 2);
      await write(t, [e]);
      assert.equal(await home(t, e.id), dialect === 'postgres' ? 'events_default' : 'events');
      const made = await ensureEventPartitions(t.db, dialect, now, later);
      if (dialect === 'postgres') {
        assert.ok(made.includes(partitionFor(later).name), `made ${made.join(', ')}`);
        assert.equal(await home(t, e.id), partitionFor(later).name);
      }
      const row = await t.db.selectFrom('events').selectAll().where('id', '=', e.id).executeTakeFirstOrThrow();
      assert.equal(Number(row.occurred_at), later);
    });

    test('inserts running while a month gets its partition (rows moved out of DEFAULT) all succeed', async () => {
      const t = await setup();
      const now = t.clock.now();
      await ensureEventPartitions(t.db, dialect, now, now);
      // A month past the partitions made ahead: its rows go to DEFAULT until the scheduler (or a
      // fresh start, or a month boundary) makes its partition, while sends keep inserting.
      const later = partitionFor(now + 150 * DAY).from + DAY;
      const failures: string[] = [];
      let written = 0;
      let stop = false;
      let n = 100;
      const writer = async (): Promise<void> => {
        while (!stop) {
          const batch = [event(t, later, n++), event(t, now, n++)];
          try {
            await write(t, batch);
            written += batch.length;
          } catch (err) {
            failures.push((err as Error).message);
          }
          // better-sqlite3 is synchronous: let the rest of the test run between inserts.
          await new Promise((r) => setImmediate(r));
        }
      };
      const writers = Array.from({ length: 6 }, () => writer());
      const until = async (cond: () => boolean): Promise<void> => {
        const deadline = Date.now() + 20_000;
        while (!cond()) {
          if (Date.now() > deadline) throw new Error('timed out');
          await new Promise((r) => setImmediate(r));
        }
      };
      const finish = async (): Promise<void> => {
        stop = true;
        await Promise.all(writers);
      };
      try {
        for (let round = 0; round < 3; round++) {
          await until(() => written >= (round + 1) * 200 || failures.length > 0);
          // Each round makes the month again: its partition goes, its rows back into DEFAULT.
          if (dialect === 'postgres' && round > 0) {
            await t.db.transaction().execute(async (trx) => {
              await sql`ALTER TABLE events DETACH PARTITION ${sql.ref(partitionFor(later).name)}`.execute(trx);
              await sql`INSERT INTO events_default SELECT * FROM ${sql.ref(partitionFor(later).name)}`.execute(trx);
              await sql`DROP TABLE ${sql.ref(partitionFor(later).name)}`.execute(trx);
            });
          }
          await ensureEventPartitions(t.db, dialect, now, later);
        }
        await until(() => written >= 800 || failures.length > 0);
      } finally {
        await finish();
      }
      assert.deepEqual(failures.slice(0, 3), []);
      const { count } = await t.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(count), written);
      if (dialect === 'postgres') {
        const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM events_default`.execute(t.db);
        assert.equal(Number(rows[0]!.n), 0, 'nothing of a partitioned month stays in DEFAULT');
      }
    });

    test('sends across a month boundary: the scheduler started at the turn of the month makes the new months while inserts go on', async () => {
      const t = await setup();
      // The last second of a month, with the partitions a start makes.
      const next = partitionFor(t.clock.now() + 40 * DAY).from;
      t.clock.set(next - 1000);
      await ensureEventPartitions(t.db, dialect, t.clock.now() - EVENT_RETENTION_MS, t.clock.now());
      const failures: string[] = [];
      let written = 0;
      let stop = false;
      let n = 10_000;
      const writer = async (): Promise<void> => {
        while (!stop) {
          const at = t.clock.now();
          try {
            await write(t, [event(t, at, n++), event(t, at, n++)]);
            written += 2;
          } catch (err) {
            failures.push((err as Error).message);
          }
          await new Promise((r) => setImmediate(r));
        }
      };
      const writers = Array.from({ length: 4 }, () => writer());
      const until = async (cond: () => boolean): Promise<void> => {
        const deadline = Date.now() + 20_000;
        while (!cond()) {
          if (Date.now() > deadline) throw new Error('timed out');
          await new Promise((r) => setImmediate(r));
        }
      };
      try {
        await until(() => written >= 100 || failures.length > 0);
        t.clock.advance(2000); // past midnight: the new month
        const scheduler = startScheduler(t); // its first run is at once
        await until(() => written >= 300 || failures.length > 0);
        await scheduler.stop();
      } finally {
        stop = true;
        await Promise.all(writers);
      }
      assert.deepEqual(failures.slice(0, 3), []);
      const before = await t.db.selectFrom('events').select('id').where('occurred_at', '<', next).execute();
      const after = await t.db.selectFrom('events').select('id').where('occurred_at', '>=', next).execute();
      assert.ok(before.length > 0 && after.length > 0, 'events on both sides of the boundary');
      assert.equal(before.length + after.length, written);
      if (dialect === 'postgres') {
        assert.equal(await home(t, after[0]!.id), partitionFor(next).name, 'the new month has its own partition');
        const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM events_default`.execute(t.db);
        assert.equal(Number(rows[0]!.n), 0, 'nothing in DEFAULT');
        const names = (await listEventPartitions(t.db)).map((p) => p.name);
        assert.ok(
          names.includes(partitionFor(next + (PARTITION_MONTHS_AHEAD + 0.5) * 31 * DAY).name),
          'the months ahead now reach past the new month',
        );
      }
    });

    test('retention drops whole months as partitions and trims the month the cutoff falls in', async () => {
      const t = await setup();
      const now = t.clock.now();
      const cutoff = now - EVENT_RETENTION_MS;
      const oldMonth = partitionFor(cutoff - 40 * DAY); // wholly before the cutoff
      const cutMonth = partitionFor(cutoff);
      await ensureEventPartitions(t.db, dialect, oldMonth.from, now);
      const gone = [event(t, oldMonth.from + DAY, 3), event(t, cutoff - 1, 4)];
      const kept = [event(t, cutoff, 5), event(t, now, 6)];
      await write(t, [...gone, ...kept]);
      assert.ok(cutoff - 1 >= cutMonth.from, 'the trimmed event is in the cutoff month');
      const counts = await purgeRetention(t);
      if (dialect === 'postgres') {
        assert.deepEqual([counts.eventPartitions, counts.events], [monthsBetween(oldMonth.from, cutMonth.from), 1]);
        const names = (await listEventPartitions(t.db)).map((p) => p.name);
        assert.ok(!names.includes(oldMonth.name));
        assert.equal(names[0], cutMonth.name);
      } else {
        assert.deepEqual([counts.eventPartitions, counts.events], [0, 2]);
      }
      const left = await t.db.selectFrom('events').select('id').orderBy('id').execute();
      assert.deepEqual(
        left.map((r) => r.id),
        kept.map((e) => e.id).sort(),
      );
      assert.deepEqual(
        await purgeRetention(t).then((c) => [c.eventPartitions, c.events]),
        [0, 0],
        'a second run finds nothing',
      );
    });

    test('migration 0006 keeps every event that was there before it', async () => {
      const db: TestDb = await createTestDb(dialect, { migrateUpTo: '0005-sandbox-triggers' });
      opened.push(db);
      const rows = [1, 2, 3].map((n) => ({
        id: `evt_0${n}`,
        account_id: 'acc_1',
        domain_id: 'dom_1',
        message_id: `msg_${n}`,
        event: 'delivered',
        recipient: `r${n}@example.org`,
        from_address: 'app@example.com',
        subject: 's',
        tags: '[]',
        details: '{}',
        occurred_at: Date.UTC(2026, n, 1),
      }));
      await db.db.insertInto('events').values(rows).execute();
      // Up to 0006 only: later migrations add columns (events.metadata), which this test is not about.
      await migrate(db.db, dialect, '0006-partition-events');
      const after = await db.db.selectFrom('events').selectAll().orderBy('id').execute();
      assert.deepEqual(
        after.map((r) => ({ ...r, occurred_at: Number(r.occurred_at) })),
        rows,
      );
      if (dialect === 'postgres') {
        const { rows: parted } = await sql<{ n: string }>`SELECT count(*) AS n FROM pg_partitioned_table pt
          JOIN pg_class c ON c.oid = pt.partrelid JOIN pg_namespace ns ON ns.oid = c.relnamespace
          WHERE c.relname = 'events' AND ns.nspname = current_schema()`.execute(db.db);
        assert.equal(Number(parted[0]!.n), 1, 'events is a partitioned table');
        const made = await ensureEventPartitions(db.db, dialect, Date.UTC(2026, 1, 1), Date.UTC(2026, 3, 1));
        assert.ok(made.includes('events_p202602'));
        const { rows: homes } = await sql<{
          part: string;
        }>`SELECT tableoid::regclass::text AS part FROM events ORDER BY id`.execute(db.db);
        assert.deepEqual(
          homes.map((h) => h.part),
          ['events_p202602', 'events_p202603', 'events_p202604'],
        );
      }
    });
  });
}

/** Whole months from the one starting at `from` up to (not including) the one starting at `to`. */
function monthsBetween(from: number, to: number): number {
  let n = 0;
  for (let p = partitionFor(from); p.from < to; p = partitionFor(p.to)) n++;
  return n;
}
