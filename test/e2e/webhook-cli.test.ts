// `posthorn webhook set|rotate|show|remove|test|replay` as real child processes (docs/webhooks.md), on SQLite.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { writeEvents, type NewEvent } from '../../src/events/write-events.js';
import { createCliDb, type CliDb } from '../helpers/cli-db.js';
import { runCli, type CliResult } from '../helpers/run-cli.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

function ok(r: CliResult): void {
  assert.equal(r.code, 0, `exit ${r.code}; stderr: ${r.stderr}`);
}

describe('posthorn webhook (sqlite)', () => {
  let db: CliDb;
  const cli = (...args: string[]): Promise<CliResult> => db.cli(...args);

  before(async () => {
    db = await createCliDb('sqlite');
    ok(await cli('account', 'create', 'acme'));
    ok(await cli('domain', 'add', 'acme.test', '--account', 'acme'));
  });
  after(() => db.close());

  test('bad URLs are refused with one line naming the problem, and nothing is stored', async () => {
    const cases: [string, RegExp][] = [
      ['not-a-url', /webhook URL "not-a-url" is not an absolute URL/],
      ['http://hooks.example.com/in', /webhook URL must use https/],
      ['ftp://hooks.example.com/in', /must use https, not ftp/],
      ['https://127.0.0.1/in', /host 127\.0\.0\.1 is not a public address/],
      ['https://10.0.0.1/in', /host 10\.0\.0\.1 is not a public address/],
      ['https://169.254.169.254/', /host 169\.254\.169\.254 is not a public address/],
      ['https://[::ffff:127.0.0.1]/', /host ::ffff:7f00:1 is not a public address/],
      ['https://localhost/in', /host localhost is loopback/],
    ];
    for (const [url, why] of cases) {
      const r = await cli('webhook', 'set', 'acme.test', url);
      assert.equal(r.code, 1, url);
      assert.equal(r.stdout, '', url);
      assert.match(r.stderr, why, url);
      assert.equal(r.stderr.trim().split('\n').length, 1, `one line for ${url}: ${r.stderr}`);
      assert.match(r.stderr, /^posthorn: /);
    }
    const json = await cli('webhook', 'set', 'acme.test', 'http://hooks.example.com/', '--json');
    assert.equal(json.code, 1);
    assert.match(json.json.error, /must use https/);
    const unknown = await cli('webhook', 'set', 'nope.test', 'https://hooks.example.com/');
    assert.match(unknown.stderr, /no domain named "nope\.test"/);
    const none = await cli('webhook', 'show', 'acme.test');
    assert.equal(none.code, 1);
    assert.match(none.stderr, /acme\.test has no webhook; set one with: posthorn webhook set acme\.test URL/);
  });

  test('set shows the secret once; a second set keeps it; rotate shows a new one; show never prints a secret; remove says what was dropped', async () => {
    const created = await cli('webhook', 'set', 'acme.test', 'https://hooks.example.com/posthorn', '--json');
    ok(created);
    assert.equal(created.json.domain, 'acme.test');
    assert.equal(created.json.url, 'https://hooks.example.com/posthorn');
    assert.match(created.json.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    const secret: string = created.json.secret;

    const again = await cli('webhook', 'set', 'acme.test', 'https://hooks.example.com/v2');
    ok(again);
    assert.match(again.stdout, /the signing secret is unchanged/);
    assert.ok(!again.stdout.includes('whsec_'));
    const againJson = await cli('webhook', 'set', 'acme.test', 'https://hooks.example.com/v2', '--json');
    assert.equal(againJson.json.secret, null);

    const rotated = await cli('webhook', 'rotate', 'acme.test');
    ok(rotated);
    const fresh = /secret: (whsec_\S+)/.exec(rotated.stdout)?.[1];
    assert.ok(fresh && fresh !== secret, rotated.stdout);
    assert.match(rotated.stdout, /previous secret keeps signing beside it until \d{4}-\d\d-\d\dT/);

    for (const args of [
      ['webhook', 'show', 'acme.test'],
      ['webhook', 'show', 'acme.test', '--json'],
    ]) {
      const shown = await cli(...args);
      ok(shown);
      assert.ok(
        !shown.stdout.includes(secret) && !shown.stdout.includes(fresh) && !shown.stdout.includes('whsec_'),
        'no secret value in show',
      );
    }
    const shown = await cli('webhook', 'show', 'acme.test', '--json');
    assert.equal(shown.json.url, 'https://hooks.example.com/v2');
    assert.equal(shown.json.status, 'active');
    assert.equal(shown.json.secrets.length, 2);
    assert.equal(shown.json.pending, 0);
    assert.deepEqual(shown.json.last_attempts, []);
    const text = await cli('webhook', 'show', 'acme.test');
    assert.match(text.stdout, /status: +active/);
    assert.match(text.stdout, /attempts: none yet/);

    const removed = await cli('webhook', 'remove', 'acme.test', '--json');
    ok(removed);
    assert.deepEqual(removed.json, { domain: 'acme.test', removed: true, dropped_pending: 0 });
    assert.equal((await cli('webhook', 'show', 'acme.test')).code, 1);
  });
});

describe('posthorn webhook test and replay (sqlite)', () => {
  let db: CliDb;
  let receiver: WebhookReceiver;
  // POSTHORN_WEBHOOK_ALLOW_PRIVATE=1, as in the other webhook tests, so the loopback receiver is reachable.
  const cli = (...args: string[]): Promise<CliResult> =>
    runCli(args, {
      ...db.env,
      POSTHORN_SANDBOX: '0',
      POSTHORN_HOSTNAME: 'mail.posthorn.test',
      POSTHORN_WEBHOOK_ALLOW_PRIVATE: '1',
    });

  before(async () => {
    db = await createCliDb('sqlite');
    receiver = await startWebhookReceiver();
    ok(await cli('account', 'create', 'acme'));
    ok(await cli('domain', 'add', 'acme.test', '--account', 'acme'));
  });
  after(async () => {
    await receiver.close();
    await db.close();
  });

  test('test POSTs one signed webhook.test now and prints the answer; a non-2xx answer exits 1', async () => {
    const set = await cli('webhook', 'set', 'acme.test', receiver.url, '--json');
    ok(set);
    const secret: string = set.json.secret;
    const tested = await cli('webhook', 'test', 'acme.test', '--json');
    ok(tested);
    assert.equal(tested.json.domain, 'acme.test');
    assert.equal(tested.json.status, 200);
    assert.equal(tested.json.response, 'ok');
    assert.equal(receiver.received.length, 1);
    const got = receiver.received[0]!;
    const payload = new Webhook(secret).verify(got.body, {
      'webhook-id': got.id,
      'webhook-timestamp': got.timestamp,
      'webhook-signature': got.signature,
    }) as { event: string; id: string };
    assert.equal(payload.event, 'webhook.test');
    assert.equal(payload.id, tested.json.id);

    receiver.answer(() => ({ status: 503, body: 'down for maintenance' }));
    const failing = await cli('webhook', 'test', 'acme.test');
    assert.equal(failing.code, 1);
    assert.match(failing.stdout, /HTTP 503 in \d+ ms: "down for maintenance"/);
    assert.match(failing.stderr, /^posthorn: the webhook of acme\.test did not answer the test with 2xx: HTTP 503/);
    receiver.answer(() => ({ status: 200, body: 'ok' }));
  });

  test('replay queues the window’s stored events with their ids; bad options are refused in one line; the CLI’s changes are audited as cli', async () => {
    const domain = await db.db
      .selectFrom('domains')
      .select(['id', 'account_id'])
      .where('name', '=', 'acme.test')
      .executeTakeFirstOrThrow();
    const base = Date.UTC(2026, 10, 20, 12);
    const events: NewEvent[] = [0, 1, 2].map((i) => ({
      id: `evt_01JD8X4Y2Z3A4B5C6D7E8F9G0${i}`,
      accountId: domain.account_id,
      domainId: domain.id,
      messageId: `msg_01JD8X4Y2Z3A4B5C6D7E8F9G0${i}`,
      event: 'delivered',
      recipient: `r${i}@example.org`,
      from: 'orders@acme.test',
      subject: 'Order',
      tags: [],
      details: {},
      occurredAt: base + i * 3_600_000,
    }));
    await db.db.transaction().execute((trx) => writeEvents(trx, events));
    const before = await db.db.selectFrom('webhook_deliveries').select('id').execute();

    const replayed = await cli(
      'webhook',
      'replay',
      'acme.test',
      '--start',
      '2026-11-20T12:00:00Z',
      '--end',
      '2026-11-20T13:00:00Z',
      '--json',
    );
    ok(replayed);
    assert.deepEqual(replayed.json, { domain: 'acme.test', queued: 2 });
    const copies = await db.db
      .selectFrom('webhook_deliveries')
      .select(['event_id', 'state'])
      .where(
        'id',
        'not in',
        before.map((b) => b.id),
      )
      .execute();
    assert.deepEqual(copies.map((c) => c.event_id).sort(), [events[0]!.id, events[1]!.id]);
    assert.ok(copies.every((c) => c.state === 'pending'));

    const bad = await cli('webhook', 'replay', 'acme.test', '--start', 'last tuesday', '--end', '2026-11-20T13:00:00Z');
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^posthorn: start must be a Unix timestamp/);
    assert.equal(bad.stderr.trim().split('\n').length, 1);
    const missing = await cli('webhook', 'replay', 'acme.test', '--start', '2026-11-20T12:00:00Z');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /needs --start TIME and --end TIME/);

    const audit = await db.db
      .selectFrom('audit_log')
      .select(['actor', 'action', 'target', 'ip'])
      .orderBy('at')
      .orderBy('id')
      .execute();
    const webhookEntries = audit.filter((a) => a.action.startsWith('webhook.'));
    assert.deepEqual(
      webhookEntries.map((a) => a.action),
      ['webhook.set', 'webhook.test', 'webhook.test', 'webhook.replay'],
    );
    assert.ok(webhookEntries.every((a) => a.actor === 'cli' && a.ip === null));
  });
});
