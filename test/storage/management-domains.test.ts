// The domains routes of the management API (docs/api.md, Management API) over real HTTPS, on
// each test database: list, add, show, verify against a real DNS server on loopback, settings,
// delete; every refusal with its field, another account's domain, a sending key, a viewer's write,
// and the audit entry of each change. Every answer is checked against docs/openapi.json.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createResolver } from '../../src/domains/create-resolver.js';
import { enqueueWebhooks } from '../../src/outbox/enqueue-webhooks.js';
import { loadClaimed } from '../../src/delivery/load-claimed.js';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { assertError, auditEntries, rawCall } from '../helpers/management-calls.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { testDialects } from '../helpers/test-db.js';

type Domain = {
  name: string;
  status: string;
  records: { purpose: string; type: string; name: string; value: string; status: string; found: string[] }[];
  tracking: { opens: boolean; clicks: boolean; unsubscribe: boolean };
  ed25519: boolean;
};

let dns: DnsServer;
before(async () => {
  dns = await startDnsServer({});
});
after(() => dns.close());

/** Publishes `records` in the loopback zone as a customer would. */
function publish(records: Domain['records']): void {
  for (const r of records) dns.zone[r.name] = r.type === 'TXT' ? { TXT: [[r.value]] } : { CNAME: [r.value] };
}

