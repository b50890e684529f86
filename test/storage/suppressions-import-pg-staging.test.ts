// The PostgreSQL path of a large suppression import (src/storage/pg-suppression-import.ts): rows
// staged with COPY in an unlogged table of the import's own, then merged in address order over
// two connections, one address range each. Repeats of an address in both ranges, rows already
// listed in both, an import cut off part-way, another writer adding a staged address during the
// merge, and the staging tables: dropped when the import ends, and after a crash by the next import
// or server start-up once their heartbeat is stale. PostgreSQL only (POSTHORN_TEST_DATABASE_URL).
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import type pg from 'pg';
import { createAccount } from '../../src/accounts/accounts.js';
import { CLI_ACTOR } from '../../src/core/actor.js';
import { addSuppression } from '../../src/suppression/manage-suppressions.js';
import { ImportInterrupted, importSuppressions } from '../../src/suppression/import-suppressions.js';
import { pgPool } from '../../src/storage/open-database.js';
import { startSuppressionWriter, type SuppressionInsert } from '../../src/storage/insert-suppressions.js';
import { dropStaleImportTables, STAGING_STALE_MS } from '../../src/storage/pg-suppression-import.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { startServer } from '../helpers/spawn-server.js';

const BATCH = 4;
const body = (text: string) => Readable.from([Buffer.from(text)]);
const row = (address: string, reason: SuppressionInsert['reason'] = 'manual'): SuppressionInsert => ({
  address,
  reason,
  created_at: 1_700_000_000_000,
  domain: null,
  message_id: null,
});

