// DKIM key rotation without a gap (docs/delivery.md), end to end on each test
// database: real 2048-bit keys, real SMTP to a sink MX on loopback, the loopback DNS server for both
// the domain checks and mailauth's verification, and a fake clock moved instead of waiting.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { CLI_ACTOR } from '../../src/core/actor.js';
import { RefusedError } from '../../src/core/refused-error.js';
import { addDomain, findDomain } from '../../src/domains/add-domain.js';
import { checkDomain } from '../../src/domains/check-domain.js';
import { domainRecords } from '../../src/domains/dns-records.js';
import {
  pendingDkimRecord,
  retireExpiredDkimKeys,
  rotateDkim,
  startScheduledRotations,
} from '../../src/domains/dkim-rotation.js';
import { domainResource } from '../../src/domains/domain-resource.js';
import { recheckDueDomains } from '../../src/domains/recheck-domains.js';
import { updateDomain } from '../../src/domains/update-domain.js';
import { startScheduler } from '../../src/scheduler/start-scheduler.js';
import type { DomainTable } from '../../src/storage/database.js';
import { testDialects } from '../helpers/test-db.js';
import {
  BRAND_DOMAIN,
  createDeliveryHarness,
  MX_DOMAIN,
  SENDER_DOMAIN,
  type DeliveryHarness,
  type HarnessOptions,
} from '../helpers/delivery-harness.js';

const H = 3_600_000;
const DAY = 24 * H;

