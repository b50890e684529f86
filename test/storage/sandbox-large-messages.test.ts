// A sandbox message over 1 MiB is kept in 1 MiB parts, written one statement at a time in one
// transaction (docs/security.md, "Connections and memory"), and every reader sees the whole bytes.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PREFETCH_WINDOW_MS } from '../../src/tracking/automated.js';
import { sandboxList, sandboxShow } from '../../src/cli/sandbox-commands.js';
import type { CommandOutput } from '../../src/cli/command.js';
import { migrate } from '../../src/storage/migrate.js';
import { createSandboxTransport } from '../../src/sandbox/sandbox-transport.js';
import { readSandboxRaw, SANDBOX_PART_BYTES } from '../../src/sandbox/sandbox-raw.js';
import { runSandboxTriggers } from '../../src/sandbox/sandbox-triggers.js';
import { createTestDb, testDialects } from '../helpers/test-db.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { createDeliveryHarness, SENDER_DOMAIN, type DeliveryHarness } from '../helpers/delivery-harness.js';

const MIB = 1024 * 1024;

/** About 3 MiB holding every byte value, with a CRLF split across the first part boundary. */
function largeMessage(): Buffer {
  const header = Buffer.from('Message-ID: <msg_large@acme.test>\r\nSubject: Large one\r\nMIME-Version: 1.0\r\n\r\n');
  const raw = Buffer.alloc(3 * MIB + 100);
  header.copy(raw);
  for (let i = header.length; i < raw.length; i++) raw[i] = i % 256;
  raw[SANDBOX_PART_BYTES - 1] = 0x0d;
  raw[SANDBOX_PART_BYTES] = 0x0a;
  return raw;
}

const SMALL = Buffer.from(
  'Message-ID: <msg_small@acme.test>\r\nSubject: =?UTF-8?B?U23DpGxs?=\r\n and more\r\n\r\nHello \xe9\r\n',
  'latin1',
);

/** What `sandbox list` and `sandbox show` printed when every message was read whole from its row. */
function listedBefore(rows: { id: string; created_at: number; recipients: string; raw: Buffer }[], subjects: string[]) {
  return rows
    .map(
      (r, i) =>
        `${r.id}  ${new Date(r.created_at).toISOString()}  ${JSON.parse(r.recipients).join(', ')}  ${subjects[i]}`,
    )
    .join('\n');
}

const out = (o: CommandOutput | number): CommandOutput => {
  assert.notEqual(typeof o, 'number');
  return o as CommandOutput;
};

