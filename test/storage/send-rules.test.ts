import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { authenticate } from '../../src/credentials/authenticate.js';
import { buildApp } from '../../src/http/build-app.js';
import { createSubmitPipeline } from '../../src/send/submit.js';
import type { MessageDraft } from '../../src/mime/message-draft.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';
import { seedDomain } from '../helpers/seed.js';
import { message, postSend } from '../helpers/send-client.js';

for (const dialect of testDialects()) {
  describe(`POST /v1/send rules (${dialect})`, () => {
    let deps: TestDeps;
    let app: FastifyInstance;
    beforeEach(async () => {
      deps = await createTestDeps(dialect);
      app = buildApp(deps);
    });
    afterEach(async () => {
      await app.close();
      await deps.close();
    });

    const count = async (table: 'messages' | 'recipients' | 'jobs' | 'events') =>
      (await deps.db.selectFrom(table).select('id').execute()).length;

    test('202 commits the message, a recipient, an accepted-by-system event and a job per recipient', async () => {
      const s = await seedDomain(deps, { domain: 'acme.test' });
      const res = await postSend(
        app,
        s.key,
        message('acme.test', {
          to: ['A <a@example.org>', 'b@example.net', 'A@EXAMPLE.ORG'],
          text: 'plain',
          tags: ['receipt'],
          headers: { 'X-Order': '4711' },
        }),
      );
      assert.equal(res.status, 202);
      assert.match(res.body.id, /^msg_[0-9A-Z]{26}$/);
      assert.deepEqual({ ...res.body, id: 'x' }, { id: 'x', status: 'queued', dkim: 'signed', dmarc: 'aligned' });
      const msg = await deps.db
        .selectFrom('messages')
        .selectAll()
        .where('id', '=', res.body.id)
        .executeTakeFirstOrThrow();
      const draft = JSON.parse(msg.content as string) as MessageDraft;
      assert.equal(draft.messageId, `<${res.body.id}@mail.posthorn.test>`);
      assert.deepEqual(draft.headers, [['X-Order', '4711']]);
      const rcpts = await deps.db
        .selectFrom('recipients')
        .select(['address', 'domain'])
        .where('message_id', '=', res.body.id)
        .orderBy('address')
        .execute();
      assert.deepEqual(rcpts, [
        { address: 'a@example.org', domain: 'example.org' },
        { address: 'b@example.net', domain: 'example.net' },
      ]); // duplicate sent once
      const events = await deps.db
        .selectFrom('events')
        .select(['event', 'recipient', 'tags', 'from_address'])
        .where('message_id', '=', res.body.id)
        .execute();
      assert.equal(events.length, 2);
      assert.ok(
        events.every(
          (e) => e.event === 'accepted-by-system' && e.tags === '["receipt"]' && e.from_address === 'hello@acme.test',
        ),
      );
      assert.equal(
        (await deps.db.selectFrom('jobs').select('id').where('message_id', '=', res.body.id).execute()).length,
        2,
      );
      const vol = await deps.db.selectFrom('volume').selectAll().executeTakeFirstOrThrow();
      assert.deepEqual([vol.month, vol.count], ['2026-11', 2]);
    });

    test('from rules run in the order docs/api.md gives', async () => {
      const pending = await seedDomain(deps, { domain: 'pending.test', status: 'pending', rateLimit: 100 });
      const key = await seedDomain(deps, { domain: 'acme.test' });
      await seedDomain(deps, { domain: 'brand.test' });
      await seedDomain(deps, { domain: 'warned.test', status: 'warning' });
      await seedDomain(deps, { domain: 'new.test', status: 'pending' });
      await seedDomain(deps, { account: 'someone-else', domain: 'foreign.test' });

      // 1. the key's own domain must be verified, even when from names a verified domain
      let res = await postSend(app, pending.key, message('acme.test'));
      assert.deepEqual([res.status, res.body.error.type, res.body.error.field], [403, 'domain_unverified', 'from']);
      // 2. from must be a verified domain of the same account: refused, never rewritten
      for (const from of ['x@gmail.com', 'x@foreign.test', 'x@new.test', 'x@sub.acme.test']) {
        res = await postSend(app, key.key, message('acme.test', { from }));
        assert.deepEqual(
          [res.status, res.body.error.type, res.body.error.field],
          [403, 'domain_unverified', 'from'],
          from,
        );
      }
      // 3. another verified domain of the account is rewritten to the key's domain, name and local part kept
      for (const from of ['"Brand, Inc." <news@brand.test>', 'alerts@warned.test']) {
        res = await postSend(app, key.key, message('acme.test', { from }));
        assert.equal(res.status, 202, from);
        const draft = JSON.parse(
          (
            await deps.db
              .selectFrom('messages')
              .select('content')
              .where('id', '=', res.body.id)
              .executeTakeFirstOrThrow()
          ).content as string,
        ) as MessageDraft;
        assert.equal(draft.from.address, from.includes('news') ? 'news@acme.test' : 'alerts@acme.test');
        assert.equal(draft.from.name, from.includes('news') ? 'Brand, Inc.' : '');
      }
      // Refusals that have recipients leave rejected-by-system events, and no message.
      const rejected = await deps.db
        .selectFrom('events')
        .select(['event', 'details'])
        .where('event', '=', 'rejected-by-system')
        .execute();
      assert.equal(rejected.length, 5);
      assert.ok(rejected.every((e) => JSON.parse(e.details).reason === 'domain_unverified'));
      assert.equal(await count('messages'), 2);
    });

    test('422 recipient_suppressed: nothing sent, nothing counted, rejected-by-system per suppressed recipient', async () => {
      const s = await seedDomain(deps, { domain: 'acme.test' });
      await deps.db
        .insertInto('suppressions')
        .values([
          {
            account_id: s.accountId,
            address: 'gone@example.org',
            reason: 'hard_bounce',
            message_id: null,
            created_at: 1,
          },
          {
            account_id: s.accountId,
            address: 'angry@example.org',
            reason: 'complaint',
            message_id: null,
            created_at: 1,
          },
        ])
        .execute();
      const res = await postSend(
        app,
        s.key,
        message('acme.test', { to: ['ok@example.org', 'Gone@Example.org', 'angry@example.org'] }),
      );
      assert.equal(res.status, 422);
      assert.equal(res.body.error.type, 'recipient_suppressed');
      assert.equal(res.body.error.field, 'to');
      assert.match(res.body.error.message, /Gone@example\.org/);
      assert.match(res.body.error.message, /angry@example\.org/);
      assert.doesNotMatch(res.body.error.message, /ok@example\.org/);
      assert.equal(await count('messages'), 0);
      assert.equal(await count('recipients'), 0);
      assert.equal(await count('jobs'), 0);
      assert.equal((await deps.db.selectFrom('volume').selectAll().execute()).length, 0);
      const events = await deps.db.selectFrom('events').selectAll().execute();
      assert.deepEqual(
        events.map((e) => e.event),
        ['rejected-by-system', 'rejected-by-system'],
      );
      assert.equal(new Set(events.map((e) => e.message_id)).size, 1);
      assert.match(events[0]!.message_id, /^msg_/);
      assert.deepEqual(events.map((e) => JSON.parse(e.details).suppression_reason).sort(), [
        'complaint',
        'hard_bounce',
      ]);
    });

    test("the relay's RCPT check is the suppression step's rule: checkRecipient refuses what POST /v1/send refuses", async () => {
      const s = await seedDomain(deps, { domain: 'acme.test' });
      await deps.db
        .insertInto('suppressions')
        .values({
          account_id: s.accountId,
          address: 'gone@example.org',
          reason: 'hard_bounce',
          message_id: null,
          created_at: 1,
        })
        .execute();
      const auth = await authenticate(deps, `Bearer ${s.key}`);
      assert.ok(auth);
      const pipeline = createSubmitPipeline(deps);
      try {
        for (const address of ['Gone@Example.org', 'ok@example.org']) {
          const api = await postSend(app, s.key, message('acme.test', { to: [address] }));
          const rcpt = await pipeline.checkRecipient(auth, { address, from: 'hello@acme.test', source: 'smtp' });
          assert.equal(api.status === 422, rcpt !== null, `${address}: the same verdict both ways`);
        }
        const refusal = await pipeline.checkRecipient(auth, {
          address: 'GONE@example.org',
          from: 'hello@acme.test',
          source: 'smtp',
        });
        assert.equal(refusal?.type, 'recipient_suppressed');
        assert.equal(refusal?.message, 'Recipient GONE@example.org is on the suppression list; not sent.');
        const rcptEvents = (await deps.db.selectFrom('events').selectAll().where('subject', '=', '').execute())
          .map((e) => [e.event, e.recipient, e.from_address, JSON.parse(e.details)])
          .sort((a, b) => String(a[1]).localeCompare(String(b[1])));
        assert.deepEqual(rcptEvents, [
          [
            'rejected-by-system',
            'Gone@Example.org',
            'hello@acme.test',
            { reason: 'suppressed', suppression_reason: 'hard_bounce', via: 'smtp' },
          ],
          [
            'rejected-by-system',
            'GONE@example.org',
            'hello@acme.test',
            { reason: 'suppressed', suppression_reason: 'hard_bounce', via: 'smtp' },
          ],
        ]);
      } finally {
        await pipeline.drain();
      }
    });

    test('429 rate_limited above the per-domain rate, with Retry-After, then success after waiting it', async () => {
      const s = await seedDomain(deps, { domain: 'acme.test' }); // default 5 per second
      const other = await seedDomain(deps, { domain: 'other.test' });
      for (let i = 0; i < 5; i++) assert.equal((await postSend(app, s.key, message('acme.test'))).status, 202);
      const limited = await postSend(app, s.key, message('acme.test'));
      assert.equal(limited.status, 429);
      assert.equal(limited.body.error.type, 'rate_limited');
      const wait = Number(limited.headers['retry-after']);
      assert.ok(Number.isInteger(wait) && wait >= 1, `Retry-After ${limited.headers['retry-after']}`);
      assert.equal(
        (await postSend(app, other.key, message('other.test'))).status,
        202,
        'another domain has its own limit',
      );
      deps.clock.advance(wait * 1000);
      assert.equal((await postSend(app, s.key, message('acme.test'))).status, 202);
      assert.equal(await count('messages'), 7);
    });

    test('idempotency: replay, reuse with another body, in flight, per domain, forgotten after 24 h', async () => {
      const s = await seedDomain(deps, { domain: 'acme.test', rateLimit: 1 });
      const other = await seedDomain(deps, { domain: 'other.test' });
      const idem = { 'idempotency-key': 'order-42' };
      const first = await postSend(app, s.key, message('acme.test'), idem);
      assert.equal(first.status, 202);
      const again = await postSend(app, s.key, message('acme.test'), idem); // replays do not count against the rate (1/s)
      assert.equal(again.status, 202);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(first.headers['idempotent-replayed'], undefined);
      const reused = await postSend(app, s.key, message('acme.test', { subject: 'Other' }), idem);
      assert.deepEqual([reused.status, reused.body.error.type], [422, 'idempotency_key_reused']);
      assert.equal(
        (await postSend(app, other.key, message('other.test'), idem)).status,
        202,
        'keys are scoped to the domain',
      );
      // A request still in flight with the same body (as a concurrent request would leave it) → 409.
      const { fingerprint } = await deps.db
        .selectFrom('idempotency_keys')
        .select('fingerprint')
        .where('domain_id', '=', s.domainId)
        .where('key', '=', 'order-42')
        .executeTakeFirstOrThrow();
      await deps.db
        .insertInto('idempotency_keys')
        .values({
          domain_id: s.domainId,
          key: 'busy',
          fingerprint,
          state: 'in_flight',
          response_status: null,
          response_body: null,
          locked_until: deps.clock.now() + 30_000,
          expires_at: deps.clock.now() + 86_400_000,
          created_at: deps.clock.now(),
        })
        .execute();
      const conflict = await postSend(app, s.key, message('acme.test'), { 'idempotency-key': 'busy' });
      assert.deepEqual([conflict.status, conflict.body.error.type], [409, 'idempotency_conflict']);
      assert.equal(await count('messages'), 2);
      deps.clock.advance(24 * 3_600_000 + 1);
      const later = await postSend(app, s.key, message('acme.test'), idem);
      assert.equal(later.status, 202);
      assert.notEqual(later.body.id, first.body.id);
    });

    test('a refusal after the rate limit is remembered with the key; a 429 is not', async () => {
      const s = await seedDomain(deps, { domain: 'acme.test', rateLimit: 1 });
      await deps.db
        .insertInto('suppressions')
        .values({
          account_id: s.accountId,
          address: 'gone@example.org',
          reason: 'manual',
          message_id: null,
          created_at: 1,
        })
        .execute();
      const idem = { 'idempotency-key': 'k1' };
      const refused = await postSend(app, s.key, message('acme.test', { to: 'gone@example.org' }), idem);
      assert.equal(refused.status, 422);
      await deps.db.deleteFrom('suppressions').execute();
      const replay = await postSend(app, s.key, message('acme.test', { to: 'gone@example.org' }), idem);
      assert.deepEqual([replay.status, replay.headers['idempotent-replayed']], [422, 'true']);
      const limited = await postSend(app, s.key, message('acme.test'), { 'idempotency-key': 'k2' });
      assert.equal(limited.status, 429);
      deps.clock.advance(Number(limited.headers['retry-after']) * 1000);
      assert.equal((await postSend(app, s.key, message('acme.test'), { 'idempotency-key': 'k2' })).status, 202);
    });

    test('50 concurrent requests with one Idempotency-Key produce one message', async () => {
      const s = await seedDomain(deps, { domain: 'acme.test', rateLimit: 1000 });
      const results = await Promise.all(
        Array.from({ length: 50 }, () => postSend(app, s.key, message('acme.test'), { 'idempotency-key': 'same' })),
      );
      const accepted = results.filter((r) => r.status === 202);
      assert.ok(accepted.length >= 1);
      assert.ok(
        results.every((r) => r.status === 202 || r.status === 409),
        JSON.stringify(results.map((r) => r.status)),
      );
      assert.equal(new Set(accepted.map((r) => r.body.id)).size, 1);
      assert.equal(await count('messages'), 1);
      assert.equal(await count('jobs'), 1);
    });

    test('monthly volume counts accepted recipients; over the quota is 429 quota_exceeded until next month', async () => {
      const s = await seedDomain(deps, { domain: 'acme.test', rateLimit: 1000, quota: 3 });
      assert.equal(
        (await postSend(app, s.key, message('acme.test', { to: ['a@example.org', 'b@example.org'] }))).status,
        202,
      );
      const over = await postSend(app, s.key, message('acme.test', { to: ['c@example.org', 'd@example.org'] }));
      assert.deepEqual([over.status, over.body.error.type], [429, 'quota_exceeded']);
      // 2026-11-21T12:00Z → 2026-12-01T00:00Z is 9.5 days
      assert.equal(Number(over.headers['retry-after']), 9.5 * 86_400);
      assert.equal((await postSend(app, s.key, message('acme.test', { to: 'c@example.org' }))).status, 202);
      assert.equal((await postSend(app, s.key, message('acme.test', { to: 'e@example.org' }))).status, 429);
      assert.equal(await count('messages'), 2);
      deps.clock.set(Date.UTC(2026, 11, 1));
      assert.equal((await postSend(app, s.key, message('acme.test', { to: 'e@example.org' }))).status, 202);
      const months = await deps.db.selectFrom('volume').select(['month', 'count']).orderBy('month').execute();
      assert.deepEqual(months, [
        { month: '2026-11', count: 3 },
        { month: '2026-12', count: 1 },
      ]);
    });

    test('concurrent sends share transactions (group commit) and all commit', async () => {
      const s = await seedDomain(deps, { domain: 'acme.test', rateLimit: 10_000 });
      const results = await Promise.all(
        Array.from({ length: 200 }, (_, i) => postSend(app, s.key, message('acme.test', { to: `u${i}@example.org` }))),
      );
      assert.ok(results.every((r) => r.status === 202));
      assert.equal(await count('messages'), 200);
      assert.equal(await count('events'), 200);
      const batches = (await deps.metrics.commitBatch.get()).values.find(
        (v) => v.metricName === 'posthorn_commit_batch_size_count',
      );
      assert.ok(batches && batches.value < 200, `expected fewer transactions than messages, got ${batches?.value}`);
    });
  });
}