describe('suppression import staged on PostgreSQL', { skip: !process.env.POSTHORN_TEST_DATABASE_URL }, () => {
  let deps: TestDeps;
  let pool: pg.Pool;
  let accountId: string;
  beforeEach(async () => {
    deps = await createTestDeps('postgres');
    pool = pgPool(deps.db)!;
    accountId = (await createAccount(deps, 'acme')).id;
  });
  afterEach(() => deps.close());

  const stagingTables = async (): Promise<string[]> =>
    (
      await pool.query<{ relname: string }>(
        `SELECT relname FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relname LIKE 'suppression\\_import\\_%' ORDER BY relname`,
      )
    ).rows.map((r) => r.relname);
  const stored = async () =>
    (
      await deps.db
        .selectFrom('suppressions')
        .select(['address', 'reason'])
        .where('account_id', '=', accountId)
        .orderBy('address')
        .execute()
    ).map((r) => `${r.address} ${r.reason}`);

  test('repeats and listed addresses in both merge ranges: the first row wins, counts exact, nothing left staged', async () => {
    // a… and z… sort into different ranges whatever the split (the median of the addresses).
    for (const address of ['a-listed@example.com', 'z-listed@example.com'])
      await addSuppression(deps, accountId, { address, reason: 'complaint' }, CLI_ACTOR);
    const lines = ['address,reason'];
    for (let i = 0; i < 40; i++) lines.push(`a${String(i).padStart(2, '0')}@example.com,hard_bounce`);
    for (let i = 0; i < 40; i++) lines.push(`z${String(i).padStart(2, '0')}@example.com,hard_bounce`);
    // Repeats of the first rows, batches later, and the listed ones: all already suppressed.
    lines.push(
      'A00@EXAMPLE.COM,manual',
      'z00@example.com,manual',
      'a39@example.com,unsubscribed',
      'z39@example.com,manual',
    );
    lines.push('a-listed@example.com,manual', 'z-listed@example.com,manual');
    const first = await importSuppressions(
      deps,
      accountId,
      { format: 'csv', body: body(lines.join('\n')) },
      CLI_ACTOR,
      BATCH,
    );
    assert.deepEqual([first.imported, first.already_suppressed, first.invalid_count], [80, 6, 0]);
    const rows = await stored();
    assert.equal(rows.length, 82);
    assert.ok(rows.includes('a00@example.com hard_bounce') && rows.includes('z39@example.com hard_bounce'));
    assert.ok(rows.includes('a-listed@example.com complaint') && rows.includes('z-listed@example.com complaint'));
    assert.deepEqual(await stagingTables(), []);

    const again = await importSuppressions(
      deps,
      accountId,
      { format: 'csv', body: body(lines.join('\n')) },
      CLI_ACTOR,
      BATCH,
    );
    assert.deepEqual([again.imported, again.already_suppressed], [0, 86]);
    assert.deepEqual(await stagingTables(), []);
  });

  test('an upload cut off part-way: the staged rows are merged and counted, and the staging table dropped', async () => {
    const cut = new Readable({ read() {} });
    cut.push(`address\n${Array.from({ length: 30 }, (_, i) => `cut${i}@example.com`).join('\n')}\n`);
    const imported = importSuppressions(deps, accountId, { format: 'csv', body: cut }, CLI_ACTOR, BATCH);
    setImmediate(() => cut.destroy(new Error('the client went away')));
    const err = await imported.then(
      () => assert.fail('the import did not stop'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof ImportInterrupted, String(err));
    const rows = await stored();
    assert.ok(rows.length > 0, 'rows read before the cut are imported');
    assert.equal(err.result.imported, rows.length);
    assert.equal(err.result.already_suppressed, 0);
    assert.deepEqual(await stagingTables(), []);
  });

  test('another writer adds a staged address during the merge: the range is merged again, the address counts as already suppressed', async () => {
    const writer = startSuppressionWriter(deps.db, accountId);
    await writer.add(Array.from({ length: 20 }, (_, i) => row(`race${String(i).padStart(2, '0')}@example.com`)));
    // An uncommitted insert of one of the staged addresses: the merge's plain insert waits on it,
    // then fails on the key once it commits.
    const other = await pool.connect();
    try {
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO suppressions (account_id, address, reason, created_at) VALUES ($1, 'race07@example.com', 'complaint', 1)`,
        [accountId],
      );
      const finished = writer.finish();
      const waitingForKey = async (): Promise<boolean> =>
        (
          await pool.query(
            `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO suppressions%'`,
          )
        ).rowCount! > 0;
      while (!(await waitingForKey())) await new Promise((resolve) => setImmediate(resolve));
      await other.query('COMMIT');
      const done = await finished;
      assert.equal(done.error, null);
      assert.deepEqual([done.inserted, done.merged], [19, 20]);
    } finally {
      other.release();
      await writer.close();
    }
    const rows = await stored();
    assert.equal(rows.length, 20);
    assert.ok(rows.includes('race07@example.com complaint'));
    assert.deepEqual(await stagingTables(), []);
  });

  test('a crashed import leaves its table until its heartbeat is stale; the next import drops it', async () => {
    // A writer never closed: what a crash leaves (its heartbeat stops with it).
    const crashed = startSuppressionWriter(deps.db, accountId);
    await crashed.add([row('lost@example.com')]);
    const [table] = await stagingTables();
    assert.match(table!, /^suppression_import_[0-9a-f]{16}$/);
    // Its heartbeat is fresh: a running import on another node is left alone.
    assert.deepEqual(await dropStaleImportTables(pool), []);
    assert.deepEqual(await stagingTables(), [table]);
    const stale = Date.now() - STAGING_STALE_MS - 60_000;
    await pool.query(`COMMENT ON TABLE ${table} IS 'posthorn import alive ${stale}'`);
    // A table of that name without a heartbeat is from an import that crashed while creating it.
    await pool.query(`CREATE UNLOGGED TABLE suppression_import_0123456789abcdef (n bigint)`);

    const result = await importSuppressions(
      deps,
      accountId,
      {
        format: 'csv',
        body: body(
          'address\nnext1@example.com\nnext2@example.com\nnext3@example.com\nnext4@example.com\nnext5@example.com\n',
        ),
      },
      CLI_ACTOR,
      BATCH,
    );
    assert.equal(result.imported, 5);
    assert.deepEqual(await stagingTables(), []);
    assert.deepEqual(
      await stored(),
      [1, 2, 3, 4, 5].map((i) => `next${i}@example.com manual`),
    );
  });

  test('server start-up drops the staging tables whose heartbeat is stale, and keeps a live one', async () => {
    // The live import first: its start sweeps stale tables too.
    const live = startSuppressionWriter(deps.db, accountId);
    await live.add([row('live@example.com')]);
    const stale = Date.now() - STAGING_STALE_MS - 60_000;
    await pool.query(`CREATE UNLOGGED TABLE suppression_import_00000000000000aa (n bigint)`);
    await pool.query(`COMMENT ON TABLE suppression_import_00000000000000aa IS 'posthorn import alive ${stale}'`);
    const liveTable = (await stagingTables()).find((t) => t !== 'suppression_import_00000000000000aa')!;
    const server = await startServer(
      {
        ...deps.testDb.env,
        POSTHORN_SANDBOX: '0',
        POSTHORN_HOSTNAME: 'mail.posthorn.test',
        POSTHORN_LISTEN_HOST: '127.0.0.1',
      },
      { args: ['--roles', 'api'] },
    );
    try {
      assert.deepEqual(await stagingTables(), [liveTable]);
      assert.match(server.stdout() + server.stderr(), /suppression_import_00000000000000aa/);
    } finally {
      await server.stop();
      await live.close();
    }
    assert.deepEqual(await stagingTables(), []);
  });
});