// SQLite twice: on one connection (a CLI command's) and with the server's writer thread.
const setups = [
  ...testDialects().map((d) => ({ dialect: d, writerThread: false })),
  { dialect: 'sqlite' as const, writerThread: true },
];
for (const { dialect, writerThread } of setups) {
  describe(`sandbox mailbox, large messages in parts (${dialect}${writerThread ? ', writer thread' : ''})`, () => {
    let t: TestDeps | undefined;
    let h: DeliveryHarness | undefined;
    afterEach(async () => {
      await t?.close();
      await h?.close();
      t = h = undefined;
    });

    test('a 3 MiB message is stored in 1 MiB parts and reads back byte for byte; a small one stays in its row; show and list print as before; deleting the row removes its parts', async () => {
      t = await createTestDeps(dialect, { writerThread });
      const transport = createSandboxTransport(t);
      const large = largeMessage();
      const deliver = (raw: Buffer, handOver = false) =>
        transport.send({
          destinations: [],
          envelopeFrom: 'b@bounce.acme.test',
          recipients: ['you@example.org'],
          raw,
          rawHandedOver: handOver,
          attempt: 1,
        });

      // Turns of the event loop while the large message is stored: at least one between parts.
      let turns = 0;
      let spinning = true;
      const spin = (): void => {
        if (!spinning) return;
        turns++;
        setImmediate(spin);
      };
      setImmediate(spin);
      // Bytes handed over (DeliveryAttempt.rawHandedOver) are moved to the writer thread, not
      // copied, and read as empty here afterwards; bytes not handed over stay.
      const sent = Buffer.from(large);
      await deliver(sent, true);
      assert.equal(sent.length, writerThread ? 0 : large.length);
      const kept = Buffer.from(large);
      await deliver(kept);
      assert.ok(kept.equals(large));
      // That second copy is not part of what follows: its row (and with it its parts) goes.
      const second = await t.db
        .selectFrom('sandbox_messages')
        .select('id')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      await t.db.deleteFrom('sandbox_messages').where('id', '=', second.id).execute();
      spinning = false;
      t.clock.advance(1000);
      await deliver(SMALL);

      const rows = await t.db.selectFrom('sandbox_messages').selectAll().orderBy('created_at').execute();
      assert.deepEqual(
        rows.map((r) => [r.message_id, r.raw.length]),
        [
          ['msg_large', 0],
          ['msg_small', SMALL.length],
        ],
      );
      const [bigRow, smallRow] = [rows[0]!, rows[1]!];
      const parts = await t.db
        .selectFrom('sandbox_message_parts')
        .selectAll()
        .where('sandbox_message_id', '=', bigRow.id)
        .orderBy('seq')
        .execute();
      assert.deepEqual(
        parts.map((p) => [p.seq, p.bytes.length]),
        [
          [0, MIB],
          [1, MIB],
          [2, MIB],
          [3, 100],
        ],
      );
      assert.equal(parts[0]!.bytes.at(-1), 0x0d, 'the CRLF is split across the boundary');
      assert.equal(parts[1]!.bytes[0], 0x0a);
      assert.ok(turns >= parts.length, `the event loop turned between parts (${turns} turns)`);
      const none = await t.db
        .selectFrom('sandbox_message_parts')
        .select('seq')
        .where('sandbox_message_id', '=', smallRow.id)
        .execute();
      assert.equal(none.length, 0, 'a small message has no parts');

      const big = await readSandboxRaw(t.db, bigRow);
      assert.ok(big.equals(large), 'every byte back, in order');
      assert.equal(new Set(big).size, 256, 'every byte value');
      assert.ok((await readSandboxRaw(t.db, smallRow)).equals(SMALL));

      for (const [row, raw] of [
        [bigRow, large],
        [smallRow, SMALL],
      ] as const) {
        for (const id of [row.id, row.message_id]) {
          const shown = out(await sandboxShow.run({ config: t.config, args: [id], options: {} }, { json: false }));
          assert.ok(shown.text === raw.toString('utf8'), `sandbox show ${id} prints the raw source as before`);
          assert.deepEqual(shown.json, {
            id: row.id,
            message_id: row.message_id,
            mail_from: 'b@bounce.acme.test',
            to: ['you@example.org'],
            received_at: new Date(row.created_at).toISOString(),
            raw: raw.toString('utf8'),
          });
        }
      }
      const listed = out(await sandboxList.run({ config: t.config, args: [], options: {} }, { json: false }));
      assert.equal(
        listed.text,
        listedBefore(
          [smallRow, bigRow].map((r, i) => ({ ...r, raw: [SMALL, large][i]! })),
          ['Sm\u00e4ll and more', 'Large one'],
        ),
      );
      assert.deepEqual(
        (listed.json as { messages: { subject: string }[] }).messages.map((m) => m.subject),
        ['Sm\u00e4ll and more', 'Large one'],
      );

      await t.db.deleteFrom('sandbox_messages').where('id', '=', bigRow.id).execute();
      const left = await t.db.selectFrom('sandbox_message_parts').select('seq').execute();
      assert.equal(left.length, 0, "the row's parts went with it");
    });

    test('the mark and the click link of a large message are found across its parts: click@ acts', async () => {
      h = await createDeliveryHarness(dialect, { sandbox: true, env: { POSTHORN_SANDBOX: '1' } });
      await h.deps.db
        .updateTable('domains')
        .set({ track_opens: 1, track_clicks: 1 })
        .where('id', '=', h.sender.domainId)
        .execute();
      // Over 1 MiB of text before the only link, so its tracked URL is past the first part.
      const html = `<p>${'Words in a long newsletter. '.repeat(50_000)}</p><p><a href="https://docs.example/start">Start</a></p>`;
      const res = await h.send({ from: `hello@${SENDER_DOMAIN}`, to: ['click@example.org'], subject: 'Large', html });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      const id = res.body.id;
      await h.run();
      const row = await h.deps.db.selectFrom('sandbox_messages').selectAll().executeTakeFirstOrThrow();
      assert.equal(row.raw.length, 0, 'kept in parts');
      const first = await h.deps.db
        .selectFrom('sandbox_message_parts')
        .select('bytes')
        .where('sandbox_message_id', '=', row.id)
        .where('seq', '=', 0)
        .executeTakeFirstOrThrow();
      const whole = await readSandboxRaw(h.deps.db, row);
      assert.ok(whole.length > 2 * MIB);
      assert.deepEqual(
        (await h.verifyDkim(whole)).map((d) => d.result),
        ['pass'],
        'the parts join into the signed message',
      );
      assert.ok(!first.bytes.toString('latin1').includes('/c/'), 'no click link in the first part');

      h.deps.clock.advance(PREFETCH_WINDOW_MS);
      const acted = await runSandboxTriggers(h.deps, {
        trackingSecret: h.trackingSecret,
        returnPathSecret: h.returnPathSecret,
      });
      assert.equal(acted, 1);
      const clicked = await h.events(id, 'click@example.org');
      assert.deepEqual(
        clicked.map((e) => e.event),
        ['accepted-by-system', 'accepted-by-mta', 'delivered', 'opened', 'clicked'],
      );
      assert.equal(clicked[4]!.details.url, 'https://docs.example/start');
    });

    test('migration 0008 keeps the rows already in the mailbox readable, from their row', async () => {
      const db = await createTestDb(dialect, { migrateUpTo: '0007-sandbox-raw-bytes' });
      try {
        const old = [SMALL, largeMessage()];
        const rows = old.map((raw, n) => ({
          id: `sbx_${n}`,
          message_id: `msg_${n}`,
          mail_from: 'b@bounce.acme.test',
          recipients: '["you@example.org"]',
          raw,
          created_at: n,
          triggers_pending: 0,
        }));
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the table as it was before 0008
        await (db.db as any).insertInto('sandbox_messages').values(rows).execute();
        await migrate(db.db, dialect);
        const after = await db.db.selectFrom('sandbox_messages').selectAll().orderBy('id').execute();
        assert.equal(after.length, 2);
        for (const [i, r] of after.entries()) assert.ok((await readSandboxRaw(db.db, r)).equals(old[i]!), r.id);
        assert.equal((await db.db.selectFrom('sandbox_message_parts').select('seq').execute()).length, 0);
      } finally {
        await db.close();
      }
    });
  });
}
