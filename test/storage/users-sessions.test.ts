// Dashboard users and sign-in over real HTTPS: the session cookie, uniform 401s, the throttle, idle
// expiry on the fake clock, sign-out and user removal ending sessions on the server, TOTP with
// codes computed from the secret, recovery codes, CSRF, roles, the Settings routes for users and
// tokens, security headers, and the sandbox's demo login (docs/management.md, Users and sign-in).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Secret, TOTP } from 'otpauth';
import { loadConfig } from '../../src/config/load.js';
import { CLI_ACTOR } from '../../src/core/actor.js';
import { SANDBOX } from '../../src/core/sandbox-names.js';
import type { Deps } from '../../src/deps.js';
import { bootstrapSandbox } from '../../src/sandbox/bootstrap-sandbox.js';
import { retireSandbox } from '../../src/sandbox/retire-sandbox.js';
import { createSignInThrottles, resolveSession, signIn, SESSION_IDLE_MS } from '../../src/users/sessions.js';
import { createUser } from '../../src/users/users.js';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { checkResponse } from '../helpers/openapi-check.js';
import { seedDomain } from '../helpers/seed.js';
import { createTestDeps } from '../helpers/test-deps.js';
import { testDialects } from '../helpers/test-db.js';
import pino from 'pino';

const PASSWORD = 'tulip-orbit-mango-47';

interface Call {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whichever fields they check
  body: any;
  headers: Headers;
}

/** A signed-in browser: its cookie and CSRF token. */
interface Browser {
  cookie: string;
  csrf: string;
}

