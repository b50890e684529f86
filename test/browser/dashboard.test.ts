// The dashboard in a real browser (docs/dashboard.md): headless Chromium driven by playwright-core
// against a real HTTPS server on a fresh database of each kind, which serves the built app at `/`
// and the API it calls. Each journey clicks through the screens as a person would and checks the
// outcome through the API. No Content-Security-Policy violation or page error may happen.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { createResolver } from '../../src/domains/create-resolver.js';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { browserDialects, launchBrowser, openPage, seriousViolations, signInWithToken } from '../helpers/browser.js';
import { seedDomain } from '../helpers/seed.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';
import { Webhook } from 'standardwebhooks';

const run = promisify(execFile);

/**
 * The page's globals, typed just enough for the functions run in the page (this file is compiled
 * without the DOM library). Functions, not strings, for waitForFunction: the dashboard's CSP forbids eval.
 */
type InPage = { document: { querySelector(s: string): { value?: string; textContent: string | null } | null } };

/** POST /v1/send with `key` through curl, as the seed's quick start does; returns the HTTP status. */
async function curlSend(url: string, key: string, from: string): Promise<number> {
  const body = JSON.stringify({ from, to: 'bob@example.org', subject: 'From the dashboard key', text: 'Hi' });
  const { stdout } = await run('curl', [
    '-sk',
    '-o',
    '/dev/null',
    '-w',
    '%{http_code}',
    '-H',
    `Authorization: Bearer ${key}`,
    '-H',
    'Content-Type: application/json',
    '--data',
    body,
    `${url}/v1/send`,
  ]);
  return Number(stdout);
}

let browser: Browser;
let dns: DnsServer;
before(async () => {
  browser = await launchBrowser();
  dns = await startDnsServer({});
});
after(async () => {
  await browser?.close();
  await dns?.close();
});

