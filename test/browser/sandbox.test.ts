// The sandbox in a real browser (docs/dashboard.md, Sandbox mailbox): `posthorn serve` started as
// `npm start` starts it (sandbox mode, a fresh data dir or database), its first-start welcome read
// from stdout, then Chromium signs in with the printed login, finds the sandbox domain ready to
// send, sends a test message to a special recipient from the form, and reads it in the Sandbox
// mailbox (rendered, raw) and its events. Then an SMTP credential made on the domain screen
// authenticates on the real relay over loopback, and once revoked in the browser is refused.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Browser, Page } from 'playwright-core';
import { browserDialects, launchBrowser, openPage, seriousViolations } from '../helpers/browser.js';
import { startServer, type RunningServer } from '../helpers/spawn-server.js';
import { createTestDb, type TestDb } from '../helpers/test-db.js';

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** Waits for `read` to give a value, reloading the page between tries (a screen without live refresh). */
async function untilShown(page: Page, what: string, read: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await read()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await page.reload();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
  }
}

/** An SMTP AUTH against the relay's STARTTLS port, as a mail client would: true when accepted. */
async function smtpAuth(port: number, ca: string, user: string, pass: string): Promise<boolean> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    secure: false,
    requireTLS: true,
    auth: { user, pass },
    tls: { ca, servername: 'localhost' },
  });
  try {
    await transport.verify();
    return true;
  } catch (err) {
    if ((err as { code?: string }).code === 'EAUTH') return false;
    throw err;
  } finally {
    transport.close();
  }
}