for (const dialect of testDialects()) {
  describe(`management API: domains (${dialect})`, () => {
    let api: ApiHarness;
    let admin: string;
    let viewer: string;
    let other: Seeded;
    let otherAdmin: string;
    let keyed: Seeded;
    const client = () => api.client(admin);

    before(async () => {
      api = await startApiHarness(dialect, {
        resolver: createResolver([dns.address], { timeoutMs: 2000, tries: 1 }),
      });
      // The service's own SPF record, which customers' records include.
      dns.zone[api.deps.config.spfIncludeHost] = { TXT: [['v=spf1 ip4:192.0.2.0/24 -all']] };
      keyed = await seedDomain(api.deps, { account: 'acme', domain: `keyed-${dialect}.test`, quota: 1000 });
      other = await seedDomain(api.deps, { account: 'other', domain: `theirs-${dialect}.test` });
      admin = await api.token('acme', 'admin', 'deploy-bot');
      viewer = await api.token('acme', 'viewer', 'dashboard');
      otherAdmin = await api.token('other', 'admin', 'their-bot');
    });
    after(() => api.close());

    test('POST /v1/domains adds a pending domain with its four records unchecked, audited', async () => {
      const name = `shop-${dialect}.test`;
      const { data, response } = await client().POST('/v1/domains', { body: { name: `Shop-${dialect}.TEST.` } });
      assert.equal(response.status, 201);
      assert.equal(data!.name, name);
      assert.equal(data!.status, 'pending');
      assert.equal(data!.verified_at, null);
      assert.equal(data!.last_checked_at, null);
      assert.equal(data!.created_at, new Date(api.deps.clock.now()).toISOString());
      assert.deepEqual(
        data!.records.map((r) => [r.purpose, r.type, r.status, r.found.length]),
        [
          ['spf', 'TXT', 'unknown', 0],
          ['dkim', 'TXT', 'unknown', 0],
          ['return_path', 'CNAME', 'unknown', 0],
          ['dmarc', 'TXT', 'unknown', 0],
        ],
      );
      assert.match(data!.records[1]!.value, /^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/);
      assert.deepEqual(data!.tracking, { opens: false, clicks: false, unsubscribe: false });
      assert.equal(data!.ed25519, false);
      assert.equal(data!.complaint_rate.rate, null);
      assert.deepEqual(data!.month, { accepted: 0, quota: 1000, domain_accepted: 0 });

      const [entry] = await auditEntries(api, admin, 'domain.add');
      assert.deepEqual(
        { actor: entry!.actor, target: entry!.target, ip: entry!.ip },
        { actor: 'token:deploy-bot', target: name, ip: '127.0.0.1' },
      );
    });

    test('POST /v1/domains refuses a bad name, a taken name (any account), a viewer and a sending key', async () => {
      const post = (body: string, type?: string) =>
        rawCall(api, 'POST', '/v1/domains', '/v1/domains', admin, body, type);
      assertError(await post('{"name":"not a domain"}'), 400, 'invalid_request', 'name');
      assertError(await post('{"name":"localhost"}'), 400, 'invalid_request', 'name');
      assertError(await post('{"name":5}'), 400, 'invalid_request', 'name');
      assertError(await post('{"name":""}'), 400, 'invalid_request', 'name');
      assertError(await post('{}'), 400, 'invalid_request', 'name');
      assertError(await post('{"name":"a.test","sandbox":true}'), 400, 'invalid_request', 'sandbox');
      assertError(await post('{"name":'), 400, 'invalid_request', 'body');
      assertError(
        await post('name=a.test', 'application/x-www-form-urlencoded'),
        400,
        'invalid_request',
        'Content-Type',
      );

      const theirs = await client().POST('/v1/domains', { body: { name: other.domain } });
      assertError(theirs, 409, 'conflict', 'name');
      const ours = await client().POST('/v1/domains', { body: { name: keyed.domain.toUpperCase() } });
      assertError(ours, 409, 'conflict', 'name');

      assertError(
        await api.client(viewer).POST('/v1/domains', { body: { name: `v-${dialect}.test` } }),
        403,
        'forbidden',
      );
      assertError(
        await api.client(keyed.key).POST('/v1/domains', { body: { name: `k-${dialect}.test` } }),
        403,
        'forbidden',
      );
      assertError(await api.client().POST('/v1/domains', { body: { name: `n-${dialect}.test` } }), 401, 'invalid_key');
      const names = (await client().GET('/v1/domains')).data!.domains.map((d) => d.name);
      assert.ok(!names.some((n) => /^[vkn]-/.test(n)), 'nothing refused was added');
    });

    test('GET /v1/domains lists the account’s own domains by name; a viewer may read it', async () => {
      await client().POST('/v1/domains', { body: { name: `alpha-${dialect}.test` } });
      const { data, response } = await api.client(viewer).GET('/v1/domains');
      assert.equal(response.status, 200);
      const names = data!.domains.map((d) => d.name);
      assert.deepEqual(names, [...names].sort());
      assert.ok(names.includes(keyed.domain) && names.includes(`alpha-${dialect}.test`));
      assert.ok(!names.includes(other.domain), 'another account’s domain is not listed');
      const theirs = await api.client(otherAdmin).GET('/v1/domains');
      assert.deepEqual(
        theirs.data!.domains.map((d) => d.name),
        [other.domain],
      );
      assertError(await api.client(keyed.key).GET('/v1/domains'), 403, 'forbidden');
    });

    test('GET /v1/domains/{domain}: the domain; another account’s or an unknown one is 404 naming domain', async () => {
      const { data, response } = await api
        .client(viewer)
        .GET('/v1/domains/{domain}', { params: { path: { domain: keyed.domain.toUpperCase() } } });
      assert.equal(response.status, 200);
      assert.equal(data!.name, keyed.domain);
      assert.equal(data!.status, 'verified');
      for (const domain of [other.domain, `nowhere-${dialect}.test`]) {
        const got = await client().GET('/v1/domains/{domain}', { params: { path: { domain } } });
        assertError(got, 404, 'not_found', 'domain');
        assert.doesNotMatch((got.error as { error: { message: string } }).error.message, /another account/);
      }
      assertError(
        await api.client(keyed.key).GET('/v1/domains/{domain}', { params: { path: { domain: keyed.domain } } }),
        403,
        'forbidden',
      );
      const long = `${'a'.repeat(250)}.test`;
      assertError(
        await rawCall(api, 'GET', '/v1/domains/{domain}', `/v1/domains/${long}`, admin),
        400,
        'invalid_request',
        'domain',
      );
    });

    test('POST …/verify checks DNS now: missing, then mismatch, then verified, each record’s status shown', async () => {
      const name = `verify-${dialect}.test`;
      const added = (await client().POST('/v1/domains', { body: { name } })).data as Domain;
      const verify = () => client().POST('/v1/domains/{domain}/verify', { params: { path: { domain: name } } });

      const missing = await verify();
      assert.equal(missing.response.status, 200);
      assert.equal(missing.data!.status, 'pending');
      assert.deepEqual(
        missing.data!.records.map((r) => r.status),
        ['missing', 'missing', 'missing', 'missing'],
      );
      assert.equal(missing.data!.last_checked_at, new Date(api.deps.clock.now()).toISOString());

      // An unrelated TXT at the apex is not an SPF record: still missing. A wrong DKIM key: mismatch.
      const [spf, dkim, returnPath, dmarc] = added.records;
      dns.zone[spf!.name] = { TXT: [['google-site-verification=abc']] };
      dns.zone[dkim!.name] = { TXT: [['v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAwrong']] };
      publish([returnPath!, dmarc!]);
      const partly = await verify();
      assert.deepEqual(
        partly.data!.records.map((r) => [r.purpose, r.status]),
        [
          ['spf', 'missing'],
          ['dkim', 'mismatch'],
          ['return_path', 'ok'],
          ['dmarc', 'ok'],
        ],
      );
      assert.deepEqual(partly.data!.records[0]!.found, ['google-site-verification=abc']);
      assert.deepEqual(partly.data!.records[2]!.found, [returnPath!.value]);

      publish(added.records);
      api.deps.clock.advance(60_000);
      const ok = await verify();
      assert.equal(ok.data!.status, 'verified');
      assert.equal(ok.data!.verified_at, new Date(api.deps.clock.now()).toISOString());
      assert.deepEqual(
        ok.data!.records.map((r) => r.status),
        ['ok', 'ok', 'ok', 'ok'],
      );
      // GET shows the stored result without asking DNS again.
      delete dns.zone[dkim!.name];
      const shown = await client().GET('/v1/domains/{domain}', { params: { path: { domain: name } } });
      assert.equal(shown.data!.records[1]!.status, 'ok');

      const entries = await auditEntries(api, admin, 'domain.verify');
      assert.deepEqual(
        entries.slice(0, 3).map((e) => e.target),
        [`${name} (verified)`, `${name} (pending)`, `${name} (pending)`],
      );
      assertError(
        await api.client(viewer).POST('/v1/domains/{domain}/verify', { params: { path: { domain: name } } }),
        403,
        'forbidden',
      );
      assertError(
        await client().POST('/v1/domains/{domain}/verify', { params: { path: { domain: other.domain } } }),
        404,
        'not_found',
        'domain',
      );
      assertError(
        await api.client(keyed.key).POST('/v1/domains/{domain}/verify', { params: { path: { domain: name } } }),
        403,
        'forbidden',
      );
    });

    test('a resolver that does not answer leaves the records unknown and the status as it was', async () => {
      const name = `servfail-${dialect}.test`;
      const added = (await client().POST('/v1/domains', { body: { name } })).data as Domain;
      for (const r of added.records) dns.zone[r.name] = { SERVFAIL: true };
      const { data } = await client().POST('/v1/domains/{domain}/verify', { params: { path: { domain: name } } });
      assert.equal(data!.status, 'pending');
      assert.deepEqual(
        data!.records.map((r) => r.status),
        ['unknown', 'unknown', 'unknown', 'unknown'],
      );
    });

    test('PATCH sets any subset of tracking and Ed25519; the Ed25519 record is listed and checked', async () => {
      const name = `settings-${dialect}.test`;
      const added = (await client().POST('/v1/domains', { body: { name } })).data as Domain;
      const patch = (body: Record<string, unknown>) =>
        client().PATCH('/v1/domains/{domain}', { params: { path: { domain: name } }, body });

      const opens = await patch({ tracking: { opens: true } });
      assert.equal(opens.response.status, 200);
      assert.deepEqual(opens.data!.tracking, { opens: true, clicks: false, unsubscribe: false });
      const both = await patch({ tracking: { clicks: true, unsubscribe: true }, ed25519: true });
      assert.deepEqual(both.data!.tracking, { opens: true, clicks: true, unsubscribe: true });
      assert.equal(both.data!.ed25519, true);
      const ed = both.data!.records.find((r) => r.purpose === 'dkim_ed25519');
      assert.ok(ed, JSON.stringify(both.data!.records));
      assert.equal(ed.type, 'TXT');
      assert.match(ed.name, new RegExp(`^ph\\d{6}e\\._domainkey\\.${name.replace(/\./g, '\\.')}$`));
      assert.match(ed.value, /^v=DKIM1; k=ed25519; p=[A-Za-z0-9+/]{43}=$/);
      assert.equal(ed.status, 'unknown');
      const row = await api.deps.db
        .selectFrom('domains')
        .select(['track_opens', 'track_clicks', 'unsubscribe', 'ed25519_private_key'])
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      assert.deepEqual([row.track_opens, row.track_clicks, row.unsubscribe].map(Number), [1, 1, 1]);
      assert.notEqual(row.ed25519_private_key, null);

      // The Ed25519 record is checked with the four, but never decides the status.
      publish([...added.records]);
      dns.zone[ed.name] = { TXT: [[ed.value.replace('k=ed25519', 'k=rsa')]] };
      const checked = await client().POST('/v1/domains/{domain}/verify', { params: { path: { domain: name } } });
      assert.equal(checked.data!.status, 'verified');
      assert.equal(checked.data!.records.find((r) => r.purpose === 'dkim_ed25519')!.status, 'mismatch');
      publish([ed]);
      const again = await client().POST('/v1/domains/{domain}/verify', { params: { path: { domain: name } } });
      assert.equal(again.data!.records.find((r) => r.purpose === 'dkim_ed25519')!.status, 'ok');

      const off = await patch({ ed25519: false });
      assert.equal(off.data!.ed25519, false);
      assert.deepEqual(
        off.data!.records.map((r) => r.purpose),
        ['spf', 'dkim', 'return_path', 'dmarc'],
      );

      const before = (await auditEntries(api, admin, 'domain.update')).length;
      const same = await patch({ tracking: { opens: true }, ed25519: false });
      assert.equal(same.response.status, 200);
      assert.equal((await auditEntries(api, admin, 'domain.update')).length, before, 'no change, no entry');
      assert.deepEqual((await auditEntries(api, admin, 'domain.update')).map((e) => e.target).slice(0, 3), [
        `${name} (ed25519 off)`,
        `${name} (tracking.clicks on, tracking.unsubscribe on, ed25519 on)`,
        `${name} (tracking.opens on)`,
      ]);
    });

    test('POST …/dkim/rotate: a pending record to publish; a second one is 409; verify switches signing and lists the old selector', async () => {
      const name = `rotate-${dialect}.test`;
      const added = (await client().POST('/v1/domains', { body: { name } })).data as Domain;
      publish(added.records);
      const path = { params: { path: { domain: name } } };
      assert.equal((await client().POST('/v1/domains/{domain}/verify', path)).data!.status, 'verified');
      const oldSelector = added.records[1]!.name.split('.')[0]!;

      const rotated = await client().POST('/v1/domains/{domain}/dkim/rotate', path);
      assert.equal(rotated.response.status, 200, JSON.stringify(rotated.error));
      const dkim = rotated.data!.dkim;
      assert.equal(dkim.selector, oldSelector, 'still signing with the old key');
      assert.ok(dkim.pending);
      assert.match(dkim.pending.selector, /^ph\d{8}$/);
      assert.equal(dkim.pending.name, `${dkim.pending.selector}._domainkey.${name}`);
      assert.equal(dkim.pending.status, 'unknown', 'not checked yet');
      assert.equal(dkim.pending.problem, null);
      const listed = rotated.data!.records.find((r) => r.purpose === 'dkim_pending');
      assert.deepEqual(listed && [listed.name, listed.value], [dkim.pending.name, dkim.pending.value]);

      assertError(await client().POST('/v1/domains/{domain}/dkim/rotate', path), 409, 'conflict', 'domain');
      assertError(await api.client(viewer).POST('/v1/domains/{domain}/dkim/rotate', path), 403, 'forbidden');
      assertError(
        await client().POST('/v1/domains/{domain}/dkim/rotate', { params: { path: { domain: other.domain } } }),
        404,
        'not_found',
        'domain',
      );

      // Not published: verify keeps the old key and says what is missing.
      const missing = await client().POST('/v1/domains/{domain}/verify', path);
      assert.equal(missing.data!.dkim.pending?.status, 'missing');
      publish([listed!]);
      const switched = await client().POST('/v1/domains/{domain}/verify', path);
      assert.equal(switched.data!.status, 'verified');
      assert.equal(switched.data!.dkim.selector, dkim.pending.selector);
      assert.equal(switched.data!.dkim.pending, null);
      assert.equal(switched.data!.dkim.retired?.selector, oldSelector);
      assert.equal(
        switched.data!.dkim.retired?.remove_after,
        new Date(api.deps.clock.now() + api.deps.config.dkimRetireAfter).toISOString(),
      );
      assert.deepEqual(
        switched.data!.records.map((r) => [r.purpose, r.status]),
        [
          ['spf', 'ok'],
          ['dkim', 'ok'],
          ['return_path', 'ok'],
          ['dmarc', 'ok'],
        ],
      );
      assert.equal(switched.data!.records[1]!.name, dkim.pending.name);
      const actors = (action: string) =>
        auditEntries(api, admin, action).then((es) =>
          es.filter((e) => e.target.startsWith(`${name} `)).map((e) => e.actor),
        );
      assert.deepEqual(await actors('domain.dkim_rotate'), ['token:deploy-bot']);
      assert.deepEqual(await actors('domain.dkim_switch'), ['token:deploy-bot'], 'the verify caller switched it');

      // The domain's own schedule, and back to the server's.
      const every = await client().PATCH('/v1/domains/{domain}', { ...path, body: { dkim: { rotate_days: 90 } } });
      assert.equal(every.data!.dkim.rotate_days, 90);
      assert.equal(
        every.data!.dkim.next_rotation_at,
        new Date(Date.parse(every.data!.dkim.key_created_at) + 90 * 86_400_000).toISOString(),
      );
      const server = await client().PATCH('/v1/domains/{domain}', { ...path, body: { dkim: { rotate_days: null } } });
      assert.equal(server.data!.dkim.rotate_days, null);
      assert.equal(server.data!.dkim.next_rotation_at, null, 'the server schedule is off by default');
      assertError(
        await rawCall(
          api,
          'PATCH',
          '/v1/domains/{domain}',
          `/v1/domains/${name}`,
          admin,
          JSON.stringify({ dkim: { rotate_days: -1 } }),
        ),
        400,
        'invalid_request',
        'dkim.rotate_days',
      );
    });

    test('PATCH refuses bad settings naming the field, a viewer, a sending key and another account’s domain', async () => {
      const path = `/v1/domains/${keyed.domain}`;
      const patch = (body: string) => rawCall(api, 'PATCH', '/v1/domains/{domain}', path, admin, body);
      assertError(await patch('{"tracking":{"opens":"yes"}}'), 400, 'invalid_request', 'tracking.opens');
      assertError(await patch('{"tracking":{"pixels":true}}'), 400, 'invalid_request', 'tracking.pixels');
      assertError(await patch('{"tracking":true}'), 400, 'invalid_request', 'tracking');
      assertError(await patch('{"ed25519":1}'), 400, 'invalid_request', 'ed25519');
      assertError(await patch('{"name":"x.test"}'), 400, 'invalid_request', 'name');
      assertError(await patch('[]'), 400, 'invalid_request', 'body');
      const body = { tracking: { opens: true } };
      assertError(
        await api.client(viewer).PATCH('/v1/domains/{domain}', { params: { path: { domain: keyed.domain } }, body }),
        403,
        'forbidden',
      );
      assertError(
        await api.client(keyed.key).PATCH('/v1/domains/{domain}', { params: { path: { domain: keyed.domain } }, body }),
        403,
        'forbidden',
      );
      assertError(
        await client().PATCH('/v1/domains/{domain}', { params: { path: { domain: other.domain } }, body }),
        404,
        'not_found',
        'domain',
      );
      const untouched = await api.deps.db
        .selectFrom('domains')
        .select('track_opens')
        .where('name', 'in', [keyed.domain, other.domain])
        .execute();
      assert.deepEqual(
        untouched.map((r) => Number(r.track_opens)),
        [0, 0],
      );
    });

    test('DELETE ends the key, SMTP logins and webhook at once; accepted mail and events stay; the name is free again', async () => {
      const doomed = await seedDomain(api.deps, { account: 'acme', domain: `doomed-${dialect}.test` });
      const now = api.deps.clock.now();
      // A message accepted before the deletion.
      const sent = await api.fetch('/v1/send', {
        method: 'POST',
        headers: { authorization: `Bearer ${doomed.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ from: `a@${doomed.domain}`, to: 'bob@example.org', subject: 'Hi', text: 'Hi' }),
      });
      assert.equal(sent.status, 202, await sent.text());
      await api.deps.db
        .insertInto('smtp_credentials')
        .values({
          id: 'cred_doomed',
          domain_id: doomed.domainId,
          username: `ph_smtp_d00med${dialect === 'sqlite' ? '00' : '11'}`,
          password_hash: 'scrypt$unused',
          created_at: now,
          revoked_at: null,
        })
        .execute();
      await api.deps.db
        .insertInto('webhook_endpoints')
        .values({
          id: `whe_${doomed.domainId}`,
          domain_id: doomed.domainId,
          url: 'https://hooks.example.org/posthorn',
          secrets: '[]',
          status: 'active',
          failing_since: null,
          disabled_at: null,
          disabled_reason: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      assert.equal(
        (await api.client(doomed.key).GET('/v1/domain')).response.status,
        200,
        'the key works before the deletion',
      );

      assertError(
        await api.client(viewer).DELETE('/v1/domains/{domain}', { params: { path: { domain: doomed.domain } } }),
        403,
        'forbidden',
      );
      assertError(
        await api.client(doomed.key).DELETE('/v1/domains/{domain}', { params: { path: { domain: doomed.domain } } }),
        403,
        'forbidden',
      );
      assertError(
        await api.client(otherAdmin).DELETE('/v1/domains/{domain}', { params: { path: { domain: doomed.domain } } }),
        404,
        'not_found',
        'domain',
      );

      const gone = await client().DELETE('/v1/domains/{domain}', { params: { path: { domain: doomed.domain } } });
      assert.equal(gone.response.status, 204);

      // The key: 401 on its very next request.
      assertError(await api.client(doomed.key).GET('/v1/domain'), 401, 'invalid_key');
      const login = await api.deps.db
        .selectFrom('smtp_credentials')
        .select('revoked_at')
        .where('id', '=', 'cred_doomed')
        .executeTakeFirstOrThrow();
      assert.equal(Number(login.revoked_at), now, 'the SMTP login is revoked');
      // The webhook: gone, so the next event of the domain queues no post.
      assert.equal(
        (
          await api.deps.db
            .selectFrom('webhook_endpoints')
            .select('id')
            .where('domain_id', '=', doomed.domainId)
            .execute()
        ).length,
        0,
      );
      const queued = await enqueueWebhooks(api.deps.db, [
        { domainId: doomed.domainId, id: 'evt_after', event: 'delivered', payload: () => '{}', at: now },
      ]);
      assert.equal(queued, 0);
      // What it accepted is still delivered: the delivery engine still loads it, with its DKIM key.
      const jobs = await api.deps.db
        .selectFrom('jobs')
        .innerJoin('messages', 'messages.id', 'jobs.message_id')
        .selectAll('jobs')
        .where('messages.domain_id', '=', doomed.domainId)
        .execute();
      assert.equal(jobs.length, 1);
      const loaded = await loadClaimed(api.deps, jobs);
      assert.deepEqual([loaded.groups.length, loaded.orphans.length], [1, 0]);
      // Its events stay until retention ends.
      const events = await api.deps.db
        .selectFrom('events')
        .select('event')
        .where('domain_id', '=', doomed.domainId)
        .execute();
      assert.deepEqual(
        events.map((e) => e.event),
        ['accepted-by-system'],
      );

      assertError(
        await client().GET('/v1/domains/{domain}', { params: { path: { domain: doomed.domain } } }),
        404,
        'not_found',
        'domain',
      );
      assert.ok(!(await client().GET('/v1/domains')).data!.domains.some((d) => d.name === doomed.domain));
      assertError(
        await client().DELETE('/v1/domains/{domain}', { params: { path: { domain: doomed.domain } } }),
        404,
        'not_found',
        'domain',
      );
      const [entry] = await auditEntries(api, admin, 'domain.delete');
      assert.equal(entry!.target, doomed.domain);

      // The name is free: another account may add it now, as a new domain.
      const readded = await api.client(otherAdmin).POST('/v1/domains', { body: { name: doomed.domain } });
      assert.equal(readded.response.status, 201);
      assert.equal(readded.data!.status, 'pending');
    });

    test('every route refuses a sending key (403) and, for writes, a viewer (403); none answers without a token', async () => {
      const domain = keyed.domain;
      const calls: [string, string, string, string | undefined][] = [
        ['GET', '/v1/domains', '/v1/domains', undefined],
        ['POST', '/v1/domains', '/v1/domains', '{"name":"x.test"}'],
        ['GET', '/v1/domains/{domain}', `/v1/domains/${domain}`, undefined],
        ['POST', '/v1/domains/{domain}/verify', `/v1/domains/${domain}/verify`, undefined],
        ['PATCH', '/v1/domains/{domain}', `/v1/domains/${domain}`, '{"ed25519":true}'],
        ['DELETE', '/v1/domains/{domain}', `/v1/domains/${domain}`, undefined],
      ];
      for (const [method, template, path, body] of calls) {
        assertError(await rawCall(api, method, template, path, keyed.key, body), 403, 'forbidden');
        assertError(await rawCall(api, method, template, path, undefined, body), 401, 'invalid_key');
        if (method !== 'GET') assertError(await rawCall(api, method, template, path, viewer, body), 403, 'forbidden');
      }
      const row = await api.deps.db
        .selectFrom('domains')
        .select(['deleted_at', 'ed25519_private_key'])
        .where('name', '=', domain)
        .executeTakeFirstOrThrow();
      assert.deepEqual([row.deleted_at, row.ed25519_private_key], [null, null], 'no refused call changed anything');
    });

    test('GET /v1/domain (a sending key’s own domain) is documented; an account token gets 403 there', async () => {
      const { data, response } = await api.client(keyed.key).GET('/v1/domain');
      assert.equal(response.status, 200);
      assert.equal(data!.domain, keyed.domain);
      assert.equal(data!.status, 'verified');
      assert.equal(data!.complaint_rate.window_days, 30);
      assertError(await api.client(admin).GET('/v1/domain'), 403, 'forbidden');
    });
  });
}
