// Queue control and scheduled send end to end (docs/delivery.md): a real `posthorn serve`
// (api and delivery roles) on the real clock, the `posthorn queue …` CLI beside it on the same
// database, a scripted sink MX and the loopback DNS server. A scheduled message survives a restart
// of the server and arrives no earlier than its send_at; a cancelled one never arrives; a held
// domain's mail waits until it is resumed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import https from 'node:https';
import { systemClock } from '../../src/core/clock.js';
import { createIds } from '../../src/core/ids.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { postSendHttps } from '../helpers/https-send.js';
import { runCli } from '../helpers/run-cli.js';
import { giveRealDkimKey, seedDomain, type Seeded } from '../helpers/seed.js';
import { startSinkMx, type SinkMx } from '../helpers/sink-mx.js';
import { startServer, type RunningServer, deliveringEnv } from '../helpers/spawn-server.js';
import { createTestDb, testDialects, type TestDb } from '../helpers/test-db.js';

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs` saying what it waited for. */
async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await check();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** POST `path` (no body) with `key`: the status and parsed body. */
function postHttps(
  url: string,
  agent: https.Agent,
  key: string,
  path: string,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${url}${path}`,
      { method: 'POST', agent, headers: { authorization: `Bearer ${key}` } },
      (res) => {
        let data = '';
        res.setEncoding('utf8').on('data', (d: string) => {
          data += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(data) as unknown }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

for (const dialect of testDialects()) {
  describe(`queue control and scheduled send, end to end (${dialect})`, () => {
    let db: TestDb;
    let sink: SinkMx;
    let dns: DnsServer;
    let seeded: Seeded;
    let env: Record<string, string>;
    let server: RunningServer | undefined;
    let agent: https.Agent;

    const cli = (...args: string[]) => runCli(args, env);
    const start = async () => {
      server = await startServer(env, { args: ['--roles', 'api,delivery'] });
      agent = new https.Agent({ keepAlive: false, ca: readFileSync(join(db.dataDir, 'tls', 'cert.pem')) });
      return server;
    };
    const send = async (body: Record<string, unknown>): Promise<string> => {
      const out = await postSendHttps(server!.url, agent, seeded.key, {
        from: 'hello@acme.test',
        subject: 'Hello',
        html: '<p>Hi</p>',
        ...body,
      });
      assert.ok('status' in out && out.status === 202 && out.id, JSON.stringify(out));
      return out.id!;
    };
    const received = (address: string) =>
      sink.messages.filter((m) => m.rcptTo.some((r) => r.toLowerCase() === address.toLowerCase()));

    before(async () => {
      db = await createTestDb(dialect);
      sink = await startSinkMx();
      dns = await startDnsServer({ 'example.org': { MX: [{ exchange: '127.0.0.1', priority: 10 }] } });
      seeded = await seedDomain({ db: db.db, clock: systemClock, ids: createIds() }, { domain: 'acme.test' });
      await giveRealDkimKey(db.db, seeded.domainId);
      env = {
        ...db.env,
        ...deliveringEnv(dns, sink),
        POSTHORN_RETRY_SCHEDULE: '10m',
      };
      await start();
    });
    after(async () => {
      await server?.stop();
      agent?.destroy();
      await sink?.close();
      await dns?.close();
      await db?.close();
    });

    test('scheduled 3 s ahead: not delivered before send_at, survives a restart, arrives after; a cancelled one never does', async () => {
      const sendAt = Date.now() + 3_000;
      const iso = new Date(sendAt).toISOString();
      const later = await send({ to: 'later@example.org', send_at: iso });
      const doomed = await send({ to: 'doomed@example.org', send_at: iso });
      // Cancelled over the API at once (a CLI child started from source can take longer than 3 s).
      const cancel = await postHttps(server!.url, agent, seeded.key, `/v1/messages/${doomed}/cancel`);
      assert.deepEqual(cancel, { status: 200, body: { cancelled: 1 } });

      // Stop the server before the send time, and start it again on the same database.
      assert.equal(await server!.stop(), 0);
      agent.destroy();
      assert.ok(Date.now() < sendAt, 'the stop came before send_at');
      assert.equal(received('later@example.org').length, 0, 'nothing delivered before send_at');
      await start();

      await sink.waitFor(() => received('later@example.org').length > 0, 20_000);
      const [got] = received('later@example.org');
      assert.ok(
        got!.receivedAt.getTime() >= sendAt,
        `received at ${got!.receivedAt.toISOString()}, not before send_at ${iso}`,
      );
      const message = await until('the delivered event', async () => {
        const m = await cli('message', 'show', later, '--json');
        return m.json.recipients[0].status === 'delivered' ? m.json : undefined;
      });
      assert.deepEqual(
        message.events.map((e: { event: string }) => e.event),
        ['accepted-by-system', 'accepted-by-mta', 'delivered'],
      );
      // The cancelled one was due at the same moment and never went.
      assert.equal(received('doomed@example.org').length, 0);
      const again = await postHttps(server!.url, agent, seeded.key, `/v1/messages/${doomed}/cancel`);
      assert.equal(again.status, 409);
      assert.equal((again.body as { error: { type: string } }).error.type, 'conflict');
      const doomedView = await cli('message', 'show', doomed, '--json');
      assert.equal(doomedView.json.recipients[0].status, 'failed');
      assert.deepEqual(
        doomedView.json.events.map((e: { event: string; details: { reason?: string } }) => [e.event, e.details.reason]),
        [
          ['accepted-by-system', undefined],
          ['failed', 'cancelled'],
        ],
      );
    });

    test('queue show, list and cancel of a message scheduled for later', async () => {
      const iso = new Date(Date.now() + 600_000).toISOString();
      const far = await send({ to: 'far@example.org', send_at: iso });
      const shown = await cli('queue', 'show', far, '--json');
      assert.equal(shown.code, 0, shown.stderr);
      assert.equal(shown.json.send_at, iso);
      assert.equal(shown.json.recipients[0].status, 'scheduled');
      assert.equal(shown.json.recipients[0].job.status, 'scheduled');
      const scheduled = await cli('queue', 'list', '--status', 'scheduled', '--json');
      assert.deepEqual(
        scheduled.json.jobs.map((j: { message_id: string }) => j.message_id),
        [far],
      );
      const cancelled = await cli('queue', 'cancel', far, '--json');
      assert.equal(cancelled.code, 0, cancelled.stderr);
      assert.deepEqual(cancelled.json, { cancelled: 1 });
      const again = await cli('queue', 'cancel', far);
      assert.equal(again.code, 1);
      assert.match(again.stderr, /nothing of msg_\w+ is pending any more/);
    });

    test('queue suspend, list, show, holds, resume, retry and cancel beside a running server', async () => {
      const suspended = await cli(
        'queue',
        'suspend',
        '--domain',
        'example.org',
        '--reason',
        'their MX is down',
        '--json',
      );
      assert.equal(suspended.code, 0, suspended.stderr);
      assert.deepEqual(suspended.json, {
        domain: 'example.org',
        suspended: true,
        until: null,
        reason: 'their MX is down',
      });
      const holds = await cli('queue', 'holds', '--json');
      assert.deepEqual(
        holds.json.holds.map((h: { scope: string; value: string; account_only: boolean }) => [
          h.scope,
          h.value,
          h.account_only,
        ]),
        [['domain', 'example.org', false]],
      );
      const id = await send({ to: 'held@example.org' });
      await until('the held job', async () => {
        const job = await db.db.selectFrom('jobs').selectAll().where('message_id', '=', id).executeTakeFirst();
        return job?.held != null ? job : undefined;
      });
      const list = await cli('queue', 'list', '--status', 'suspended', '--domain', 'example.org', '--json');
      assert.equal(list.code, 0, list.stderr);
      assert.deepEqual(
        list.json.jobs.map((j: { message_id: string; status: string; attempts: number }) => [
          j.message_id,
          j.status,
          j.attempts,
        ]),
        [[id, 'suspended', 0]],
      );
      const text = await cli('queue', 'list');
      assert.match(
        text.stdout,
        /MESSAGE\s+RECIPIENT\s+DOMAIN\s+PROVIDER\s+STATUS\s+ATTEMPTS\s+NEXT ATTEMPT\s+LAST ERROR/,
      );
      assert.match(text.stdout, new RegExp(`${id}\\s+held@example.org\\s+example.org\\s+-\\s+suspended\\s+0`));
      assert.equal(received('held@example.org').length, 0, 'a held domain gets nothing');

      const resumed = await cli('queue', 'resume', '--domain', 'example.org', '--json');
      assert.equal(resumed.code, 0, resumed.stderr);
      assert.deepEqual(resumed.json, { domain: 'example.org', suspended: false, released: 1 });
      await sink.waitFor(() => received('held@example.org').length > 0, 20_000);
      const notHeld = await cli('queue', 'resume', '--domain', 'example.org');
      assert.equal(notHeld.code, 1);
      assert.match(notHeld.stderr, /not suspended/);

      // A deferral (the sink answers 451): listed by provider, retried now (a second attempt), cancelled.
      const deferred = await send({ to: 'defer-x@example.org' });
      const first = await until('the first attempt', async () => {
        const job = await db.db.selectFrom('jobs').selectAll().where('message_id', '=', deferred).executeTakeFirst();
        return job !== undefined && job.attempts === 1 && job.locked_by === null ? job : undefined;
      });
      assert.equal(first.provider, 'other');
      const byProvider = await cli('queue', 'list', '--provider', 'other', '--status', 'deferred', '--json');
      assert.equal(byProvider.json.jobs[0].message_id, deferred);
      assert.match(byProvider.json.jobs[0].last_reply, /^451/);
      const retried = await cli('queue', 'retry', '--provider', 'other', '--json');
      assert.deepEqual(retried.json, { retried: 1 });
      await until('the second attempt', async () => {
        const job = await db.db.selectFrom('jobs').selectAll().where('message_id', '=', deferred).executeTakeFirst();
        return job !== undefined && job.attempts === 2 && job.locked_by === null ? job : undefined;
      });
      const byId = await cli('queue', 'retry', deferred, '--json');
      assert.deepEqual(byId.json, { retried: 1 });
      const gone = await until('the cancel (not during an attempt)', async () => {
        const c = await cli('queue', 'cancel', deferred, '--json');
        return c.code === 0 ? c.json : undefined;
      });
      assert.deepEqual(gone, { cancelled: 1 });
      const empty = await cli('queue', 'list', '--json');
      assert.deepEqual(empty.json.jobs, []);
    });

    test('usage errors exit 2; --help for each queue command; refusals exit 1', async () => {
      for (const args of [
        ['queue', 'retry'],
        ['queue', 'retry', 'msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H', '--domain', 'example.org'],
        ['queue', 'suspend'],
        ['queue', 'suspend', '--domain', 'example.org', '--provider', 'gmail'],
        ['queue', 'resume'],
        ['queue', 'list', '--status', 'lost'],
        ['queue', 'list', '--limit', '0'],
        ['queue', 'cancel'],
        ['queue', 'show', 'a', 'b'],
      ]) {
        const r = await cli(...args);
        assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, /see posthorn --help/);
      }
      for (const words of ['list', 'show', 'retry', 'cancel', 'suspend', 'resume', 'holds']) {
        const r = await cli('queue', words, '--help');
        assert.equal(r.code, 0);
        assert.match(r.stdout, new RegExp(`queue ${words}`));
      }
      const unknown = await cli('queue', 'cancel', 'msg_01JD8X4Y2Z3A4B5C6D7E8F9G0H');
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /no message/);
      const badProvider = await cli('queue', 'suspend', '--provider', 'hotmail');
      assert.equal(badProvider.code, 1);
      assert.match(badProvider.stderr, /provider must be one of gmail, outlook, yahoo, apple, other/);
      const badUntil = await cli('queue', 'suspend', '--domain', 'example.org', '--until', 'soon');
      assert.equal(badUntil.code, 1);
      assert.match(badUntil.stderr, /until/);
    });
  });
}
