// Domain verification, re-check and grace period end to end on both databases: real DNS on
// loopback, real DKIM keys, a fake clock.
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAccount } from '../../src/accounts/accounts.js';
import { issueApiKey } from '../../src/credentials/issue-api-key.js';
import { addDomain } from '../../src/domains/add-domain.js';
import { checkDomain } from '../../src/domains/check-domain.js';
import { createResolver } from '../../src/domains/create-resolver.js';
import { domainRecords, type DomainRecord, type RecordPurpose } from '../../src/domains/dns-records.js';
import { recheckDueDomains } from '../../src/domains/recheck-domains.js';
import { buildApp } from '../../src/http/build-app.js';
import { canSend } from '../../src/send/check-sender-domain.js';
import type { DomainTable } from '../../src/storage/database.js';
import type { DnsResolver } from '../../src/core/dns-resolver.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { testDialects } from '../helpers/test-db.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { message, postSend } from '../helpers/send-client.js';

const H = 3_600_000;
const ACCOUNT = 'acme';

let dns: DnsServer;
let resolver: DnsResolver;
before(async () => {
  dns = await startDnsServer({});
  resolver = createResolver([dns.address], { timeoutMs: 2000, tries: 1 });
});
after(() => dns.close());

let seq = 0;

for (const dialect of testDialects()) {
  describe(`domain status transitions (${dialect})`, () => {
    let deps: TestDeps;
    const setup = async (env: Record<string, string> = {}) => {
      deps = await createTestDeps(dialect, { resolver, env });
      // The service's own SPF record, as the operator publishes it.
      dns.zone[deps.config.spfIncludeHost] = { TXT: [['v=spf1 ip4:192.0.2.0/24 -all']] };
      await createAccount(deps, ACCOUNT);
    };
    beforeEach(() => setup());
    afterEach(() => deps.close());

    const newDomain = (opts: { sandbox?: boolean } = {}) => addDomain(deps, ACCOUNT, `d${++seq}-${dialect}.test`, opts);
    const recordsOf = (d: DomainTable): DomainRecord[] =>
      domainRecords(d.name, d.dkim_selector, d.dkim_public_key, {
        spfIncludeHost: deps.config.spfIncludeHost,
        bounceHost: deps.config.bounceHost,
      });
    /** Publishes the records of `purposes` (default: all four) exactly as domainRecords asks. */
    const publish = (d: DomainTable, purposes?: RecordPurpose[]) => {
      for (const r of recordsOf(d).filter((x) => !purposes || purposes.includes(x.purpose))) {
        dns.zone[r.name] = r.type === 'TXT' ? { TXT: [[r.value]] } : { CNAME: [r.value] };
      }
    };
    const unpublish = (d: DomainTable, purpose: RecordPurpose) => {
      delete dns.zone[recordsOf(d).find((r) => r.purpose === purpose)!.name];
    };
    const row = (d: DomainTable) =>
      deps.db.selectFrom('domains').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow();
    /** Checks the domain as stored now (what the scheduler does) and returns the stored row after. */
    const check = async (d: DomainTable) => {
      await checkDomain(deps, await row(d));
      return row(d);
    };
    const notices = (d: DomainTable) =>
      deps.db
        .selectFrom('notices')
        .select(['kind', 'message', 'details', 'created_at', 'account_id'])
        .where('domain_id', '=', d.id)
        .orderBy('created_at')
        .orderBy('id')
        .execute();

    /** A domain taken to verified through a real check. */
    const verifiedDomain = async () => {
      const d = await newDomain();
      publish(d);
      const r = await check(d);
      assert.equal(r.status, 'verified');
      return r;
    };

    test('a pending domain stays pending while any record is missing, and is verified once all four are published', async () => {
      const d = await newDomain();
      assert.equal(d.status, 'pending');
      let r = await check(d);
      assert.equal(r.status, 'pending');
      assert.equal(r.checked_at, deps.clock.now());
      assert.equal(r.verified_at, null);
      assert.equal(r.failing_since, null);
      const checks = JSON.parse(r.last_checks ?? 'null') as Record<RecordPurpose, { ok: boolean }>;
      assert.deepEqual(
        Object.values(checks).map((c) => c.ok),
        [false, false, false, false],
      );

      // Three of four is not enough (all four must match).
      publish(d, ['spf', 'dkim', 'return_path']);
      deps.clock.advance(H);
      r = await check(d);
      assert.equal(r.status, 'pending');
      assert.equal(r.verified_at, null);
      assert.equal(r.checked_at, deps.clock.now());

      publish(d);
      deps.clock.advance(H);
      const out = await checkDomain(deps, await row(d));
      assert.equal(out.ok, true);
      assert.equal(out.domain.status, 'verified');
      r = await row(d);
      assert.equal(r.status, 'verified');
      assert.equal(r.verified_at, deps.clock.now());
      assert.equal(r.failing_since, null);
      assert.deepEqual(await notices(d), [], 'pending → verified raises no notice');
    });

    test('a verified domain that loses its DKIM record warns at once, keeps sending, and is unverified after 72h', async () => {
      const d = await verifiedDomain();
      const verifiedAt = d.verified_at;
      unpublish(d, 'dkim');
      deps.clock.advance(H);
      const failedAt = deps.clock.now();
      let r = await check(d);
      assert.equal(r.status, 'warning');
      assert.equal(r.failing_since, failedAt);
      assert.equal(r.verified_at, verifiedAt);
      assert.ok(canSend(r.status), 'a domain in warning still sends');
      let ns = await notices(d);
      assert.deepEqual(
        ns.map((n) => n.kind),
        ['domain.warning'],
      );
      assert.equal(ns[0].created_at, failedAt);
      assert.equal(ns[0].account_id, d.account_id);
      assert.match(ns[0].message, new RegExp(d.name.replace(/\./g, '\\.')));
      assert.match(ns[0].message, /dkim: /, 'the message names the failing record');
      assert.ok(ns[0].message.includes(`${d.dkim_selector}._domainkey.${d.name}`), ns[0].message);
      assert.doesNotMatch(ns[0].message, /spf: |dmarc: |return_path: /, 'only the failing record is named');
      const details = JSON.parse(ns[0].details) as { checks: Record<RecordPurpose, { ok: boolean }> };
      assert.equal(details.checks.dkim.ok, false);
      assert.equal(details.checks.spf.ok, true);

      // Daily re-checks inside the grace period: still warning, the clock keeps its start, no new notice.
      for (const at of [24 * H, 48 * H, 72 * H - 1]) {
        deps.clock.set(failedAt + at);
        r = await check(d);
        assert.equal(r.status, 'warning', `at +${at}ms`);
        assert.equal(r.failing_since, failedAt);
      }
      assert.equal((await notices(d)).length, 1);

      deps.clock.set(failedAt + 72 * H);
      r = await check(d);
      assert.equal(r.status, 'unverified');
      assert.equal(r.failing_since, null);
      assert.ok(!canSend(r.status));
      ns = await notices(d);
      assert.deepEqual(
        ns.map((n) => n.kind),
        ['domain.warning', 'domain.unverified'],
      );
      assert.equal(ns[1].created_at, failedAt + 72 * H);
      assert.match(ns[1].message, /dkim: /);

      // Still failing: stays unverified, no further notice.
      deps.clock.advance(24 * H);
      r = await check(d);
      assert.equal(r.status, 'unverified');
      assert.equal((await notices(d)).length, 2);
    });

    test('fixing the records during the warning returns to verified with a domain.recovered notice', async () => {
      const d = await verifiedDomain();
      unpublish(d, 'dkim');
      deps.clock.advance(H);
      let r = await check(d);
      assert.equal(r.status, 'warning');
      assert.notEqual(r.failing_since, null);

      publish(d, ['dkim']);
      deps.clock.advance(24 * H);
      r = await check(d);
      assert.equal(r.status, 'verified');
      assert.equal(r.failing_since, null);
      assert.equal(r.verified_at, d.verified_at, 'verified_at keeps the first verification');
      const ns = await notices(d);
      assert.deepEqual(
        ns.map((n) => n.kind),
        ['domain.warning', 'domain.recovered'],
      );
      assert.equal(ns[1].created_at, deps.clock.now());
      assert.match(ns[1].message, new RegExp(d.name.replace(/\./g, '\\.')));

      // A later failure starts a fresh grace period from its own time.
      unpublish(d, 'dmarc');
      deps.clock.advance(24 * H);
      r = await check(d);
      assert.equal(r.status, 'warning');
      assert.equal(r.failing_since, deps.clock.now());
      assert.match((await notices(d)).at(-1)!.message, /dmarc: /);
    });

    test('an unverified domain whose records are fixed is verified again', async () => {
      await deps.close();
      await setup({ POSTHORN_DOMAIN_GRACE_PERIOD: '1h' });
      const d = await verifiedDomain();
      unpublish(d, 'return_path');
      await check(d);
      deps.clock.advance(H);
      assert.equal((await check(d)).status, 'unverified');
      publish(d);
      deps.clock.advance(H);
      const r = await check(d);
      assert.equal(r.status, 'verified');
      assert.equal(r.failing_since, null);
    });

    test('POSTHORN_DOMAIN_GRACE_PERIOD shortens the grace period', async () => {
      await deps.close();
      await setup({ POSTHORN_DOMAIN_GRACE_PERIOD: '10m' });
      assert.equal(deps.config.domainGracePeriod, 600_000);
      const d = await verifiedDomain();
      unpublish(d, 'spf');
      const failedAt = deps.clock.now();
      assert.equal((await check(d)).status, 'warning');
      deps.clock.set(failedAt + 600_000 - 1);
      assert.equal((await check(d)).status, 'warning');
      deps.clock.set(failedAt + 600_000);
      assert.equal((await check(d)).status, 'unverified');
      const ns = await notices(d);
      assert.deepEqual(
        ns.map((n) => n.kind),
        ['domain.warning', 'domain.unverified'],
      );
      assert.match(ns[0].message, /spf: /);
    });

    test('recheckDueDomains checks only domains due by the interval, skips sandbox domains and returns the count', async () => {
      const a = await newDomain();
      const b = await newDomain();
      const sandbox = await newDomain({ sandbox: true });
      publish(a);
      // Never checked: both due now; the sandbox domain never is.
      assert.equal(await recheckDueDomains(deps), 2);
      assert.equal((await row(a)).status, 'verified', 'a pending domain is verified by the scheduler once published');
      assert.equal((await row(b)).status, 'pending');
      assert.equal((await row(b)).checked_at, deps.clock.now());
      const sb = await row(sandbox);
      assert.deepEqual([sb.status, sb.checked_at], ['verified', null]);

      // Checked just now: nothing is due until the interval (24h) has passed.
      assert.equal(await recheckDueDomains(deps), 0);
      deps.clock.advance(24 * H - 1);
      assert.equal(await recheckDueDomains(deps), 0);
      const firstCheck = (await row(a)).checked_at;

      deps.clock.advance(1);
      unpublish(a, 'dkim');
      assert.equal(await recheckDueDomains(deps), 2);
      const ra = await row(a);
      assert.equal(ra.checked_at, deps.clock.now());
      assert.notEqual(ra.checked_at, firstCheck);
      assert.equal(ra.status, 'warning');
      assert.deepEqual(
        (await notices(a)).map((n) => n.kind),
        ['domain.warning'],
      );
      assert.equal((await row(sandbox)).checked_at, null);

      // A domain checked in between (e.g. by hand) is not due with the others.
      deps.clock.advance(12 * H);
      await check(b);
      deps.clock.advance(12 * H);
      assert.equal(await recheckDueDomains(deps), 1);
      assert.equal((await row(b)).checked_at, deps.clock.now() - 12 * H);
    });

    test('a domain that became unverified gets 403 domain_unverified on POST /v1/send', async () => {
      await deps.close();
      await setup({ POSTHORN_DOMAIN_GRACE_PERIOD: '1h' });
      const d = await verifiedDomain();
      const { key } = await issueApiKey(deps, d.id);
      const app = buildApp(deps);
      try {
        let res = await postSend(app, key, message(d.name));
        assert.equal(res.status, 202, JSON.stringify(res.body));

        unpublish(d, 'dkim');
        assert.equal((await check(d)).status, 'warning');
        res = await postSend(app, key, message(d.name));
        assert.equal(res.status, 202, `warning still sends: ${JSON.stringify(res.body)}`);

        deps.clock.advance(H);
        assert.equal((await check(d)).status, 'unverified');
        res = await postSend(app, key, message(d.name));
        assert.equal(res.status, 403);
        assert.equal(res.body.error.type, 'domain_unverified');
      } finally {
        await app.close();
      }
    });

    test('when our resolver cannot answer, a verified domain keeps its status (the check is inconclusive)', async () => {
      const d = await verifiedDomain();
      for (const r of recordsOf(d)) dns.zone[r.name] = { SERVFAIL: true };
      dns.zone[d.name] = { SERVFAIL: true };
      const r = await check(d);
      assert.equal(r.status, 'verified');
      assert.equal(r.failing_since, null);
      assert.match(r.last_checks ?? '', /DNS lookup failed: ESERVFAIL/);
      assert.equal((await notices(d)).length, 0);
    });

    test('two checks racing from the same stale row raise one warning', async () => {
      const d = await verifiedDomain();
      unpublish(d, 'dkim');
      const stale = await row(d);
      await Promise.all([checkDomain(deps, stale), checkDomain(deps, stale)]);
      assert.deepEqual(
        (await notices(d)).map((n) => n.kind),
        ['domain.warning'],
      );
    });

    test('an unverified domain whose records are fixed raises domain.recovered', async () => {
      const d = await verifiedDomain();
      unpublish(d, 'dmarc');
      await check(d);
      deps.clock.advance(72 * H);
      assert.equal((await check(d)).status, 'unverified');
      publish(d);
      assert.equal((await check(d)).status, 'verified');
      assert.deepEqual(
        (await notices(d)).map((n) => n.kind),
        ['domain.warning', 'domain.unverified', 'domain.recovered'],
      );
    });
  });
}
