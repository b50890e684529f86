// Signing in to the dashboard and the Settings screen in a real browser (docs/dashboard.md,
// docs/management.md "Users and sign-in"): headless Chromium against a real HTTPS server on a fresh
// database of each kind. Email and password at /login (a wrong password, the throttle), two-factor
// enrolment in Settings with codes computed from the QR code's otpauth URI by the server's own TOTP
// library, recovery codes, sign-out ending the session on the server, a cross-origin form refused
// by the CSRF check, removing a user ending their session in another browser, users and account
// tokens made and revoked from Settings, what a viewer sees, and axe-core. No
// Content-Security-Policy violation or page error may happen.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { URI, type TOTP } from 'otpauth';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { generate } from 'selfsigned';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { browserDialects, launchBrowser, openPage, seriousViolations, signInWithToken } from '../helpers/browser.js';
import { seedDomain } from '../helpers/seed.js';

const PASSWORD = 'lantern-quiver-oak-2931';

/** The page's globals, typed just enough for the functions run in the page (no DOM library here). */
type InPage = {
  document: { querySelector(s: string): { textContent: string | null; naturalWidth?: number } | null };
};

/** A small server on loopback answering every request with `html`: a page of another origin. */
async function otherOrigin(
  html: (self: string) => string,
  opts: { tls?: { cert: string; key: string }; host: string },
): Promise<{ url: string; close(): Promise<void> }> {
  let self = '';
  const handler = (_req: unknown, res: ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html(self));
  };
  const server: Server = opts.tls ? createHttpsServer(opts.tls, handler) : createHttpServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self = `${opts.tls ? 'https' : 'http'}://${opts.host}:${(server.address() as AddressInfo).port}`;
  return {
    url: `${self}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * An auto-submitting form that POSTs to `action`, as a hostile site would: `text/plain` is the one
 * form encoding that can carry a JSON-looking body, and no form can set X-CSRF-Token.
 */
const attackPage = (action: string) => (): string =>
  `<!doctype html><html lang="en"><title>Win a prize</title>
<form method="POST" action="${action}" enctype="text/plain">
<input type="hidden" name='{"name":"csrf-attack","role":"admin","x":"' value='"}'>
</form>
<script>document.forms[0].submit()</script></html>`;

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

for (const dialect of browserDialects()) {
  describe(`sign-in and Settings in Chromium (${dialect})`, () => {
    let api: ApiHarness;
    let admin: string;
    let users = 0;
    let domain: string;

    before(async () => {
      api = await startApiHarness(dialect);
      admin = await api.token('acme', 'admin', 'settings-admin');
      domain = (await seedDomain(api.deps, { account: 'acme', domain: `settings-${dialect}.test` })).domain;
    });
    after(() => api.close());

    /** A user of `acme` made through the API, with PASSWORD. */
    async function newUser(role: 'admin' | 'viewer' = 'admin'): Promise<string> {
      const email = `person${++users}@example.com`;
      const made = await api.client(admin).POST('/v1/users', { body: { email, role, password: PASSWORD } });
      assert.equal(made.response.status, 201);
      return email;
    }

    /** Fills the sign-in form and submits it (the outcome is for the caller to wait for). */
    async function submitSignIn(page: Page, email: string, password: string, totp = ''): Promise<void> {
      if (!page.url().includes('/login')) await page.goto('/login');
      await page.getByLabel('Email', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByLabel('Two-factor code').fill(totp);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    }

    async function signIn(page: Page, email: string, totp = ''): Promise<void> {
      await submitSignIn(page, email, PASSWORD, totp);
      await mainNav(page).waitFor();
    }

    const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main', exact: true });
    const loginHeading = (page: Page) => page.getByRole('heading', { level: 1, name: 'Sign in to Posthorn' });

    /** The session cookie's value in `context`. */
    async function sessionCookie(context: BrowserContext): Promise<string> {
      const cookie = (await context.cookies(api.url)).find((c) => c.name === '__Host-posthorn_session');
      assert.ok(cookie, 'the session cookie is set');
      return cookie.value;
    }

    /** GET /v1/session with a replayed cookie value, outside the browser: its HTTP status. */
    async function replay(cookie: string): Promise<number> {
      const res = await api.fetch('/v1/session', { headers: { cookie: `__Host-posthorn_session=${cookie}` } });
      await res.body?.cancel();
      return res.status;
    }

    /** Runs `fn` in a fresh browser context, then checks no CSP violation or page error happened. */
    async function inBrowser(fn: (page: Page, context: BrowserContext) => Promise<void>, width = 1280): Promise<void> {
      const { context, page, problems } = await openPage(browser, api.url, width);
      try {
        await fn(page, context);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }

    test('sign in with email and password; a wrong password is refused on the page; repeated failures are throttled', async () => {
      const email = await newUser();
      const throttled = await newUser();
      await inBrowser(async (page) => {
        await page.goto('/transactional');
        await page.waitForURL(/\/login\?next=%2Ftransactional$/);
        await submitSignIn(page, email, 'not-the-password-at-all');
        await page.getByRole('alert').getByText('the email or password is wrong').waitFor();
        assert.equal(await mainNav(page).count(), 0);

        // Five failures for one email block it for a while, even with the right password; the page
        // says so. (The failures are made over the API: what is checked here is the page's message.)
        for (let i = 0; i < 5; i++) {
          const res = await api.fetch('/v1/session', {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: throttled, password: `wrong-password-${i}` }),
          });
          assert.equal(res.status, 401);
          await res.body?.cancel();
        }
        await submitSignIn(page, throttled, PASSWORD);
        await page
          .getByRole('alert')
          .getByText(/too many failed sign-ins; retry after \d+ s/)
          .waitFor();
        assert.equal(await mainNav(page).count(), 0);

        await submitSignIn(page, email, PASSWORD);
        await page.waitForURL('**/transactional');
        await page.getByRole('banner').getByText(`${email} (admin)`).waitFor();
      });
    });

    test('two-factor sign-in: enrol in Settings from the QR code, sign out, then the code is needed; a recovery code works once', async () => {
      const email = await newUser();
      let totp: TOTP | undefined;
      let recovery: string[] = [];
      const code = (): string => totp!.generate({ timestamp: api.deps.clock.now() });
      await inBrowser(async (page, context) => {
        await signIn(page, email);
        await page.goto('/settings');
        const twoFactor = page.getByRole('region', { name: 'Two-factor sign-in' });
        await twoFactor.getByText('Two-factor sign-in is off.').waitFor();
        await twoFactor.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();

        // The QR code is drawn (an SVG data: URL the CSP allows) and encodes the otpauth URI.
        const qr = twoFactor.getByRole('img', { name: 'QR code of your two-factor secret' });
        await qr.waitFor();
        await page.waitForFunction(
          () => ((globalThis as unknown as InPage).document.querySelector('img.qr')?.naturalWidth ?? 0) > 0,
        );
        const uri = await twoFactor
          .getByRole('link', { name: /authenticator app on this device/ })
          .getAttribute('href');
        assert.ok(uri);
        totp = URI.parse(uri) as TOTP;
        assert.equal(totp.issuer, 'Posthorn');
        assert.equal(totp.label, email);
        assert.equal(await twoFactor.locator('[data-secret="totp"]').innerText(), totp.secret.base32);
        const svg = Buffer.from((await qr.getAttribute('src'))!.split(',')[1]!, 'base64').toString();
        assert.match(svg, /^<svg[^>]*>.*<path/s);

        // A wrong code is refused next to the field; the right one turns it on.
        await twoFactor.getByLabel('6-digit code').fill(code() === '000000' ? '111111' : '000000');
        await twoFactor.getByRole('button', { name: 'Confirm and turn on' }).click();
        await twoFactor.locator('input[name="code"][aria-invalid="true"]').waitFor();
        await twoFactor.getByText('the code does not match').waitFor();
        await twoFactor.getByLabel('6-digit code').fill(code());
        await twoFactor.getByRole('button', { name: 'Confirm and turn on' }).click();
        const codes = twoFactor.locator('[data-secret="recovery"] li');
        await codes.first().waitFor();
        recovery = await codes.allInnerTexts();
        assert.equal(recovery.length, 10);
        for (const c of recovery) assert.match(c, /^[a-z2-9]{5}-[a-z2-9]{5}$/);
        await twoFactor.getByRole('button', { name: /^Copy codes/ }).click();
        assert.equal(await page.evaluate('navigator.clipboard.readText()'), recovery.join('\n'));
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          twoFactor.getByRole('link', { name: 'Download codes' }).click(),
        ]);
        assert.equal(download.suggestedFilename(), 'posthorn-recovery-codes.txt');
        const file = await readFile((await download.path())!, 'utf8');
        for (const c of recovery) assert.ok(file.includes(c), c);
        await page
          .getByRole('region', { name: 'Signed in' })
          .getByRole('definition')
          .getByText('on', { exact: true })
          .waitFor();
        const me = (await api.client(admin).GET('/v1/users')).data!.users.find((u) => u.email === email);
        assert.equal(me?.totp_enabled, true);
        await twoFactor.getByRole('button', { name: 'I have kept them' }).click();
        assert.equal(await page.locator('[data-secret]').count(), 0, 'the codes are gone from the page');

        // Sign out: the session ends on the server; the old cookie, replayed, is refused.
        const cookie = await sessionCookie(context);
        assert.equal(await replay(cookie), 200);
        await page.getByRole('button', { name: 'Sign out' }).click();
        await loginHeading(page).waitFor();
        assert.equal(await replay(cookie), 401);
        assert.equal((await context.cookies(api.url)).length, 0, 'the browser dropped the cookie');

        // The password alone now asks for the code, next to its field.
        await submitSignIn(page, email, PASSWORD);
        await page.locator('input[name="totp"][aria-invalid="true"]').waitFor();
        await page.getByText('two-factor sign-in is on').waitFor();
        api.deps.clock.advance(30_000); // the code used to confirm is not taken again
        const right = code();
        await submitSignIn(page, email, PASSWORD, right === '123456' ? '654321' : '123456');
        await page.getByText('the code is wrong or was used already').waitFor();
        await submitSignIn(page, email, PASSWORD, right);
        await mainNav(page).waitFor();

        // A recovery code signs in once.
        await page.getByRole('button', { name: 'Sign out' }).click();
        await loginHeading(page).waitFor();
        await submitSignIn(page, email, PASSWORD, recovery[0]!);
        await mainNav(page).waitFor();
        await page.getByRole('button', { name: 'Sign out' }).click();
        await loginHeading(page).waitFor();
        await submitSignIn(page, email, PASSWORD, recovery[0]!);
        await page.getByText('the code is wrong or was used already').waitFor();

        // Turning it off takes a code too.
        api.deps.clock.advance(30_000);
        await submitSignIn(page, email, PASSWORD, code());
        await mainNav(page).waitFor();
        await page.goto('/settings');
        await twoFactor.getByLabel('Code to turn it off').fill(recovery[1]!);
        await twoFactor.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
        await twoFactor.getByText('Two-factor sign-in is off.').waitFor();
      });
      const me = (await api.client(admin).GET('/v1/users')).data!.users.find((u) => u.email === email);
      assert.equal(me?.totp_enabled, false);
    });

    test('a form on another origin cannot make a change with the session (CSRF), and nothing changes', async () => {
      const email = await newUser();
      const before = (await api.client(admin).GET('/v1/tokens')).data!.tokens;
      const tls = await generate([{ name: 'commonName', value: '127.0.0.1' }], { keyType: 'ec', curve: 'P-256' });
      // Same site, another origin: the SameSite=Lax cookie is sent, so the CSRF check must refuse.
      const sameSite = await otherOrigin(attackPage(`${api.url}/v1/tokens`), {
        tls: { cert: tls.cert, key: tls.private },
        host: '127.0.0.1',
      });
      // Another site over plain http: the browser keeps the cookie back.
      const crossSite = await otherOrigin(attackPage(`${api.url}/v1/tokens`), { host: 'localhost' });
      try {
        await inBrowser(async (page, context) => {
          await signIn(page, email);
          await page.goto(sameSite.url);
          await page.waitForURL(`${api.url}/v1/tokens`);
          const refused = JSON.parse(await page.locator('body').innerText()) as {
            error: { type: string; message: string };
          };
          assert.equal(refused.error.type, 'forbidden');
          assert.equal(refused.error.message, `cross-origin request from ${sameSite.url.slice(0, -1)} refused`);

          await page.goto(crossSite.url);
          await page.waitForURL(`${api.url}/v1/tokens`);
          const anonymous = JSON.parse(await page.locator('body').innerText()) as { error: { type: string } };
          assert.equal(anonymous.error.type, 'invalid_key');

          // The session itself is fine and still signed in.
          assert.equal(await replay(await sessionCookie(context)), 200);
        });
      } finally {
        await sameSite.close();
        await crossSite.close();
      }
      const after = (await api.client(admin).GET('/v1/tokens')).data!.tokens;
      assert.deepEqual(after, before, 'no token was made');
    });

    test('Settings: add users (errors next to the field, a generated password shown once), remove one and their open session ends', async () => {
      const adminEmail = await newUser();
      await inBrowser(async (page) => {
        await signIn(page, adminEmail);
        await page.goto('/settings');
        const usersCard = page.getByRole('region', { name: 'Users' });
        await usersCard.getByRole('cell', { name: `${adminEmail} (you)` }).waitFor();

        // Refusals are shown next to the field they name.
        await usersCard.getByLabel('Email').fill('someone@localhost'); // the browser's check passes it; the API's does not
        await usersCard.getByRole('button', { name: 'Add user' }).click();
        await usersCard.locator('input[name="email"][aria-invalid="true"]').waitFor();
        await usersCard.getByLabel('Email').fill(`short-${dialect}@example.com`);
        await usersCard.getByLabel('Password (optional)').fill('short');
        await usersCard.getByRole('button', { name: 'Add user' }).click();
        await usersCard.locator('input[name="password"][aria-invalid="true"]').waitFor();
        const describedBy = await usersCard.getByLabel('Password (optional)').getAttribute('aria-describedby');
        assert.match(await page.locator(`[id="${describedBy}"]`).innerText(), /12/);

        // Without a password one is generated and shown once, with a copy button.
        const newcomer = `newcomer-${dialect}@example.com`;
        await usersCard.getByLabel('Email').fill(newcomer);
        await usersCard.getByLabel('Password (optional)').fill('');
        await usersCard.getByLabel('Role').selectOption('viewer');
        await usersCard.getByRole('button', { name: 'Add user' }).click();
        const shown = usersCard.locator('input[data-secret]');
        await shown.waitFor();
        const password = await shown.inputValue();
        assert.match(password, /^[A-Za-z0-9_-]{24}$/);
        await usersCard.getByRole('button', { name: /^Copy/ }).click();
        assert.equal(await page.evaluate('navigator.clipboard.readText()'), password);
        await usersCard.getByRole('cell', { name: newcomer, exact: true }).waitFor();
        const listed = (await api.client(admin).GET('/v1/users')).data!.users.find((u) => u.email === newcomer);
        assert.equal(listed?.role, 'viewer');

        // A chosen password is not echoed back.
        const chosen = `chosen-${dialect}@example.com`;
        await usersCard.getByLabel('Email').fill(chosen);
        await usersCard.getByLabel('Password (optional)').fill(PASSWORD);
        await usersCard.getByRole('button', { name: 'Add user' }).click();
        await usersCard.getByText(`Added ${chosen}. They sign in with the password you chose.`).waitFor();
        assert.equal(await usersCard.locator('input[data-secret]').count(), 0);

        // The newcomer signs in elsewhere with the generated password, then is removed from here.
        const { context: theirs, page: theirPage, problems } = await openPage(browser, api.url);
        try {
          await submitSignIn(theirPage, newcomer, password);
          await mainNav(theirPage).waitFor();
          const theirCookie = await sessionCookie(theirs);
          await usersCard.getByRole('button', { name: `Remove ${newcomer}` }).click();
          await usersCard.getByText(`Remove ${newcomer}? Their sessions end at once`).waitFor();
          await usersCard.getByRole('button', { name: `Yes, remove ${newcomer}` }).click();
          await usersCard.getByRole('cell', { name: newcomer, exact: true }).waitFor({ state: 'detached' });
          assert.equal(await replay(theirCookie), 401, 'their session ended on the server');
          // Their next navigation in the dashboard shows the sign-in page.
          await mainNav(theirPage).getByRole('link', { name: 'Events' }).click();
          await loginHeading(theirPage).waitFor();
          assert.deepEqual(problems, []);
        } finally {
          await theirs.close();
        }
      });
      const emails = (await api.client(admin).GET('/v1/users')).data!.users.map((u) => u.email);
      assert.equal(emails.includes(`newcomer-${dialect}@example.com`), false);
      assert.equal(emails.includes(`chosen-${dialect}@example.com`), true);
    });

    test('Settings: create an account token (shown once, it works, with its role), revoke it with confirmation', async () => {
      const adminEmail = await newUser();
      let token = '';
      await inBrowser(async (page) => {
        await signIn(page, adminEmail);
        await page.goto('/settings');
        const tokens = page.getByRole('region', { name: 'Account tokens' });
        await tokens.getByRole('cell', { name: 'settings-admin', exact: true }).waitFor();
        await tokens.getByLabel('Name (optional)').fill('bad/name');
        await tokens.getByRole('button', { name: 'Create token' }).click();
        await tokens.locator('input[name="name"][aria-invalid="true"]').waitFor();
        await tokens.getByLabel('Name (optional)').fill(`grafana-${dialect}`);
        await tokens.getByLabel('Role').selectOption('viewer');
        await tokens.getByRole('button', { name: 'Create token' }).click();
        const shown = tokens.locator('input[data-secret]');
        await shown.waitFor();
        token = await shown.inputValue();
        assert.match(token, /^pha_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/);
        await tokens.getByRole('button', { name: /^Copy/ }).click();
        assert.equal(await page.evaluate('navigator.clipboard.readText()'), token);
        const me = await api.client(token).GET('/v1/session');
        assert.deepEqual(
          { kind: me.data!.kind, name: me.data!.token_name, role: me.data!.role },
          { kind: 'token', name: `grafana-${dialect}`, role: 'viewer' },
        );
        // The same name again is refused next to the field.
        await tokens.getByLabel('Name (optional)').fill(`grafana-${dialect}`);
        await tokens.getByRole('button', { name: 'Create token' }).click();
        await tokens.locator('input[name="name"][aria-invalid="true"]').waitFor();

        await tokens.getByRole('button', { name: `Revoke grafana-${dialect}` }).click();
        await tokens.getByRole('button', { name: 'Cancel' }).click();
        assert.equal((await api.client(token).GET('/v1/session')).response.status, 200, 'cancel keeps it');
        await tokens.getByRole('button', { name: `Revoke grafana-${dialect}` }).click();
        await tokens.getByRole('button', { name: `Yes, revoke grafana-${dialect}` }).click();
        await tokens.getByRole('cell', { name: `grafana-${dialect}`, exact: true }).waitFor({ state: 'detached' });
        assert.equal(await tokens.locator('input[data-secret]').count(), 0, 'the revoked token is no longer shown');

        // A long list pages, 20 to a page, oldest first.
        for (let i = 0; i < 21; i++) await api.token('acme', 'viewer', `bulk-${dialect}-${i}`);
        await page.reload();
        await tokens.getByRole('cell', { name: 'settings-admin', exact: true }).waitFor();
        assert.equal(await tokens.locator('tbody tr').count(), 20);
        await tokens.getByRole('button', { name: 'Next page of account tokens' }).click();
        await tokens.getByRole('cell', { name: `bulk-${dialect}-20`, exact: true }).waitFor();
        assert.equal(await tokens.getByRole('cell', { name: 'settings-admin', exact: true }).count(), 0);
        assert.ok(await tokens.getByRole('button', { name: 'Next page of account tokens' }).isDisabled());
        await tokens.getByRole('button', { name: 'Previous page of account tokens' }).click();
        await tokens.getByRole('cell', { name: 'settings-admin', exact: true }).waitFor();
      });
      assert.equal((await api.client(token).GET('/v1/session')).response.status, 401);
    });

    test('a viewer, signed in or with a viewer token, sees no secret and no write control in Settings or on a domain', async () => {
      const viewerEmail = await newUser('viewer');
      const viewerToken = await api.token('acme', 'viewer', `viewer-token-${dialect}`);
      const key = (await api.client(admin).GET('/v1/domains/{domain}/api-key', { params: { path: { domain } } })).data!;
      /** The page has none of these write buttons. */
      const noneOf = async (page: Page, where: string, names: string[]): Promise<void> => {
        for (const name of names)
          assert.equal(await page.getByRole('button', { name, exact: true }).count(), 0, `${where}: ${name}`);
        assert.equal(await page.locator('[data-secret]').count(), 0, `${where}: no secret on the page`);
      };
      for (const how of ['session', 'token'] as const) {
        await inBrowser(async (page) => {
          if (how === 'session') await signIn(page, viewerEmail);
          else await signInWithToken(page, viewerToken);
          await page
            .getByRole('banner')
            .getByText(how === 'session' ? `${viewerEmail} (viewer)` : `Account token viewer-token-${dialect} (viewer)`)
            .waitFor();
          await page.goto('/settings');
          await page.getByRole('region', { name: 'Users' }).getByRole('cell', { name: viewerEmail }).waitFor();
          const tokens = page.getByRole('region', { name: 'Account tokens' });
          await tokens.getByRole('cell', { name: 'settings-admin', exact: true }).waitFor();
          await page.getByRole('region', { name: 'Signed in' }).getByText('may only read').waitFor();
          await noneOf(page, `${how} Settings`, ['Add user', 'Create token']);
          assert.equal(await page.getByRole('button', { name: /^(Remove|Revoke) / }).count(), 0);
          if (how === 'session')
            // Their own sign-in is theirs to protect: two-factor enrolment is not an account change.
            await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).waitFor();
          else await page.getByText('This tab uses an account token, which has none').waitFor();

          await page.goto(`/transactional/${domain}`);
          await page.getByRole('region', { name: 'API keys' }).getByText(`${key.prefix}…`).waitFor();
          await page.getByRole('region', { name: 'SMTP credentials' }).getByText('No SMTP credential yet.').waitFor();
          await page.getByRole('region', { name: 'Webhook' }).getByText('No webhook yet').waitFor();
          await page.getByRole('region', { name: 'Tracking' }).locator('fieldset:disabled').waitFor();
          await noneOf(page, `${how} domain`, [
            'Create API key',
            'Replace API key',
            'Create SMTP credential',
            'Verify now',
            'Save webhook URL',
            'Delete domain…',
          ]);
          await page.goto('/transactional');
          await page.getByRole('link', { name: domain }).waitFor();
          await noneOf(page, `${how} Transactional`, ['Add domain']);
        });
      }
    });

    test('Settings and /login pass axe-core with no serious or critical violation, at 1280 and 390 px', async () => {
      const email = await newUser();
      await inBrowser(async (page) => {
        const check = async (what: string): Promise<void> => {
          await page.waitForFunction(
            () =>
              !(globalThis as unknown as InPage).document
                .querySelector('[role="status"]')
                ?.textContent?.startsWith('Loading'),
          );
          assert.deepEqual(await seriousViolations(page), [], what);
          const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
          assert.ok(overflow <= 0, `${what} is ${overflow} px wider than the window`);
        };
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 900 });
          await page.goto('/login');
          await loginHeading(page).waitFor();
          await check(`/login at ${width} px`);
        }
        await submitSignIn(page, email, 'wrong-password-for-axe');
        await page.getByRole('alert').waitFor();
        await check('/login with an error at 390 px');
        await submitSignIn(page, email, PASSWORD);
        await mainNav(page).waitFor();
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 900 });
          await page.goto('/settings');
          await page
            .getByRole('region', { name: 'Users' })
            .getByRole('cell', { name: `${email} (you)` })
            .waitFor();
          await check(`/settings at ${width} px`);
          await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
          await page.getByRole('img', { name: 'QR code of your two-factor secret' }).waitFor();
          await page
            .getByRole('region', { name: 'Users' })
            .getByRole('button', { name: /^Remove / })
            .first()
            .click();
          await check(`/settings enrolling, confirming a removal, at ${width} px`);
        }
      });
    });
  });
}
