// The suppression routes of the management API (docs/api.md, Suppressions) over real HTTPS, on
// every test database: list and search, add, remove, export, import, and who may do what.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Response as UndiciResponse, RequestInit as UndiciInit } from 'undici';
import { testDialects } from '../helpers/test-db.js';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { seedDomain, type Seeded } from '../helpers/seed.js';
import { checkResponse } from '../helpers/openapi-check.js';
import { writeEvents } from '../../src/events/write-events.js';
import { newEvent } from '../../src/events/event-record.js';

/** A raw request whose answer is still checked against the OpenAPI document. */
async function raw(
  api: ApiHarness,
  method: string,
  template: string,
  path: string,
  init: UndiciInit = {},
): Promise<{ res: UndiciResponse; text: string; json: unknown }> {
  const res = await api.fetch(path, { ...init, method });
  const text = await res.text();
  const type = res.headers.get('content-type');
  const json = (type ?? '').startsWith('application/json') ? (JSON.parse(text) as unknown) : undefined;
  checkResponse(method, template, res.status, type, json);
  return { res, text, json };
}

type ErrorJson = { error: { type: string; field?: string; message: string } };

for (const dialect of testDialects()) {
  describe(`management API: suppressions (${dialect})`, () => {
    let api: ApiHarness;
    let acme: Seeded;
    let admin: string;
    let viewer: string;
    let otherAdmin: string;

    const audit = async (action: string) =>
      (
        await api.deps.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('at').execute()
      ).filter((e) => e.account_id === acme.accountId);

    const importBody = (token: string, body: string, type = 'text/csv', headers: Record<string, string> = {}) =>
      raw(api, 'POST', '/v1/suppressions/import', '/v1/suppressions/import', {
        headers: { authorization: `Bearer ${token}`, 'content-type': type, ...headers },
        body,
      });

    const exportAll = async (token: string, accept?: string) =>
      raw(api, 'GET', '/v1/suppressions/export', '/v1/suppressions/export', {
        headers: { authorization: `Bearer ${token}`, ...(accept ? { accept } : {}) },
      });

    before(async () => {
      api = await startApiHarness(dialect);
      acme = await seedDomain(api.deps, { account: 'acme', domain: 'acme.test' });
      await seedDomain(api.deps, { account: 'other', domain: 'other.test' });
      admin = await api.token('acme', 'admin', 'ops');
      viewer = await api.token('acme', 'viewer', 'auditor');
      otherAdmin = await api.token('other', 'admin', 'theirs');
    });
    after(() => api.close());

    test('POST adds an address (201, reason manual), again is 200 with the entry as it was; each add audited once', async () => {
      const client = api.client(admin);
      const first = await client.POST('/v1/suppressions', { body: { address: 'Ana@Example.ORG' } });
      assert.equal(first.response.status, 201);
      assert.deepEqual(first.data, {
        address: 'ana@example.org',
        reason: 'manual',
        created_at: new Date(api.deps.clock.now()).toISOString(),
        domain: null,
        message_id: null,
        bounce_reason: null,
      });
      api.deps.clock.advance(1000);
      const again = await client.POST('/v1/suppressions', {
        body: { address: 'ana@example.org', reason: 'complaint' },
      });
      assert.equal(again.response.status, 200);
      assert.deepEqual(again.data, first.data, 'the first entry stands');
      const withReason = await client.POST('/v1/suppressions', {
        body: { address: 'bob@example.org', reason: 'hard_bounce' },
      });
      assert.equal(withReason.response.status, 201);
      assert.equal(withReason.data!.reason, 'hard_bounce');
      const entries = await audit('suppression.add');
      assert.deepEqual(
        entries.map((e) => [e.actor, e.target]),
        [
          ['token:ops', 'ana@example.org'],
          ['token:ops', 'bob@example.org'],
        ],
      );
      assert.equal(entries[0]!.ip, '127.0.0.1');
    });

    test('POST refuses a bad address, reason, or body with 400 naming the field', async () => {
      const client = api.client(admin);
      for (const [body, field] of [
        [{ address: 'not-an-address' }, 'address'],
        [{ address: 'bob@' }, 'address'],
        [{ address: '' }, 'address'],
        [{ address: 'eve@example.org', reason: 'spite' }, 'reason'],
        [{ reason: 'manual' }, 'address'],
      ] as const) {
        const { error, response } = await client.POST('/v1/suppressions', { body: body as never });
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.equal(error!.error.type, 'invalid_request');
        assert.equal(error!.error.field, field, `${JSON.stringify(body)}: ${error!.error.message}`);
      }
      const wrongType = await raw(api, 'POST', '/v1/suppressions', '/v1/suppressions', {
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'text/plain' },
        body: 'eve@example.org',
      });
      assert.equal(wrongType.res.status, 400);
      assert.equal((wrongType.json as ErrorJson).error.field, 'Content-Type');
    });

    test('GET lists in address order, searches any part of the address, filters by reason, and pages by cursor', async () => {
      const client = api.client(admin);
      for (const address of ['carol@shop.example', 'dave@shop.example', 'erin@mail.example', 'a_b%c@shop.example']) {
        api.deps.clock.advance(1000);
        await client.POST('/v1/suppressions', { body: { address } });
      }
      const all = await client.GET('/v1/suppressions');
      assert.equal(all.response.status, 200);
      assert.deepEqual(
        all.data!.suppressions.map((s) => s.address),
        [
          'a_b%c@shop.example',
          'ana@example.org',
          'bob@example.org',
          'carol@shop.example',
          'dave@shop.example',
          'erin@mail.example',
        ],
      );
      assert.equal(all.data!.next_cursor, null);

      const shop = await client.GET('/v1/suppressions', { params: { query: { address: '@SHOP.example' } } });
      assert.deepEqual(
        shop.data!.suppressions.map((s) => s.address),
        ['a_b%c@shop.example', 'carol@shop.example', 'dave@shop.example'],
      );
      // LIKE's wildcards are searched as text.
      const literal = await client.GET('/v1/suppressions', { params: { query: { address: '_b%' } } });
      assert.deepEqual(
        literal.data!.suppressions.map((s) => s.address),
        ['a_b%c@shop.example'],
      );
      const bounced = await client.GET('/v1/suppressions', { params: { query: { reason: 'hard_bounce' } } });
      assert.deepEqual(
        bounced.data!.suppressions.map((s) => s.address),
        ['bob@example.org'],
      );

      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 10; page++) {
        const { data } = await client.GET('/v1/suppressions', {
          params: { query: { limit: 4, ...(cursor ? { cursor } : {}) } },
        });
        assert.ok(data!.suppressions.length <= 4);
        seen.push(...data!.suppressions.map((s) => s.address));
        if (data!.next_cursor === null) break;
        cursor = data!.next_cursor;
      }
      assert.deepEqual(
        seen,
        all.data!.suppressions.map((s) => s.address),
      );

      const theirs = await api.client(otherAdmin).GET('/v1/suppressions');
      assert.deepEqual(theirs.data!.suppressions, [], "another account's list is its own");
    });

    test('GET refuses bad query parameters with 400 naming them', async () => {
      const client = api.client(admin);
      for (const [query, field] of [
        [{ limit: 0 }, 'limit'],
        [{ limit: 1001 }, 'limit'],
        [{ reason: 'spite' }, 'reason'],
        [{ cursor: 'not-a-cursor' }, 'cursor'],
        [{ colour: 'blue' }, 'colour'],
      ] as const) {
        const { error, response } = await client.GET('/v1/suppressions', { params: { query: query as never } });
        assert.equal(response.status, 400, JSON.stringify(query));
        assert.equal(error!.error.field, field, JSON.stringify(query));
      }
    });

    test('DELETE removes (204, audited), then 404; a bad address is 400; another account cannot remove ours', async () => {
      const client = api.client(admin);
      const theirs = await api.client(otherAdmin).DELETE('/v1/suppressions/{address}', {
        params: { path: { address: 'carol@shop.example' } },
      });
      assert.equal(theirs.response.status, 404);
      assert.equal(theirs.error!.error.field, 'address');

      const removed = await client.DELETE('/v1/suppressions/{address}', {
        params: { path: { address: 'Carol@Shop.Example' } },
      });
      assert.equal(removed.response.status, 204);
      const again = await client.DELETE('/v1/suppressions/{address}', {
        params: { path: { address: 'carol@shop.example' } },
      });
      assert.equal(again.response.status, 404);
      assert.equal(again.error!.error.type, 'not_found');
      assert.equal(again.error!.error.field, 'address');
      const bad = await client.DELETE('/v1/suppressions/{address}', { params: { path: { address: 'nobody' } } });
      assert.equal(bad.response.status, 400);
      assert.equal(bad.error!.error.field, 'address');
      assert.deepEqual(
        (await audit('suppression.remove')).map((e) => [e.actor, e.target]),
        [['token:ops', 'carol@shop.example']],
      );

      // A local part may hold a slash: percent-encoded in the path, it still names one address.
      await client.POST('/v1/suppressions', { body: { address: 'sales/eu@shop.example' } });
      const slashed = await raw(
        api,
        'DELETE',
        '/v1/suppressions/{address}',
        `/v1/suppressions/${encodeURIComponent('sales/eu@shop.example')}`,
        { headers: { authorization: `Bearer ${admin}` } },
      );
      assert.equal(slashed.res.status, 204);
    });

    test('a sending key is 403 on every suppression route; a viewer reads and exports but cannot change', async () => {
      const key = api.client(acme.key);
      const refused = [
        (await key.GET('/v1/suppressions')).response,
        (await key.POST('/v1/suppressions', { body: { address: 'x@example.org' } })).response,
        (await key.DELETE('/v1/suppressions/{address}', { params: { path: { address: 'ana@example.org' } } })).response,
        (await exportAll(acme.key)).res,
        (await importBody(acme.key, 'address\nx@example.org\n')).res,
      ];
      assert.deepEqual(
        refused.map((r) => r.status),
        [403, 403, 403, 403, 403],
      );

      const v = api.client(viewer);
      assert.equal((await v.GET('/v1/suppressions')).response.status, 200);
      assert.equal((await exportAll(viewer)).res.status, 200);
      const writes = [
        await v.POST('/v1/suppressions', { body: { address: 'x@example.org' } }),
        await v.DELETE('/v1/suppressions/{address}', { params: { path: { address: 'ana@example.org' } } }),
      ];
      for (const w of writes) {
        assert.equal(w.response.status, 403);
        assert.equal(w.error!.error.type, 'forbidden');
      }
      const viewerImport = await importBody(viewer, 'address\nx@example.org\n');
      assert.equal(viewerImport.res.status, 403);
      assert.equal((viewerImport.json as ErrorJson).error.type, 'forbidden');
      const rows = await api.deps.db
        .selectFrom('suppressions')
        .select('address')
        .where('address', '=', 'x@example.org')
        .execute();
      assert.deepEqual(rows, [], 'no refused write got through');
    });

    test('a bounce, complaint or unsubscribe event suppresses with the sending domain and message', async () => {
      const message = {
        id: api.deps.ids.next('msg', api.deps.clock.now()),
        accountId: acme.accountId,
        domainId: acme.domainId,
        from: 'hello@acme.test',
        subject: 'Hi',
        tags: [],
        metadata: {},
      };
      await api.deps.db.transaction().execute((trx) =>
        writeEvents(trx, [
          newEvent(api.deps.ids, message, {
            event: 'complained',
            recipient: 'Grumpy@Example.net',
            at: api.deps.clock.now(),
          }),
        ]),
      );
      const { data } = await api.client(admin).GET('/v1/suppressions', { params: { query: { address: 'grumpy' } } });
      assert.deepEqual(data!.suppressions, [
        {
          address: 'grumpy@example.net',
          reason: 'complaint',
          created_at: new Date(api.deps.clock.now()).toISOString(),
          domain: 'acme.test',
          message_id: message.id,
          bounce_reason: null,
        },
      ]);
    });

    test('export: CSV with the header line in address order, or NDJSON when asked; only the own account', async () => {
      const csv = await exportAll(admin);
      assert.equal(csv.res.status, 200);
      assert.equal(csv.res.headers.get('content-type'), 'text/csv; charset=utf-8');
      assert.match(csv.res.headers.get('content-disposition') ?? '', /attachment; filename="suppressions\.csv"/);
      const lines = csv.text.trimEnd().split('\n');
      assert.equal(lines[0], 'address,reason,created_at,domain,message_id');
      const addresses = lines.slice(1).map((l) => l.split(',')[0]!);
      const inOrder = await api.deps.db
        .selectFrom('suppressions')
        .select('address')
        .where('account_id', '=', acme.accountId)
        .orderBy('address')
        .execute();
      assert.deepEqual(
        addresses,
        inOrder.map((r) => r.address),
      );
      assert.ok(addresses.includes('ana@example.org'));
      const grumpy = lines.find((l) => l.startsWith('grumpy@'))!;
      assert.match(
        grumpy,
        /^grumpy@example\.net,complaint,2026-11-21T\d\d:\d\d:\d\d\.\d{3}Z,acme\.test,msg_[0-9A-Z]{26}$/,
      );
      assert.match(
        lines.find((l) => l.startsWith('ana@'))!,
        /^ana@example\.org,manual,[^,]+,,$/,
      );

      const nd = await exportAll(admin, 'application/x-ndjson');
      assert.equal(nd.res.headers.get('content-type'), 'application/x-ndjson');
      const objects = nd.text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.deepEqual(
        objects.map((o) => o.address),
        addresses,
      );
      assert.deepEqual(Object.keys(objects[0]!), ['address', 'reason', 'created_at', 'domain', 'message_id']);
      // The heavier weight wins; an Accept naming neither gets the default, CSV.
      assert.equal(
        (await exportAll(admin, 'text/csv;q=0.5, application/x-ndjson')).res.headers.get('content-type'),
        'application/x-ndjson',
      );
      assert.equal(
        (await exportAll(admin, 'application/json')).res.headers.get('content-type'),
        'text/csv; charset=utf-8',
      );
      const theirs = await exportAll(otherAdmin);
      assert.equal(theirs.text, 'address,reason,created_at,domain,message_id\n');
    });

    test('import CSV: valid rows in, invalid ones listed by line, duplicates and listed ones counted; again imports 0', async () => {
      const token = await api.token('imports', 'admin', 'importer');
      const csv = [
        'Address,Reason,created_at',
        'one@example.com,hard_bounce,2026-01-02T03:04:05.678Z',
        'two@example.com,,',
        'not-an-address,manual,',
        'ONE@example.com,complaint,',
        '"three@example.com",unsubscribed,2026-01-02T03:04:05+01:00',
        'four@example.com,tired,',
        'five@example.com,manual,yesterday',
        '',
        '"multi',
        'line@example.com",manual,',
        'six@example.com,manual',
        'seven@example.com,manual,2099-01-01T00:00:00.000Z',
        'c"d@example.com,manual,',
        'eight@example.com,manual,',
      ].join('\r\n');
      const first = await importBody(token, csv);
      assert.equal(first.res.status, 200, first.text);
      const result = first.json as {
        imported: number;
        already_suppressed: number;
        invalid_count: number;
        invalid: { line: number; value: string; message: string }[];
      };
      assert.equal(result.imported, 4, first.text);
      assert.equal(result.already_suppressed, 1);
      assert.equal(result.invalid_count, 7);
      assert.deepEqual(
        result.invalid.map((i) => i.line),
        [4, 7, 8, 10, 12, 13, 14],
      );
      const byLine = new Map(result.invalid.map((i) => [i.line, i]));
      assert.match(byLine.get(4)!.message, /address "not-an-address" is not an email address/);
      assert.match(byLine.get(7)!.message, /reason "tired" is not one of hard_bounce, complaint, unsubscribed, manual/);
      assert.match(byLine.get(8)!.message, /created_at "yesterday" is not an RFC 3339 date-time/);
      assert.equal(
        byLine.get(10)!.message,
        'address "multi\\r\\nline@example.com" is not an email address (expected local@domain.example)',
      );
      assert.equal(byLine.get(12)!.message, 'this row has 2 fields; the header line names 3');
      assert.match(byLine.get(13)!.message, /is in the future/);
      assert.match(byLine.get(14)!.message, /^this row is not valid CSV \(RFC 4180\): Invalid Opening Quote/);

      const { data } = await api.client(token).GET('/v1/suppressions', { params: { query: { limit: 100 } } });
      const listed = new Map(data!.suppressions.map((s) => [s.address, s]));
      assert.deepEqual([...listed.keys()].sort(), [
        'eight@example.com',
        'one@example.com',
        'three@example.com',
        'two@example.com',
      ]);
      assert.deepEqual(listed.get('one@example.com'), {
        address: 'one@example.com',
        reason: 'hard_bounce',
        created_at: '2026-01-02T03:04:05.678Z',
        domain: null,
        message_id: null,
        bounce_reason: null,
      });
      assert.equal(listed.get('three@example.com')!.created_at, '2026-01-02T02:04:05.000Z');
      assert.equal(listed.get('two@example.com')!.reason, 'manual');
      assert.equal(listed.get('two@example.com')!.created_at, new Date(api.deps.clock.now()).toISOString());

      const second = await importBody(token, csv);
      assert.deepEqual(
        { ...(second.json as object), invalid: undefined },
        { imported: 0, already_suppressed: 5, invalid_count: 7, invalid: undefined },
      );
      const imports = await api.deps.db
        .selectFrom('audit_log')
        .select(['actor', 'target'])
        .where('action', '=', 'suppression.import')
        .orderBy('at')
        .orderBy('id')
        .execute();
      assert.deepEqual(
        imports.filter((e) => e.actor === 'token:importer').map((e) => e.target),
        ['4 imported, 1 already suppressed, 7 invalid', '0 imported, 5 already suppressed, 7 invalid'],
      );
    });

    test('import NDJSON: one object per line; bad lines listed', async () => {
      const token = await api.token('ndjson', 'admin');
      const body = [
        '{"address":"nd1@example.com","reason":"complaint","created_at":"2026-02-03T04:05:06.007Z","domain":"Mail.Example.com","message_id":"msg_01JD3Z8Q4WJ6V2X5K7M9N0P1QR"}',
        '{"address":"nd2@example.com","domain":null}',
        'not json',
        '["nd3@example.com"]',
        '{"address":"nd4@example.com","colour":"blue"}',
        '{"address":42}',
        '',
        '{"address":"nd5@example.com","message_id":"12345"}',
      ].join('\n');
      const { res, json } = await importBody(token, body, 'application/x-ndjson');
      assert.equal(res.status, 200);
      const r = json as { imported: number; invalid_count: number; invalid: { line: number; message: string }[] };
      assert.equal(r.imported, 2);
      assert.equal(r.invalid_count, 5);
      assert.deepEqual(
        r.invalid.map((i) => i.line),
        [3, 4, 5, 6, 8],
      );
      assert.match(r.invalid[0]!.message, /not JSON/);
      assert.match(r.invalid[2]!.message, /unknown field "colour"/);
      assert.match(r.invalid[3]!.message, /address must be a string/);
      assert.match(r.invalid[4]!.message, /message_id "12345" is not a Posthorn message id/);
      const { data } = await api.client(token).GET('/v1/suppressions', { params: { query: { address: 'nd1' } } });
      assert.deepEqual(data!.suppressions[0], {
        address: 'nd1@example.com',
        reason: 'complaint',
        created_at: '2026-02-03T04:05:06.007Z',
        domain: 'mail.example.com',
        message_id: 'msg_01JD3Z8Q4WJ6V2X5K7M9N0P1QR',
        bounce_reason: null,
      });
    });

    test('import refuses a wrong Content-Type or encoding, and a header without address or with unknown columns, naming them', async () => {
      const cases: [string, Record<string, string>, string, string][] = [
        ['application/json', {}, '{"address":"x@example.org"}', 'Content-Type'],
        ['text/csv; charset=latin1', {}, 'address\nx@example.org\n', 'Content-Type'],
        ['text/csv', { 'content-encoding': 'gzip' }, 'address\nx@example.org\n', 'Content-Encoding'],
        ['text/csv', {}, 'email,reason\nx@example.org,manual\n', 'address'],
        ['text/csv', {}, 'x@example.org\ny@example.org\n', 'address'],
        ['text/csv', {}, 'address,colour\nx@example.org,blue\n', 'header'],
        ['text/csv', {}, 'address,address\nx@example.org,x@example.org\n', 'header'],
        ['text/csv', {}, '', 'header'],
      ];
      for (const [type, headers, body, field] of cases) {
        const { res, json } = await importBody(admin, body, type, headers);
        assert.equal(res.status, 400, `${type} ${body}`);
        assert.equal((json as ErrorJson).error.field, field, `${type} ${body}: ${(json as ErrorJson).error.message}`);
      }
      const missing = await raw(api, 'POST', '/v1/suppressions/import', '/v1/suppressions/import', {
        headers: { authorization: `Bearer ${admin}` },
        body: 'address\nx@example.org\n',
      });
      assert.equal(missing.res.status, 400);
      assert.equal((missing.json as ErrorJson).error.field, 'Content-Type');
      const none = await api.deps.db
        .selectFrom('suppressions')
        .select('address')
        .where('address', '=', 'x@example.org')
        .execute();
      assert.deepEqual(none, []);
    });

    test('a large body refused by its header, or cut short by an unclosed quote, still gets its answer', async () => {
      const rows = Array.from({ length: 20_000 }, (_, i) => `late${i}@example.com,manual`).join('\n');
      const badHeader = await importBody(admin, `email,reason\n${rows}\n`);
      assert.equal(badHeader.res.status, 400);
      assert.equal((badHeader.json as ErrorJson).error.field, 'address');

      const token = await api.token('unclosed', 'admin');
      const { res, json } = await importBody(
        token,
        `address,reason\nfirst@example.com,manual\n"second@example.com,manual\n${rows}\n`,
      );
      assert.equal(res.status, 200);
      assert.deepEqual(json, {
        imported: 1,
        already_suppressed: 0,
        invalid_count: 1,
        invalid: [
          {
            line: 3,
            value: '',
            message:
              'a quoted field that never closes (or a row over 65536 bytes) starts here; nothing from this line on was read',
          },
        ],
      });
    });

    test('round trip: an export imported into an empty account exports byte for byte the same', async () => {
      const source = await api.token('roundtrip-source', 'admin');
      const rows = ['address,reason,created_at,domain,message_id'];
      for (let i = 0; i < 12_000; i++) {
        const reason = ['hard_bounce', 'complaint', 'unsubscribed', 'manual'][i % 4];
        const domain = i % 3 === 0 ? '' : `mail${i % 7}.example.com`;
        const id = i % 5 === 0 ? '' : `msg_01JD3Z8Q4WJ6V2X5K7M9N${String(i).padStart(5, '0')}`;
        rows.push(
          `user.${(i * 7919) % 12_000}+tag@ex-${i % 11}.example,${reason},2026-0${1 + (i % 9)}-1${i % 10}T0${i % 10}:00:0${i % 10}.${String(i % 1000).padStart(3, '0')}Z,${domain},${id}`,
        );
      }
      const seeded = await importBody(source, rows.join('\n'));
      assert.equal((seeded.json as { imported: number }).imported, 12_000, seeded.text);
      const exported = await exportAll(source);

      const target = await api.token('roundtrip-target', 'admin');
      const back = await importBody(target, exported.text);
      assert.deepEqual(back.json, { imported: 12_000, already_suppressed: 0, invalid_count: 0, invalid: [] });
      const again = await exportAll(target);
      assert.equal(again.text.length, exported.text.length);
      assert.ok(again.text === exported.text, 'the second export differs from the first');

      const nd = await exportAll(source, 'application/x-ndjson');
      const ndTarget = await api.token('roundtrip-ndjson', 'admin');
      await importBody(ndTarget, nd.text, 'application/x-ndjson');
      assert.ok((await exportAll(ndTarget, 'application/x-ndjson')).text === nd.text, 'the NDJSON round trip differs');
    });
  });
}