for (const dialect of browserDialects()) {
  describe(`dashboard in Chromium (${dialect})`, () => {
    let api: ApiHarness;
    let admin: string;
    let viewer: string;

    before(async () => {
      // POSTHORN_WEBHOOK_ALLOW_PRIVATE: the webhook journey's receiver listens on loopback.
      api = await startApiHarness(dialect, {
        resolver: createResolver([dns.address], { timeoutMs: 2000, tries: 1 }),
        env: { POSTHORN_WEBHOOK_ALLOW_PRIVATE: '1' },
      });
      dns.zone[api.deps.config.spfIncludeHost] = { TXT: [['v=spf1 ip4:192.0.2.0/24 -all']] };
      admin = await api.token('acme', 'admin', 'dashboard-admin');
      viewer = await api.token('acme', 'viewer', 'dashboard-viewer');
    });
    after(() => api.close());

    /** Runs `journey` in a fresh page signed in with `token`, then checks nothing went wrong in it. */
    async function journey(token: string, fn: (page: Page) => Promise<void>, width = 1280): Promise<void> {
      const { context, page, problems } = await openPage(browser, api.url, width);
      try {
        await signInWithToken(page, token);
        await fn(page);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }

    test('the server answers client routes with the app, and never shadows the API', async () => {
      const page = await api.fetch('/transactional/example.com');
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self';.*frame-ancestors 'none'/);
      assert.match(await page.text(), /<div id="app"><\/div>/);
      const unknown = await api.fetch('/v1/no-such-route');
      assert.equal(unknown.status, 404);
      assert.equal(((await unknown.json()) as { error: { type: string } }).error.type, 'not_found');
      assert.equal((await api.fetch('/assets/missing-0000.js')).status, 404);
      assert.equal((await api.fetch('/healthz')).status, 200);
      assert.match((await api.fetch('/docs')).headers.get('content-type') ?? '', /text\/html/);
    });

    test('sign-in with a wrong account token is refused on the page', async () => {
      const { context, page } = await openPage(browser, api.url);
      try {
        await page.goto('/transactional');
        await page.waitForURL(/\/login\?next=%2Ftransactional$/);
        await page.getByLabel('Account token').fill('pha_00000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
        await page.getByRole('button', { name: 'Use account token' }).click();
        await page.getByText('that account token was refused').waitFor();
        assert.equal(await page.getByRole('navigation', { name: 'Main', exact: true }).count(), 0);
      } finally {
        await context.close();
      }
    });

    test('Transactional → domain → API keys → Create API key → it sends 202 → Replace API key → the old key 401', async () => {
      const seeded = await seedDomain(api.deps, { account: 'acme', domain: `seed-${dialect}.test` });
      // The seed's path starts from a verified domain without a key.
      assert.equal(
        (
          await api
            .client(admin)
            .DELETE('/v1/domains/{domain}/api-key', { params: { path: { domain: seeded.domain } } })
        ).response.status,
        204,
      );
      await journey(admin, async (page) => {
        await page
          .getByRole('navigation', { name: 'Main', exact: true })
          .getByRole('link', { name: 'Transactional' })
          .click();
        await page.getByRole('link', { name: seeded.domain }).click();
        await page.waitForURL(`**/transactional/${seeded.domain}`);
        for (const section of ['DNS records', 'API keys', 'SMTP credentials', 'Webhook', 'Tracking']) {
          await page.getByRole('region', { name: section }).waitFor();
        }
        const keys = page.getByRole('region', { name: 'API keys' });
        await keys.getByText('No API key yet.').waitFor();
        await keys.getByRole('button', { name: 'Create API key' }).click();
        const shown = keys.locator('input[data-secret]');
        await shown.waitFor();
        const first = await shown.inputValue();
        assert.match(first, /^ph_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/);
        await keys.getByRole('button', { name: /^Copy/ }).click();
        await keys.getByRole('button', { name: 'Copied' }).waitFor();
        assert.equal(await page.evaluate('navigator.clipboard.readText()'), first);
        assert.equal(await curlSend(api.url, first, `app@${seeded.domain}`), 202);

        await keys.getByRole('button', { name: 'Replace API key' }).click();
        await page.waitForFunction(
          (old) =>
            (globalThis as unknown as InPage).document.querySelector('#api-keys input[data-secret]')?.value !== old,
          first,
        );
        const second = await shown.inputValue();
        assert.match(second, /^ph_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/);
        assert.equal(await curlSend(api.url, first, `app@${seeded.domain}`), 401);
        assert.equal(await curlSend(api.url, second, `app@${seeded.domain}`), 202);
        // Reloading shows the key's prefix only: the key itself was shown once.
        await page.reload();
        await keys.getByText(`${second.slice(0, 11)}…`).waitFor();
        assert.equal(await page.locator('input[data-secret]').count(), 0);
        assert.equal((await page.content()).includes(second), false);

        // The sends are in Events, and a message's timeline opens from there.
        await page.getByRole('navigation', { name: 'Main', exact: true }).getByRole('link', { name: 'Events' }).click();
        await page.getByLabel('Domain').selectOption(seeded.domain);
        await page.getByRole('cell', { name: 'accepted-by-system' }).first().waitFor();
        await page.getByRole('link', { name: /^msg_/ }).first().click();
        await page.getByRole('heading', { name: 'Timeline' }).waitFor();
        await page.getByRole('cell', { name: 'bob@example.org' }).waitFor();
      });
    });

    test('SMTP credentials: create shows the password once, revoke removes the login', async () => {
      const seeded = await seedDomain(api.deps, { account: 'acme', domain: `smtp-${dialect}.test` });
      const path = { params: { path: { domain: seeded.domain } } };
      await journey(admin, async (page) => {
        await page.goto(`/transactional/${seeded.domain}`);
        const smtp = page.getByRole('region', { name: 'SMTP credentials' });
        await smtp.getByText('No SMTP credential yet.').waitFor();
        await smtp.getByRole('button', { name: 'Create SMTP credential' }).click();
        const password = await smtp.locator('input[data-secret]').inputValue();
        assert.ok(password.length >= 20, password);
        const listed = (await api.client(admin).GET('/v1/domains/{domain}/smtp-credentials', path)).data!.credentials;
        assert.equal(listed.length, 1);
        const username = listed[0]!.username;
        await smtp.getByRole('cell', { name: username, exact: true }).waitFor();
        await smtp.getByRole('button', { name: `Revoke ${username}` }).click();
        await smtp.getByText('No SMTP credential yet.').waitFor();
        assert.equal(await smtp.locator('input[data-secret]').count(), 0, 'the revoked password is no longer shown');
      });
      const left = (await api.client(admin).GET('/v1/domains/{domain}/smtp-credentials', path)).data!.credentials;
      assert.deepEqual(left, []);
    });

    test('add a domain: errors next to the field, then its records, then Verify now against DNS', async () => {
      const name = `new-${dialect}.test`;
      await journey(admin, async (page) => {
        await page.goto('/transactional');
        await page.getByLabel('Domain name').fill('not a domain');
        await page.getByRole('button', { name: 'Add domain' }).click();
        const field = page.getByLabel('Domain name');
        await page.locator('input[name="name"][aria-invalid="true"]').waitFor();
        const describedBy = await field.getAttribute('aria-describedby');
        assert.ok(describedBy);
        assert.match(await page.locator(`[id="${describedBy}"]`).innerText(), /name|domain/i);

        await field.fill(name);
        await page.getByRole('button', { name: 'Add domain' }).click();
        await page.waitForURL(`**/transactional/${name}`);
        const dnsRecords = page.getByRole('region', { name: 'DNS records' });
        await dnsRecords.getByRole('cell', { name: 'spf', exact: true }).waitFor();
        assert.equal(await dnsRecords.locator('tbody tr').count(), 4);
        const domain = (await api.client(admin).GET('/v1/domains/{domain}', { params: { path: { domain: name } } }))
          .data!;
        for (const r of domain.records) await dnsRecords.getByText(r.value, { exact: true }).first().waitFor();

        // Publish the records as shown, then check them from the page.
        for (const r of domain.records)
          dns.zone[r.name] = r.type === 'TXT' ? { TXT: [[r.value]] } : { CNAME: [r.value] };
        await dnsRecords.getByRole('button', { name: 'Verify now' }).click();
        await page.getByRole('heading', { level: 1 }).getByText('verified').waitFor();
        assert.equal(await dnsRecords.getByText('ok', { exact: true }).count(), 4);

        // The same name again is refused, next to the field.
        await page.goto('/transactional');
        await page.getByLabel('Domain name').fill(name);
        await page.getByRole('button', { name: 'Add domain' }).click();
        await page.locator('input[name="name"][aria-invalid="true"]').waitFor();
      });
    });

    test('a DKIM rotation on the domain page: the pending record among the DNS records, then the retired one with its date', async () => {
      const name = `rotate-${dialect}.test`;
      const client = api.client(admin);
      const path = { params: { path: { domain: name } } };
      const added = (await client.POST('/v1/domains', { body: { name } })).data!;
      for (const r of added.records) dns.zone[r.name] = r.type === 'TXT' ? { TXT: [[r.value]] } : { CNAME: [r.value] };
      const rotated = (await client.POST('/v1/domains/{domain}/dkim/rotate', path)).data!;
      const pending = rotated.dkim.pending!;
      await journey(admin, async (page) => {
        await page.goto(`/transactional/${name}`);
        const dnsRecords = page.getByRole('region', { name: 'DNS records' });
        await dnsRecords.getByRole('cell', { name: 'dkim_pending', exact: true }).waitFor();
        assert.equal(await dnsRecords.locator('tbody tr').count(), 5);
        await dnsRecords.getByText(pending.value, { exact: true }).waitFor();
        await dnsRecords.getByText(pending.name, { exact: true }).waitFor();
        assert.match(await page.locator('#dkim-pending').innerText(), /A new DKIM key is waiting/);

        // Published as shown: Verify now moves signing to it, and the old selector is listed with its date.
        dns.zone[pending.name] = { TXT: [[pending.value]] };
        await dnsRecords.getByRole('button', { name: 'Verify now' }).click();
        await page.locator('#dkim-retired').waitFor();
        const shown = (await client.GET('/v1/domains/{domain}', path)).data!;
        assert.equal(shown.dkim.selector, pending.selector);
        const retired = await page.locator('#dkim-retired').innerText();
        assert.ok(retired.includes(shown.dkim.retired!.name), retired);
        assert.ok(retired.includes(shown.dkim.retired!.remove_after.replace('T', ' ').slice(0, 19)), retired);
        assert.equal(await dnsRecords.locator('tbody tr').count(), 4);
        assert.equal(await page.locator('#dkim-pending').count(), 0);
      });
    });

    test('webhook: set the URL (secret shown once), send a test event the receiver verifies, rotate, remove', async () => {
      api.deps.clock.set(Date.now()); // standardwebhooks checks the timestamp against its own clock
      const seeded = await seedDomain(api.deps, { account: 'acme', domain: `hook-${dialect}.test` });
      const receiver = await startWebhookReceiver();
      receiver.answer(() => ({ status: 202, body: 'thanks, got it' }));
      try {
        await journey(admin, async (page) => {
          await page.goto(`/transactional/${seeded.domain}`);
          const hook = page.getByRole('region', { name: 'Webhook' });
          await hook.getByText('No webhook yet').waitFor();
          await hook.getByLabel('Webhook URL').fill('ftp://example.com/hook');
          await hook.getByRole('button', { name: 'Save webhook URL' }).click();
          await hook.locator('input[name="url"][aria-invalid="true"]').waitFor();
          await hook.getByLabel('Webhook URL').fill(receiver.url);
          await hook.getByRole('button', { name: 'Save webhook URL' }).click();
          const secret = await hook.locator('input[data-secret]').inputValue();
          assert.match(secret, /^whsec_/);
          await hook.getByRole('button', { name: 'Send test event' }).click();
          await hook.getByText('Test event: HTTP 202').waitFor();
          assert.equal(receiver.received.length, 1);
          const got = receiver.received[0]!;
          const payload = new Webhook(secret).verify(got.body, {
            'webhook-id': got.id,
            'webhook-timestamp': got.timestamp,
            'webhook-signature': got.signature,
          }) as { event: string; domain: string };
          assert.deepEqual([payload.event, payload.domain], ['webhook.test', seeded.domain]);

          await hook.getByRole('button', { name: 'Rotate secret' }).click();
          await page.waitForFunction(
            (old) =>
              (globalThis as unknown as InPage).document.querySelector('#webhook input[data-secret]')?.value !== old,
            secret,
          );
          await hook.getByRole('button', { name: 'Remove webhook' }).click();
          await hook.getByText('No webhook yet').waitFor();
        });
      } finally {
        await receiver.close();
      }
      const gone = await api
        .client(admin)
        .GET('/v1/domains/{domain}/webhook', { params: { path: { domain: seeded.domain } } });
      assert.equal(gone.response.status, 404);
    });

    test('a viewer token sees no secret and no write control (the app knows its role), and the API refuses its changes', async () => {
      const seeded = await seedDomain(api.deps, { account: 'acme', domain: `viewer-${dialect}.test` });
      const path = { params: { path: { domain: seeded.domain } } };
      const before = (await api.client(admin).GET('/v1/domains/{domain}/api-key', path)).data!;
      await journey(viewer, async (page) => {
        await page.getByRole('banner').getByText('Account token dashboard-viewer (viewer)').waitFor();
        await page.goto(`/transactional/${seeded.domain}`);
        const keys = page.getByRole('region', { name: 'API keys' });
        await keys.getByText(`${before.prefix}…`).waitFor();
        await page.getByRole('region', { name: 'SMTP credentials' }).getByText('No SMTP credential yet.').waitFor();
        for (const name of ['Replace API key', 'Create SMTP credential', 'Verify now', 'Delete domain…'])
          assert.equal(await page.getByRole('button', { name, exact: true }).count(), 0, name);
        assert.equal(await page.locator('input[data-secret]').count(), 0, 'no secret on the page');
        await page.goto('/transactional');
        await page.getByRole('link', { name: seeded.domain }).waitFor();
        assert.equal(await page.getByRole('button', { name: 'Add domain' }).count(), 0);
      });
      // What the page does not offer, the API refuses anyway.
      const viewerApi = api.client(viewer);
      assert.equal((await viewerApi.POST('/v1/domains/{domain}/api-key', path)).response.status, 403);
      assert.equal((await viewerApi.POST('/v1/domains/{domain}/smtp-credentials', path)).response.status, 403);
      assert.equal(
        (await viewerApi.POST('/v1/domains', { body: { name: `by-viewer-${dialect}.test` } })).response.status,
        403,
      );
      const after = (await api.client(admin).GET('/v1/domains/{domain}/api-key', path)).data!;
      assert.deepEqual(after, before, 'the key was not replaced');
      assert.deepEqual(
        (await api.client(admin).GET('/v1/domains/{domain}/smtp-credentials', path)).data!.credentials,
        [],
      );
    });

    test('every screen passes axe-core with no serious or critical violation, at 1280 and 390 px', async () => {
      const seeded = await seedDomain(api.deps, { account: 'acme', domain: `axe-${dialect}.test` });
      const { context, page, problems } = await openPage(browser, api.url);
      try {
        await page.goto('/login');
        await page.getByRole('button', { name: 'Use account token' }).waitFor();
        assert.deepEqual(await seriousViolations(page), [], 'login');
        await signInWithToken(page, admin);
        const screens: [string, string][] = [
          ['/transactional', 'Transactional'],
          [`/transactional/${seeded.domain}`, seeded.domain],
          ['/events', 'Events'],
          ['/usage', 'Usage'],
          ['/audit', 'Audit log'],
          ['/settings', 'Settings'],
          ['/notices', 'Notices'],
          ['/suppressions', 'Suppressions'],
        ];
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 900 });
          for (const [url, heading] of screens) {
            await page.goto(url);
            await page.getByRole('heading', { level: 1, name: heading }).waitFor();
            await page.waitForFunction(
              () =>
                !(globalThis as unknown as InPage).document
                  .querySelector('[role="status"]')
                  ?.textContent?.startsWith('Loading'),
            );
            assert.deepEqual(await seriousViolations(page), [], `${url} at ${width} px`);
            const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
            assert.ok(overflow <= 0, `${url} at ${width} px is ${overflow} px wider than the window`);
          }
        }
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  });
}