for (const dialect of testDialects()) {
  describe(`dashboard users and sign-in (${dialect})`, () => {
    let api: ApiHarness;
    let origin: string;
    let adminToken: string;
    let viewerToken: string;
    let sendingKey: string;
    let users = 0;

    /**
     * A raw request (cookies and CSRF headers are what the typed client does not send), checked
     * against the OpenAPI document at `template`.
     */
    async function call(
      method: string,
      path: string,
      opts: {
        template?: string;
        browser?: Browser;
        csrf?: string | null;
        origin?: string | null;
        body?: unknown;
        bearer?: string;
      } = {},
    ): Promise<Call> {
      const headers: Record<string, string> = {};
      if (opts.browser) headers.cookie = opts.browser.cookie;
      const csrf = opts.csrf === undefined ? opts.browser?.csrf : opts.csrf;
      if (csrf !== undefined && csrf !== null) headers['x-csrf-token'] = csrf;
      const o = opts.origin === undefined ? origin : opts.origin;
      if (o !== null && method !== 'GET') headers.origin = o;
      if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
      if (opts.body !== undefined) headers['content-type'] = 'application/json';
      const res = await api.fetch(path, {
        method,
        headers,
        ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
      });
      const text = await res.text();
      const body = text === '' ? undefined : JSON.parse(text);
      checkResponse(method, opts.template ?? path, res.status, res.headers.get('content-type'), body);
      return { status: res.status, body, headers: res.headers as unknown as Headers };
    }

    async function newUser(role: 'admin' | 'viewer' = 'admin', account = 'acme'): Promise<string> {
      const email = `user${++users}@example.com`;
      await createUser(api.deps, account, { email, role, password: PASSWORD, actor: CLI_ACTOR });
      return email;
    }

    async function signInAs(email: string, totp?: string): Promise<Browser> {
      const r = await call('POST', '/v1/session', { body: { email, password: PASSWORD, ...(totp ? { totp } : {}) } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const cookie = /^(__Host-posthorn_session=[A-Za-z0-9_-]+);/.exec(r.headers.get('set-cookie') ?? '')?.[1];
      assert.ok(cookie);
      return { cookie, csrf: r.body.csrf_token };
    }

    const whoAmI = (b: Browser): Promise<Call> => call('GET', '/v1/session', { browser: b });

    before(async () => {
      api = await startApiHarness(dialect);
      origin = api.url;
      adminToken = await api.token('acme', 'admin', 'admin-bot');
      viewerToken = await api.token('acme', 'viewer', 'viewer-bot');
      await api.token('other', 'admin');
      sendingKey = (await seedDomain(api.deps, { account: 'acme', domain: 'mail.acme.test' })).key;
    });
    after(async () => {
      await api?.close();
    });

    test('sign-in sets a __Host- cookie (HttpOnly, Secure, SameSite=Lax, Path=/) and GET /v1/session names the user', async () => {
      const email = await newUser('viewer');
      const r = await call('POST', '/v1/session', { body: { email: email.toUpperCase(), password: PASSWORD } });
      assert.equal(r.status, 200);
      const cookie = r.headers.get('set-cookie')!;
      assert.match(cookie, /^__Host-posthorn_session=[A-Za-z0-9_-]{43}; /);
      for (const attr of ['Path=/', 'Secure', 'HttpOnly', 'SameSite=Lax'])
        assert.ok(cookie.split('; ').includes(attr), attr);
      assert.doesNotMatch(cookie, /Domain=/i);
      assert.deepEqual(
        { ...r.body, csrf_token: undefined },
        {
          kind: 'session',
          email,
          token_name: null,
          role: 'viewer',
          account: 'acme',
          totp_enabled: false,
          sandbox: false,
          csrf_token: undefined,
        },
      );
      const browser = { cookie: cookie.split(';')[0]!, csrf: r.body.csrf_token };
      const me = await whoAmI(browser);
      assert.equal(me.status, 200);
      assert.deepEqual(me.body, r.body);
      // The session reads the account's data as a token would.
      const domains = await call('GET', '/v1/domains', { browser });
      assert.equal(domains.status, 200);
      assert.deepEqual(
        domains.body.domains.map((d: { name: string }) => d.name),
        ['mail.acme.test'],
      );
      // And the read routes a sending key shares (events, messages), for the account's domains.
      assert.equal((await call('GET', '/v1/events', { browser })).status, 200);
      assert.equal((await call('GET', '/v1/messages', { browser })).status, 200);
    });

    test('GET /v1/session answers an account token with its kind, name, role and account; a key gets 403', async () => {
      for (const [token, name, role] of [
        [viewerToken, 'viewer-bot', 'viewer'],
        [adminToken, 'admin-bot', 'admin'],
      ] as const) {
        const me = await call('GET', '/v1/session', { bearer: token });
        assert.equal(me.status, 200);
        assert.deepEqual(me.body, {
          kind: 'token',
          email: null,
          token_name: name,
          role,
          account: 'acme',
          totp_enabled: false,
          sandbox: false,
          csrf_token: null,
        });
        assert.equal(me.headers.get('cache-control'), 'no-store');
      }
      const key = await call('GET', '/v1/session', { bearer: sendingKey });
      assert.equal(key.status, 403);
      assert.equal(key.body.error.type, 'forbidden');
      // The routes about a session itself stay a session's: a token has no session to end or enrol.
      assert.equal((await call('DELETE', '/v1/session', { bearer: adminToken })).status, 403);
      assert.equal((await call('POST', '/v1/session/totp', { bearer: adminToken })).status, 403);
    });

    test('users and tokens are listed a page at a time, oldest first; a bad cursor names the field', async () => {
      await api.token('paged', 'admin', 'paged-admin');
      const client = api.client(await api.token('paged', 'admin', 'paged-lister'));
      const emails: string[] = [];
      for (let i = 0; i < 5; i++) {
        const email = `paged${i}@example.com`;
        await createUser(api.deps, 'paged', { email, password: PASSWORD, actor: CLI_ACTOR });
        emails.push(email);
        api.deps.clock.advance(i % 2 === 0 ? 0 : 1000); // two pairs made in the same millisecond
      }
      const seenUsers: string[] = [];
      let cursor: string | undefined;
      // A page's query, typed apart from the loop's narrowing of `cursor`.
      const query = (): { limit: number; cursor?: string } => (cursor ? { limit: 2, cursor } : { limit: 2 });
      do {
        const page = await client.GET('/v1/users', { params: { query: query() } });
        assert.equal(page.response.status, 200);
        assert.ok(page.data!.users.length <= 2);
        seenUsers.push(...page.data!.users.map((u) => u.email));
        cursor = page.data!.next_cursor ?? undefined;
      } while (cursor !== undefined);
      assert.deepEqual(seenUsers, emails);
      const all = await client.GET('/v1/users');
      assert.deepEqual(
        all.data!.users.map((u) => u.email),
        emails,
      );
      assert.equal(all.data!.next_cursor, null);

      for (let i = 0; i < 3; i++) await api.token('paged', 'viewer', `paged-viewer-${i}`);
      const seenTokens: string[] = [];
      cursor = undefined;
      do {
        const page = await client.GET('/v1/tokens', { params: { query: query() } });
        seenTokens.push(...page.data!.tokens.map((t) => t.name));
        cursor = page.data!.next_cursor ?? undefined;
      } while (cursor !== undefined);
      assert.deepEqual(seenTokens, [
        'paged-admin',
        'paged-lister',
        'paged-viewer-0',
        'paged-viewer-1',
        'paged-viewer-2',
      ]);

      for (const path of ['/v1/users', '/v1/tokens']) {
        const bad = await call('GET', `${path}?cursor=bm90LWEtY3Vyc29y`, { template: path, bearer: adminToken });
        assert.equal(bad.status, 400);
        assert.equal(bad.body.error.field, 'cursor');
        const badLimit = await call('GET', `${path}?limit=0`, { template: path, bearer: adminToken });
        assert.equal(badLimit.status, 400);
        assert.equal(badLimit.body.error.field, 'limit');
      }
    });

    test('a wrong password and an unknown email get the same 401; no cookie is set', async () => {
      const email = await newUser();
      const wrong = await call('POST', '/v1/session', { body: { email, password: 'not-the-password-1' } });
      const unknown = await call('POST', '/v1/session', { body: { email: 'nobody@example.com', password: PASSWORD } });
      assert.equal(wrong.status, 401);
      assert.deepEqual(wrong.body, unknown.body);
      assert.equal(wrong.body.error.type, 'invalid_key');
      assert.equal(wrong.headers.get('set-cookie'), null);
      const noCookie = await call('GET', '/v1/session');
      assert.equal(noCookie.status, 401);
      const forged = await whoAmI({ cookie: `__Host-posthorn_session=${'A'.repeat(43)}`, csrf: 'x' });
      assert.equal(forged.status, 401);
      const bad = await call('POST', '/v1/session', { body: { email, password: PASSWORD, extra: 1 } });
      assert.equal(bad.status, 400);
    });

    test('sign-in is throttled per email (5 failures) and per client address (20), with Retry-After', async () => {
      const email = await newUser();
      for (let i = 0; i < 5; i++)
        assert.equal(
          (await call('POST', '/v1/session', { body: { email, password: `wrong-password-${i}` } })).status,
          401,
        );
      const blocked = await call('POST', '/v1/session', { body: { email, password: PASSWORD } });
      assert.equal(blocked.status, 429, 'the right password is refused too while blocked');
      assert.equal(blocked.body.error.type, 'rate_limited');
      assert.equal(blocked.headers.get('retry-after'), String(15 * 60));
      api.deps.clock.advance(15 * 60_000);
      await signInAs(email);
      // Per address: 20 failures spread over many emails; a success in between clears nothing.
      for (let i = 0; i < 20; i++)
        assert.equal(
          (
            await call('POST', '/v1/session', {
              body: { email: `spray${i}@example.com`, password: 'wrong-password-x' },
            })
          ).status,
          401,
        );
      const other = await newUser();
      assert.equal((await call('POST', '/v1/session', { body: { email: other, password: PASSWORD } })).status, 429);
      api.deps.clock.advance(15 * 60_000);
    });

    test('a session ends after 12 h idle, and each request keeps it alive', async () => {
      const browser = await signInAs(await newUser());
      api.deps.clock.advance(11 * 60 * 60_000);
      assert.equal((await whoAmI(browser)).status, 200);
      api.deps.clock.advance(11 * 60 * 60_000);
      assert.equal((await whoAmI(browser)).status, 200, '22 h after sign-in, 11 h idle');
      api.deps.clock.advance(SESSION_IDLE_MS);
      assert.equal((await whoAmI(browser)).status, 401);
    });

    test('sign-out ends the session on the server and clears the cookie', async () => {
      const browser = await signInAs(await newUser());
      const out = await call('DELETE', '/v1/session', { browser });
      assert.equal(out.status, 204);
      assert.match(out.headers.get('set-cookie')!, /^__Host-posthorn_session=; .*Max-Age=0/);
      assert.equal((await whoAmI(browser)).status, 401, 'the old cookie, replayed, is refused');
    });

    test('removing a user ends their sessions at once; the audit log names the remover', async () => {
      const email = await newUser();
      const browser = await signInAs(email);
      const admin = await signInAs(await newUser());
      // Another account's admin cannot see or remove the user.
      const foreign = await call('DELETE', '/v1/users/{email}'.replace('{email}', email), {
        template: '/v1/users/{email}',
        bearer: await api.token('other', 'admin'),
      });
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.error.field, 'email');
      const r = await call('DELETE', `/v1/users/${email}`, { template: '/v1/users/{email}', browser: admin });
      assert.equal(r.status, 204);
      assert.equal((await whoAmI(browser)).status, 401);
      const audit = await api.client(adminToken).GET('/v1/audit');
      const entry = audit.data!.entries.find((e) => e.action === 'user.remove' && e.target === email);
      assert.ok(entry);
      assert.match(entry.actor, /^user:user\d+@example\.com$/);
      assert.equal(entry.ip, '127.0.0.1');
    });

    test('TOTP: enrol, confirm, sign in with a code from the secret; a code once; a recovery code once; turn off', async () => {
      const email = await newUser();
      const browser = await signInAs(email);
      const enrol = await call('POST', '/v1/session/totp', { browser });
      assert.equal(enrol.status, 200);
      assert.match(enrol.body.uri, /^otpauth:\/\/totp\/Posthorn:/);
      assert.match(enrol.body.qr_code, /^data:image\/svg\+xml;base64,/);
      assert.match(Buffer.from(enrol.body.qr_code.split(',')[1], 'base64').toString(), /<svg/);
      const totp = new TOTP({ secret: Secret.fromBase32(enrol.body.secret), digits: 6, period: 30, algorithm: 'SHA1' });
      const code = (): string => totp.generate({ timestamp: api.deps.clock.now() });
      const wrongCode = await call('POST', '/v1/session/totp/confirm', {
        browser,
        body: { code: '000000' === code() ? '111111' : '000000' },
      });
      assert.equal(wrongCode.status, 400);
      assert.equal(wrongCode.body.error.field, 'code');
      const confirm = await call('POST', '/v1/session/totp/confirm', { browser, body: { code: code() } });
      assert.equal(confirm.status, 200);
      const recovery: string[] = confirm.body.recovery_codes;
      assert.equal(recovery.length, 10);
      assert.equal((await whoAmI(browser)).body.totp_enabled, true);
      const raw = await api.deps.db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      assert.ok(!raw.recovery_codes.includes(recovery[0]!), 'recovery codes are kept hashed');

      const needed = await call('POST', '/v1/session', { body: { email, password: PASSWORD } });
      assert.equal(needed.status, 401);
      assert.equal(needed.body.error.field, 'totp');
      api.deps.clock.advance(30_000);
      await signInAs(email, code());
      const replay = await call('POST', '/v1/session', { body: { email, password: PASSWORD, totp: code() } });
      assert.equal(replay.status, 401, 'the same code is not taken twice');
      assert.equal(replay.body.error.field, 'totp');
      await signInAs(email, recovery[0]);
      assert.equal(
        (await call('POST', '/v1/session', { body: { email, password: PASSWORD, totp: recovery[0] } })).status,
        401,
        'a recovery code works once',
      );
      api.deps.clock.advance(30_000);
      const off = await call('DELETE', '/v1/session/totp', { browser, body: { code: code() } });
      assert.equal(off.status, 204);
      await signInAs(email);
      const audit = await api.client(adminToken).GET('/v1/audit');
      const actions = audit.data!.entries.filter((e) => e.target === email).map((e) => e.action);
      assert.deepEqual(actions.slice(0, 3), ['user.totp_disable', 'user.totp_enable', 'user.create']);
    });

    test('CSRF: a session write needs a same-origin Origin and the X-CSRF-Token; bearer requests need neither', async () => {
      const browser = await signInAs(await newUser());
      const body = { name: 'csrf-made' };
      const cross = await call('POST', '/v1/tokens', { browser, origin: 'https://evil.example', body });
      assert.equal(cross.status, 403);
      assert.equal(cross.body.error.type, 'forbidden');
      const noToken = await call('POST', '/v1/tokens', { browser, csrf: null, body });
      assert.equal(noToken.status, 403);
      const wrongToken = await call('POST', '/v1/tokens', { browser, csrf: 'x'.repeat(43), body });
      assert.equal(wrongToken.status, 403);
      const ok = await call('POST', '/v1/tokens', { browser, body });
      assert.equal(ok.status, 201);
      const viaProxy = await call('POST', '/v1/tokens', {
        browser,
        origin: new URL(api.deps.config.publicUrl).origin,
        body: { name: 'csrf-public-url' },
      });
      assert.equal(viaProxy.status, 201, 'the origin of POSTHORN_PUBLIC_URL is ours too');
      const noOrigin = await call('POST', '/v1/tokens', { browser, origin: null, body: { name: 'csrf-no-origin' } });
      assert.equal(noOrigin.status, 201, 'the token alone passes when the browser sends no Origin');
      const bearer = await call('POST', '/v1/tokens', {
        bearer: adminToken,
        origin: null,
        csrf: null,
        body: { name: 'bearer-made' },
      });
      assert.equal(bearer.status, 201);
      const crossSignIn = await call('POST', '/v1/session', {
        origin: 'https://evil.example',
        body: { email: 'x@example.com', password: PASSWORD },
      });
      assert.equal(crossSignIn.status, 403);
    });

    test("a viewer's session may read but not write; a session may not send", async () => {
      const viewer = await signInAs(await newUser('viewer'));
      assert.equal((await call('GET', '/v1/users', { browser: viewer })).status, 200);
      const write = await call('POST', '/v1/users', { browser: viewer, body: { email: 'new@example.com' } });
      assert.equal(write.status, 403);
      assert.equal(write.body.error.type, 'forbidden');
      const admin = await signInAs(await newUser());
      const send = await call('POST', '/v1/send', {
        browser: admin,
        body: { from: 'a@mail.acme.test', to: 'b@example.com', subject: 's', text: 't' },
      });
      assert.equal(send.status, 403);
      assert.equal(send.body.error.type, 'forbidden');
    });

    test('users routes: list, add (generated password once), refusals with fields, other credentials, audit', async () => {
      const admin = api.client(adminToken);
      const made = await admin.POST('/v1/users', { body: { email: 'New.Person@Example.com', role: 'viewer' } });
      assert.equal(made.response.status, 201);
      assert.equal(made.data!.email, 'new.person@example.com');
      assert.equal(made.data!.role, 'viewer');
      assert.equal(typeof made.data!.password, 'string');
      const r = await call('POST', '/v1/session', {
        body: { email: 'new.person@example.com', password: made.data!.password },
      });
      assert.equal(r.status, 200, 'the generated password signs in');
      const given = await admin.POST('/v1/users', { body: { email: 'given@example.com', password: PASSWORD } });
      assert.equal(given.response.status, 201);
      assert.equal(given.data!.password, undefined, 'a given password is never echoed');
      const list = await admin.GET('/v1/users');
      assert.ok(list.data!.users.some((u) => u.email === 'new.person@example.com' && u.last_sign_in_at !== null));
      const otherList = await api.client(await api.token('other', 'admin')).GET('/v1/users');
      assert.ok(!otherList.data!.users.some((u) => u.email === 'new.person@example.com'));

      const refusals: [unknown, number, string][] = [
        [{ email: 'given@example.com' }, 409, 'email'],
        [{ email: 'not-an-email' }, 400, 'email'],
        [{ email: 'short@example.com', password: 'short' }, 400, 'password'],
        [{ email: 'common@example.com', password: 'qwerty123456' }, 400, 'password'],
        [{ email: 'role@example.com', role: 'owner' }, 400, 'role'],
      ];
      for (const [body, status, field] of refusals) {
        const res = await call('POST', '/v1/users', { bearer: adminToken, body });
        assert.equal(res.status, status, JSON.stringify(body));
        assert.equal(res.body.error.field, field, JSON.stringify(res.body));
      }
      assert.equal(
        (await call('POST', '/v1/users', { bearer: viewerToken, body: { email: 'v@example.com' } })).status,
        403,
      );
      assert.equal((await call('GET', '/v1/users', { bearer: sendingKey })).status, 403);
      const gone = await call('DELETE', '/v1/users/nobody@example.com', {
        template: '/v1/users/{email}',
        bearer: adminToken,
      });
      assert.equal(gone.status, 404);
      assert.equal(gone.body.error.field, 'email');
      assert.equal(
        (await call('DELETE', '/v1/users/given@example.com', { template: '/v1/users/{email}', bearer: viewerToken }))
          .status,
        403,
      );
      const audit = await admin.GET('/v1/audit');
      assert.ok(
        audit.data!.entries.some(
          (e) => e.action === 'user.create' && e.target === 'new.person@example.com' && e.actor === 'token:admin-bot',
        ),
      );
    });

    test('tokens routes: create (shown once, works), list, conflict, revoke (refused at once), refusals, audit', async () => {
      const admin = api.client(adminToken);
      const made = await admin.POST('/v1/tokens', { body: { name: 'ci', role: 'viewer' } });
      assert.equal(made.response.status, 201);
      assert.match(made.data!.token, /^pha_[0-9a-f]{8}_/);
      assert.equal((await api.client(made.data!.token).GET('/v1/domains')).response.status, 200);
      const list = await admin.GET('/v1/tokens');
      const ci = list.data!.tokens.find((t) => t.name === 'ci');
      assert.ok(ci && ci.role === 'viewer' && !('token' in ci));
      const dup = await call('POST', '/v1/tokens', { bearer: adminToken, body: { name: 'ci' } });
      assert.equal(dup.status, 409);
      assert.equal(dup.body.error.field, 'name');
      const badRole = await call('POST', '/v1/tokens', { bearer: adminToken, body: { role: 'root' } });
      assert.equal(badRole.status, 400);
      assert.equal(badRole.body.error.field, 'role');
      assert.equal((await call('POST', '/v1/tokens', { bearer: viewerToken, body: {} })).status, 403);
      assert.equal((await call('GET', '/v1/tokens', { bearer: sendingKey })).status, 403);
      const foreign = await call('DELETE', '/v1/tokens/ci', {
        template: '/v1/tokens/{name}',
        bearer: await api.token('other', 'admin'),
      });
      assert.equal(foreign.status, 404);
      assert.equal(foreign.body.error.field, 'name');
      assert.equal(
        (await call('DELETE', '/v1/tokens/ci', { template: '/v1/tokens/{name}', bearer: viewerToken })).status,
        403,
      );
      assert.equal(
        (await call('DELETE', '/v1/tokens/ci', { template: '/v1/tokens/{name}', bearer: adminToken })).status,
        204,
      );
      assert.equal((await call('GET', '/v1/domains', { bearer: made.data!.token })).status, 401);
      const audit = await admin.GET('/v1/audit');
      const actions = audit.data!.entries.filter((e) => e.target === 'ci').map((e) => e.action);
      assert.deepEqual(actions, ['token.revoke', 'token.create']);
    });

    test('the users table itself refuses a second row with an email taken (two creates racing)', async () => {
      const email = await newUser();
      const row = await api.deps.db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      await assert.rejects(
        api.deps.db
          .insertInto('users')
          .values({ ...row, id: 'usr_racing' })
          .execute(),
      );
    });

    test('security headers: nosniff, Referrer-Policy and HSTS outside the sandbox', async () => {
      const r = await api.fetch('/v1/openapi.json');
      await r.arrayBuffer();
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(r.headers.get('strict-transport-security'), 'max-age=31536000');
      assert.equal(r.headers.get('referrer-policy'), 'strict-origin-when-cross-origin');
    });
  });

  describe(`the sandbox's demo login (${dialect})`, () => {
    test('the first sandbox start makes it; only a sandbox-mode server lets it in; a production start ends its sessions', async () => {
      const t = await createTestDeps(dialect);
      try {
        const sandbox: Deps = { ...t, config: loadConfig({ ...t.testDb.env, POSTHORN_SANDBOX: '1' }) };
        const welcome = await bootstrapSandbox(sandbox);
        assert.ok(welcome);
        assert.equal(welcome.login.email, SANDBOX.login);
        assert.ok(welcome.login.password.length >= 20);
        const attempt = { email: SANDBOX.login, password: welcome.login.password, ip: '127.0.0.1' };
        const inSandbox = await signIn(sandbox, createSignInThrottles(), attempt);
        assert.equal(inSandbox.kind, 'signed_in');
        assert.ok(inSandbox.kind === 'signed_in' && (await resolveSession(sandbox, inSandbox.sessionId)));
        const second = await signIn(sandbox, createSignInThrottles(), attempt);
        assert.ok(second.kind === 'signed_in');
        assert.equal(await resolveSession(t, second.sessionId), null, 'a production server refuses its session');
        assert.equal((await signIn(t, createSignInThrottles(), attempt)).kind, 'invalid');
        const retired = await retireSandbox({ ...t, log: pino({ level: 'silent' }) });
        assert.equal(retired?.sessionsEnded, 1, 'the session the production check did not already end');
        const again = await bootstrapSandbox(sandbox);
        assert.ok(
          again && again.login.password !== welcome.login.password,
          'a new sandbox start prints a new password',
        );
        assert.equal((await signIn(sandbox, createSignInThrottles(), attempt)).kind, 'invalid');
        const fresh = await signIn(sandbox, createSignInThrottles(), { ...attempt, password: again.login.password });
        assert.equal(fresh.kind, 'signed_in');
      } finally {
        await t.close();
      }
    });
  });
}