for (const dialect of browserDialects()) {
  describe(`the sandbox in Chromium (${dialect})`, () => {
    let db: TestDb;
    let server: RunningServer;
    let welcome: { dashboard: string; email: string; password: string; smtpPort: number };
    let ca: string;

    before(async () => {
      db = await createTestDb(dialect);
      server = await startServer({ POSTHORN_SANDBOX: '1', ...db.env });
      // The welcome is printed once the relay listens, after the API's `listening` line.
      const deadline = Date.now() + 15_000;
      let out = server.stdout();
      while (!/SMTP password:/.test(out) && Date.now() < deadline) {
        // The next chunk of output, or a fresh look shortly after should it have come in between.
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, 200);
          server.child.stdout!.once('data', () => {
            clearTimeout(t);
            resolve();
          });
        });
        out = server.stdout();
      }
      const field = (name: string) => new RegExp(`${name}:\\s+(\\S+)`).exec(out)?.[1];
      welcome = {
        dashboard: field('Dashboard') ?? '',
        email: field('Login') ?? '',
        password: field('Password') ?? '',
        smtpPort: Number(/SMTP relay:\s+localhost port (\d+)/.exec(out)?.[1]),
      };
      assert.match(welcome.dashboard, /^https:\/\/\S+\/$/, out);
      assert.equal(welcome.email, 'demo@sandbox.posthorn.test', out);
      assert.ok(welcome.password.length > 8, out);
      assert.ok(welcome.smtpPort > 0, out);
      ca = readFileSync(join(db.dataDir, 'tls', 'cert.pem'), 'utf8');
    });
    after(async () => {
      await server?.stop();
      await db?.close();
    });

    test('first start: sign in with the printed login, send to complain@ from the form, read it in the Sandbox mailbox and its events', async () => {
      const { context, page, problems } = await openPage(browser, welcome.dashboard);
      try {
        await page.goto(welcome.dashboard);
        await page.getByLabel('Email').fill(welcome.email);
        await page.getByLabel('Password').fill(welcome.password);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        const nav = page.getByRole('navigation', { name: 'Main', exact: true });
        await nav.getByRole('link', { name: 'Sandbox mailbox' }).waitFor();
        await nav.getByRole('link', { name: 'Transactional' }).click();
        await page.getByRole('link', { name: 'sandbox.posthorn.test' }).click();
        await page.getByText('The sandbox domain is verified and ready to send').waitFor();
        await page.getByRole('heading', { level: 1, name: /sandbox\.posthorn\.test\s+verified/ }).waitFor();

        const form = page.getByRole('region', { name: 'Send a test message' });
        await form.getByRole('button', { name: 'complain@…' }).click();
        assert.equal(await form.getByLabel('To').inputValue(), 'complain@example.com');
        await form.getByLabel('Subject').fill('Sandbox journey');
        await form.getByRole('button', { name: 'Send test message' }).click();
        const queued = await form.getByRole('status').filter({ hasText: 'Queued' }).textContent();
        const id = /msg_[0-9A-Z]{26}/.exec(queued ?? '')?.[0];
        assert.ok(id, queued ?? '');

        await form.getByRole('link', { name: 'Open the Sandbox mailbox' }).click();
        await page.getByRole('heading', { level: 1, name: 'Sandbox mailbox' }).waitFor();
        // The first page refreshes itself: the message appears once the worker has kept it.
        await page.getByRole('link', { name: 'Sandbox journey' }).click({ timeout: 20_000 });
        await page.getByRole('heading', { level: 1, name: 'Sandbox journey' }).waitFor();
        await page.getByText('complain@example.com').first().waitFor();
        // Rendered in the sandboxed frame, without scripts; the CSP holds (problems stays empty).
        const frame = page.frameLocator('iframe.email-frame');
        await frame.getByRole('heading', { name: 'Sandbox journey' }).waitFor();
        await frame.getByRole('link', { name: 'A link to follow' }).waitFor();
        assert.equal(await page.locator('iframe.email-frame').getAttribute('sandbox'), 'allow-same-origin');
        await page.getByRole('button', { name: 'Raw source' }).click();
        const raw = page.getByLabel('Raw source, as signed');
        await raw.waitFor();
        assert.match(
          (await raw.textContent()) ?? '',
          /DKIM-Signature: v=1; a=rsa-sha256; [^]*d=sandbox\.posthorn\.test/,
        );
        assert.deepEqual(await seriousViolations(page), []);

        await page.getByRole('link', { name: `${id}: its events` }).click();
        await page.getByRole('heading', { level: 1, name: 'Message' }).waitFor();
        const timeline = page.locator('ol.timeline');
        await untilShown(page, 'the complaint in the timeline', async () =>
          /complained/.test((await timeline.textContent().catch(() => '')) ?? ''),
        );
        const text = (await timeline.textContent()) ?? '';
        for (const event of ['accepted-by-system', 'delivered', 'complained']) assert.match(text, new RegExp(event));

        // The mailbox at a phone's width passes axe too.
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto('/sandbox');
        await page.getByRole('link', { name: 'Sandbox journey' }).waitFor();
        assert.deepEqual(await seriousViolations(page), []);
        await page.setViewportSize({ width: 1280, height: 900 });
        assert.deepEqual(await seriousViolations(page), []);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });

    test('an SMTP credential made on the domain screen authenticates on the relay; revoked in the browser, it is refused', async () => {
      const { context, page, problems } = await openPage(browser, welcome.dashboard);
      try {
        await page.goto('/login');
        await page.getByLabel('Email').fill(welcome.email);
        await page.getByLabel('Password').fill(welcome.password);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.getByRole('navigation', { name: 'Main', exact: true }).waitFor();
        await page.goto('/transactional/sandbox.posthorn.test');
        const smtp = page.getByRole('region', { name: 'SMTP credentials' });
        // The section has loaded its list (the sandbox's own login from the first start) before the
        // click: a click while it is still loading could land on a button about to be re-rendered.
        await smtp.getByRole('table').waitFor();
        await smtp.getByRole('button', { name: 'Create SMTP credential' }).click();
        const password = await smtp.locator('input[data-secret]').inputValue();
        const shown = (await smtp.getByRole('status').textContent()) ?? '';
        const username = /Username\s+(\S+?)\s*Copy username/.exec(shown)?.[1];
        assert.ok(username, shown);
        assert.equal(await smtpAuth(welcome.smtpPort, ca, username, password), true);
        assert.equal(await smtpAuth(welcome.smtpPort, ca, username, `${password}x`), false);

        await smtp.getByRole('button', { name: `Revoke ${username}` }).click();
        await smtp.getByRole('cell', { name: username, exact: true }).waitFor({ state: 'detached' });
        assert.equal(await smtpAuth(welcome.smtpPort, ca, username, password), false);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });
  });
}