for (const dialect of testDialects()) {
  describe(`DKIM key rotation (${dialect})`, () => {
    let h: DeliveryHarness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    /** A harness whose sender domains publish all four records, so the re-check keeps them verified. */
    const harness = async (opts: HarnessOptions = {}): Promise<DeliveryHarness> => {
      h = await createDeliveryHarness(dialect, opts);
      const { deps, dns } = h;
      dns.zone[deps.config.spfIncludeHost] = { TXT: [['v=spf1 ip4:127.0.0.1 -all']] };
      for (const name of [SENDER_DOMAIN, BRAND_DOMAIN]) {
        const d = await findDomain(deps, name);
        for (const r of domainRecords(d.name, d.dkim_selector, d.dkim_public_key, deps.config)) {
          if (r.purpose === 'dkim') continue; // the harness has published it already
          dns.zone[r.name] = r.type === 'TXT' ? { TXT: [r.value] } : { CNAME: [r.value] };
        }
        const checked = await checkDomain(deps, d);
        assert.equal(checked.domain.status, 'verified', JSON.stringify(checked.checks));
      }
      return h;
    };
    const row = (hx: DeliveryHarness, name = SENDER_DOMAIN): Promise<DomainTable> => findDomain(hx.deps, name);

    /** Sends one message to a new recipient, delivers it, and returns its DKIM verdicts and event selectors. */
    let n = 0;
    async function sendAndVerify(hx: DeliveryHarness) {
      const to = `reader${++n}@${MX_DOMAIN}`;
      const res = await hx.send({ from: `hello@${SENDER_DOMAIN}`, to, subject: 'Receipt', text: 'Thanks!' });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      await hx.run();
      const got = hx.received(to);
      assert.equal(got.length, 1, 'delivered once');
      const verdicts = await hx.verifyDkim(got[0]!.raw);
      const events = await hx.events(res.body.id, to);
      const selectorOf = (name: string) => events.find((e) => e.event === name)?.details.dkim_selector;
      return {
        verdicts: verdicts.map((v) => [v.result, v.selector]),
        accepted: selectorOf('accepted-by-mta'),
        delivered: selectorOf('delivered'),
      };
    }

    const audit = (hx: DeliveryHarness) =>
      hx.deps.db
        .selectFrom('audit_log')
        .select(['actor', 'action', 'target'])
        .where('action', 'like', 'domain.dkim_%')
        .orderBy('at')
        .orderBy('id')
        .execute();

    test('publish → verify → switch → retire: mail verifies with the old key, then the new one; the old record stays listed for the grace', async () => {
      const secretsKey = randomBytes(32).toString('base64');
      const hx = await harness({ env: { POSTHORN_SECRETS_KEY: secretsKey } });
      const { deps, dns } = hx;
      const before = await row(hx);
      const oldSelector = before.dkim_selector;
      const oldName = `${oldSelector}._domainkey.${SENDER_DOMAIN}`;

      // Before any rotation: signed with the only key, and it verifies.
      assert.deepEqual(await sendAndVerify(hx), {
        verdicts: [['pass', oldSelector]],
        accepted: oldSelector,
        delivered: oldSelector,
      });

      // Rotate: a new key under a new selector, sealed at rest, pending.
      const { domain: rotated, record } = await rotateDkim(deps, SENDER_DOMAIN, CLI_ACTOR);
      const newSelector = rotated.dkim_pending_selector!;
      assert.match(newSelector, /^ph\d{8}$/);
      assert.notEqual(newSelector, oldSelector);
      assert.equal(record.name, `${newSelector}._domainkey.${SENDER_DOMAIN}`);
      assert.match(record.value, /^v=DKIM1; k=rsa; p=MII/);
      let stored = await row(hx);
      assert.match(stored.dkim_pending_private_key ?? '', /^phenc1:/, 'the pending key is sealed like the signing key');
      assert.equal(stored.dkim_selector, oldSelector);

      // Not published yet: still signed with the old key, which verifies; the re-check finds nothing.
      assert.deepEqual(await sendAndVerify(hx), {
        verdicts: [['pass', oldSelector]],
        accepted: oldSelector,
        delivered: oldSelector,
      });
      await hx.advance(deps.config.dkimPendingCheckInterval);
      assert.equal(await recheckDueDomains(deps), 1, 'the pending domain is due before the daily re-check');
      stored = await row(hx);
      assert.equal(stored.dkim_selector, oldSelector, 'no switch before the record is found');
      let view = await domainResource(deps, stored);
      assert.equal(view.dkim.pending?.status, 'missing');
      assert.match(view.dkim.pending?.problem ?? '', /No DKIM record at/);
      assert.deepEqual(
        view.records.map((r) => [r.purpose, r.status]),
        [
          ['spf', 'ok'],
          ['dkim', 'ok'],
          ['return_path', 'ok'],
          ['dmarc', 'ok'],
          ['dkim_pending', 'missing'],
        ],
      );

      // Published beside the old one: the next re-check switches signing to the new key.
      dns.zone[record.name] = { TXT: [record.value] };
      await hx.advance(deps.config.dkimPendingCheckInterval);
      assert.equal(await recheckDueDomains(deps), 1, 'again after the pending check interval');
      const switchedAt = deps.clock.now();
      stored = await row(hx);
      assert.equal(stored.status, 'verified');
      assert.equal(stored.dkim_selector, newSelector);
      assert.equal(stored.dkim_public_key, rotated.dkim_pending_public_key);
      assert.match(stored.dkim_private_key, /^phenc1:/);
      assert.equal(stored.dkim_pending_selector, null);
      assert.equal(stored.dkim_pending_private_key, null);
      assert.equal(stored.dkim_retired_selector, oldSelector);
      assert.equal(Number(stored.dkim_retired_until), switchedAt + 7 * DAY);
      assert.equal(Number(stored.dkim_key_created_at), switchedAt);
      view = await domainResource(deps, stored);
      assert.equal(view.dkim.selector, newSelector);
      assert.equal(view.dkim.pending, null);
      assert.deepEqual(view.dkim.retired, {
        selector: oldSelector,
        type: 'TXT',
        name: oldName,
        value: `v=DKIM1; k=rsa; p=${before.dkim_public_key}`,
        remove_after: new Date(switchedAt + 7 * DAY).toISOString(),
      });
      assert.deepEqual(
        view.records.map((r) => [r.purpose, r.name, r.status]),
        [
          ['spf', SENDER_DOMAIN, 'ok'],
          ['dkim', record.name, 'ok'],
          ['return_path', `bounce.${SENDER_DOMAIN}`, 'ok'],
          ['dmarc', `_dmarc.${SENDER_DOMAIN}`, 'ok'],
        ],
        "the new record is the domain's DKIM record now, checked ok",
      );

      // Signed with the new key from now on, and mailauth verifies it against DNS.
      assert.deepEqual(await sendAndVerify(hx), {
        verdicts: [['pass', newSelector]],
        accepted: newSelector,
        delivered: newSelector,
      });

      // The old record stays listed until the grace ends, then the old key is forgotten.
      await hx.advance(7 * DAY - 1);
      assert.equal(await retireExpiredDkimKeys(deps), 0);
      assert.equal((await row(hx)).dkim_retired_selector, oldSelector);
      await hx.advance(1);
      assert.equal(await retireExpiredDkimKeys(deps), 1);
      assert.equal(await retireExpiredDkimKeys(deps), 0, 'retired once');
      stored = await row(hx);
      assert.deepEqual(
        [stored.dkim_retired_selector, stored.dkim_retired_public_key, stored.dkim_retired_until],
        [null, null, null],
      );
      assert.equal((await domainResource(deps, stored)).dkim.retired, null);
      // With the old record removed from DNS, mail still verifies: nothing signs with the old key.
      delete dns.zone[oldName];
      assert.deepEqual((await sendAndVerify(hx)).verdicts, [['pass', newSelector]]);

      assert.deepEqual(
        (await audit(hx)).map((e) => [e.actor, e.action]),
        [
          ['cli', 'domain.dkim_rotate'],
          ['scheduler', 'domain.dkim_switch'],
          ['scheduler', 'domain.dkim_retire'],
        ],
      );
      const targets = (await audit(hx)).map((e) => e.target).join('\n');
      assert.ok(targets.includes(`signing moved from ${oldSelector} to ${newSelector}`), targets);
      assert.ok(!targets.includes('PRIVATE KEY') && !targets.includes('phenc1:'), 'no secret in the audit log');
    });

    test('a rotate while one is pending is refused as a conflict naming the pending selector; the sandbox domain is refused', async () => {
      const hx = await harness();
      const first = await rotateDkim(hx.deps, SENDER_DOMAIN, CLI_ACTOR);
      await assert.rejects(
        rotateDkim(hx.deps, SENDER_DOMAIN, CLI_ACTOR),
        (err: unknown) =>
          err instanceof RefusedError &&
          err.reason === 'conflict' &&
          err.field === 'domain' &&
          err.message.includes(`already pending (${first.domain.dkim_pending_selector}._domainkey.${SENDER_DOMAIN})`),
      );
      // Two at once make one key.
      const results = await Promise.allSettled([
        rotateDkim(hx.deps, BRAND_DOMAIN, CLI_ACTOR),
        rotateDkim(hx.deps, BRAND_DOMAIN, CLI_ACTOR),
      ]);
      assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
      assert.equal((await row(hx)).dkim_pending_selector, first.domain.dkim_pending_selector, 'the first one kept');
      assert.equal((await audit(hx)).length, 2);

      // The sandbox domain's mail never leaves the machine: its key is never published, so never rotated.
      await addDomain(hx.deps, 'acme', 'sandboxed.test', { sandbox: true });
      await assert.rejects(
        rotateDkim(hx.deps, 'sandboxed.test', CLI_ACTOR),
        (err: unknown) => err instanceof RefusedError && err.reason === 'invalid' && /sandbox domain/.test(err.message),
      );
    });

    test('a second rotation gets a selector unused by the signing and retired keys', async () => {
      const hx = await harness();
      const { deps, dns } = hx;
      const publishPending = async () => {
        const r = pendingDkimRecord(await row(hx))!;
        dns.zone[r.name] = { TXT: [r.value] };
        await checkDomain(deps, await row(hx));
      };
      await rotateDkim(deps, SENDER_DOMAIN, CLI_ACTOR);
      await publishPending();
      const afterFirst = await row(hx);
      await rotateDkim(deps, SENDER_DOMAIN, CLI_ACTOR);
      const second = await row(hx);
      assert.equal(second.dkim_pending_selector, `${afterFirst.dkim_selector}-2`, 'same day: a suffix');
      await publishPending();
      const afterSecond = await row(hx);
      assert.equal(afterSecond.dkim_selector, `${afterFirst.dkim_selector}-2`);
      assert.equal(afterSecond.dkim_retired_selector, afterFirst.dkim_selector, 'the latest old selector is listed');
      assert.deepEqual((await sendAndVerify(hx)).verdicts, [['pass', afterSecond.dkim_selector]]);
    });

    test('the schedule starts a rotation for a key older than POSTHORN_DKIM_ROTATE_DAYS, or the domain’s own period', async () => {
      const hx = await harness({ env: { POSTHORN_DKIM_ROTATE_DAYS: '180' } });
      const { deps } = hx;
      await updateDomain(deps, BRAND_DOMAIN, { dkimRotateDays: 30 }, CLI_ACTOR);
      const keyAt = Number((await row(hx)).dkim_key_created_at);
      assert.equal(
        (await domainResource(deps, await row(hx))).dkim.next_rotation_at,
        new Date(keyAt + 180 * DAY).toISOString(),
      );

      deps.clock.advance(30 * DAY - 1);
      assert.deepEqual(await startScheduledRotations(deps), []);
      deps.clock.advance(1);
      assert.deepEqual(await startScheduledRotations(deps), [BRAND_DOMAIN], 'the domain’s own 30 days');
      assert.deepEqual(await startScheduledRotations(deps), [], 'one rotation at a time');

      deps.clock.advance(150 * DAY - 1);
      assert.deepEqual(await startScheduledRotations(deps), []);
      deps.clock.advance(1);
      assert.deepEqual(await startScheduledRotations(deps), [SENDER_DOMAIN], 'the server’s 180 days');
      const started = await row(hx);
      assert.notEqual(started.dkim_pending_selector, null);
      assert.equal(started.dkim_selector, (await findDomain(deps, SENDER_DOMAIN)).dkim_selector);
      assert.deepEqual(
        (await audit(hx)).map((e) => [e.actor, e.action, e.target.split(' ')[0]]),
        [
          ['scheduler', 'domain.dkim_rotate', BRAND_DOMAIN],
          ['scheduler', 'domain.dkim_rotate', SENDER_DOMAIN],
        ],
      );

      // 0 on a domain: never on schedule, whatever the server says.
      const never = await createDeliveryHarness(dialect, { env: { POSTHORN_DKIM_ROTATE_DAYS: '1' } });
      try {
        await updateDomain(never.deps, SENDER_DOMAIN, { dkimRotateDays: 0 }, CLI_ACTOR);
        never.deps.clock.advance(400 * DAY);
        assert.deepEqual(await startScheduledRotations(never.deps), [BRAND_DOMAIN]);
      } finally {
        await never.close();
      }
    });

    test('the scheduler role takes the steps by itself: starts, switches once the record is published, retires', async () => {
      const hx = await harness({ env: { POSTHORN_DKIM_ROTATE_DAYS: '90' } });
      const { deps, dns } = hx;
      await updateDomain(deps, BRAND_DOMAIN, { dkimRotateDays: 0 }, CLI_ACTOR);
      const oldSelector = (await row(hx)).dkim_selector;
      /** One scheduler run: its first tick is at once, and stop() waits for it. */
      const tick = () => startScheduler(deps).stop();

      deps.clock.advance(90 * DAY);
      await tick();
      const started = await row(hx);
      assert.notEqual(started.dkim_pending_selector, null, 'started on schedule');
      assert.equal((await row(hx, BRAND_DOMAIN)).dkim_pending_selector, null, 'a domain set to never is left alone');

      const r = pendingDkimRecord(started)!;
      dns.zone[r.name] = { TXT: [r.value] };
      deps.clock.advance(deps.config.dkimPendingCheckInterval);
      await tick();
      const switched = await row(hx);
      assert.equal(switched.dkim_selector, started.dkim_pending_selector, 'switched by the re-check');
      assert.equal(switched.dkim_retired_selector, oldSelector);
      assert.deepEqual((await sendAndVerify(hx)).verdicts, [['pass', switched.dkim_selector]]);

      deps.clock.advance(deps.config.dkimRetireAfter);
      await tick();
      assert.equal((await row(hx)).dkim_retired_selector, null, 'retired after the grace');
      assert.deepEqual(
        (await audit(hx)).map((e) => [e.actor, e.action]),
        [
          ['scheduler', 'domain.dkim_rotate'],
          ['scheduler', 'domain.dkim_switch'],
          ['scheduler', 'domain.dkim_retire'],
        ],
      );
    });

    test('a pending record not found after POSTHORN_DKIM_PENDING_NOTICE_AFTER raises one domain.dkim_pending notice', async () => {
      const hx = await harness();
      const { deps } = hx;
      const { record } = await rotateDkim(deps, SENDER_DOMAIN, CLI_ACTOR);
      const notices = () =>
        deps.db
          .selectFrom('notices')
          .select(['kind', 'message', 'details'])
          .where('kind', '=', 'domain.dkim_pending')
          .execute();
      deps.clock.advance(2 * DAY);
      await checkDomain(deps, await row(hx));
      assert.deepEqual(await notices(), []);
      deps.clock.advance(DAY);
      await checkDomain(deps, await row(hx));
      const raised = await notices();
      assert.equal(raised.length, 1);
      assert.ok(raised[0]!.message.includes(record.name), raised[0]!.message);
      assert.match(raised[0]!.message, /still not found after 3 days; mail is signed with the old key/);
      deps.clock.advance(H);
      await checkDomain(deps, await row(hx));
      assert.equal((await notices()).length, 1, 'raised once');
    });
  });
}
