// The Templates screen in a real browser (docs/dashboard.md, Templates): headless Chromium against
// a real HTTPS server on a fresh database of each kind, sharing its database with a real delivery
// engine (a DKIM-signing worker and a loopback sink MX), so a template made on the screen is sent
// by name and its delivered source read back through GET /v1/messages/{id}/content. No
// Content-Security-Policy violation or page error may happen: the editor's styles and the
// preview's inline styles must both get through the dashboard's policy.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { simpleParser } from 'mailparser';
import type { Browser, Locator, Page } from 'playwright-core';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { createDeliveryHarness, MX_DOMAIN, type DeliveryHarness } from '../helpers/delivery-harness.js';
import { browserDialects, launchBrowser, openPage, seriousViolations, signInWithToken } from '../helpers/browser.js';

/** The page's globals, typed just enough for the functions run in the page (no DOM library here). */
type InPage = {
  getComputedStyle(el: unknown): { color: string; fontSize: string };
  document: {
    querySelector(s: string): { textContent: string | null } | null;
    querySelectorAll(s: string): { length: number };
  };
};

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

/** The field box (label, editor, error) of the code editor for API field `field`. */
const codeField = (page: Page, field: string): Locator =>
  page.locator('.code-field').filter({ has: page.locator(`.code-host[data-field="${field}"]`) });

/** Waits until every code editor on the page has loaded (CodeMirror comes as its own chunk). */
async function editorsReady(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const doc = (globalThis as unknown as InPage).document;
    return (
      doc.querySelectorAll('.code-host').length > 0 && doc.querySelectorAll('.code-field [role="status"]').length === 0
    );
  });
}

/** Replaces a CodeMirror editor's text (Playwright selects its content and inserts the text, as typing would). */
async function typeInto(editor: Locator, text: string): Promise<void> {
  await editor.fill(text);
}

for (const dialect of browserDialects()) {
  describe(`templates screen in Chromium (${dialect})`, () => {
    let h: DeliveryHarness;
    let api: ApiHarness;
    let admin: string;
    let viewer: { email: string; password: string };

    before(async () => {
      h = await createDeliveryHarness(dialect, { env: { POSTHORN_EVENTS_RATE_LIMIT: '100000' } });
      api = await startApiHarness(dialect, { deps: h.deps });
      admin = await api.token('acme', 'admin', 'templates-admin');
      const made = await api
        .client(admin)
        .POST('/v1/users', { body: { email: `viewer-${dialect}@example.org`, role: 'viewer' } });
      assert.equal(made.response.status, 201, JSON.stringify(made.error));
      viewer = { email: made.data!.email, password: made.data!.password! };
    });
    after(async () => {
      await api?.close();
      await h?.close();
    });

    /** Runs `fn` in a fresh page signed in with the admin token, then checks nothing went wrong in it. */
    async function journey(fn: (page: Page) => Promise<void>, width = 1280): Promise<void> {
      const { context, page, problems } = await openPage(browser, api.url, width);
      try {
        await signInWithToken(page, admin);
        await fn(page);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }

    test('create (a syntax error shown at the HTML field), live preview, save version 2, compare, send by name, restore, delete', async () => {
      await journey(async (page) => {
        await page.goto('/templates');
        const empty = page.getByText('No template yet.');
        await empty.waitFor();
        assert.match(await page.getByLabel('Example request body').innerText(), /POST \/v1\/send[\s\S]*"template": \{/);
        await editorsReady(page);

        await page.getByLabel('Name').fill('welcome');
        await page.getByLabel('Subject').fill('Welcome, {{user.first_name}}');
        const createHtml = page.getByRole('textbox', { name: 'HTML', exact: true });
        await typeInto(createHtml, '<p>Hello {{user.first_name}}</p>\n{{#if trial}}<p>Your trial</p>\n');
        // Tab leaves an editor for the next field: the editors never keep the keyboard.
        await createHtml.press('Tab');
        const createText = page.getByRole('textbox', { name: 'Text', exact: true });
        assert.equal(
          await createText.evaluate(
            (el: { getRootNode(): { activeElement: unknown } }) => el.getRootNode().activeElement === el,
          ),
          true,
        );
        await typeInto(createText, 'Hello {{user.first_name}}');
        await page.getByRole('button', { name: 'Create template' }).click();
        // The refusal names the html part; it is shown under that editor, with its line and column.
        const htmlError = codeField(page, 'html').getByRole('alert');
        await htmlError.waitFor();
        assert.match(await htmlError.innerText(), /line \d+, column \d+/);
        assert.equal(await createHtml.getAttribute('aria-invalid'), 'true');
        assert.equal(await codeField(page, 'text').getByRole('alert').count(), 0);
        assert.deepEqual((await api.client(admin).GET('/v1/templates')).data!.templates, []);

        await typeInto(
          createHtml,
          '<style>.big { font-size: 30px }</style>\n<p class="big" style="color: #0a7a3a">Hello {{user.first_name}}</p>\n{{#if trial}}<p>Your trial</p>{{/if}}\n',
        );
        await page.getByRole('button', { name: 'Create template' }).click();
        await page.waitForURL('**/templates/welcome');
        await page.getByRole('heading', { level: 1, name: 'welcome' }).waitFor();
        await editorsReady(page);

        // The sample variables start from the paths the version uses; the preview follows them.
        const subject = page.locator('[data-preview="subject"]');
        const frame = page.frameLocator('iframe[title="HTML preview"]');
        await page.waitForFunction(
          () =>
            (globalThis as unknown as InPage).document.querySelector('[data-preview="subject"]')?.textContent ===
            'Welcome, first_name',
        );
        const variables = page.getByRole('textbox', { name: 'Sample variables (JSON)' });
        await typeInto(variables, '{"user": {"first_name": "Ana"}}');
        await frame.getByText('Hello Ana').waitFor();
        assert.equal(await subject.innerText(), 'Welcome, Ana');
        assert.equal(await frame.getByText('Your trial').count(), 0);
        // The message's own styles survive the dashboard's policy: the inline style and the <style> rule.
        const styled = await frame.locator('p.big').evaluate((el) => {
          const s = (globalThis as unknown as InPage).getComputedStyle(el);
          return [s.color, s.fontSize];
        });
        assert.deepEqual(styled, ['rgb(10, 122, 58)', '30px']);

        // Bad JSON is shown next to the variables, and nothing is rendered from it.
        await typeInto(variables, '{"user": ');
        const varsError = codeField(page, 'variables').getByRole('alert');
        await varsError.waitFor();
        assert.match(await varsError.innerText(), /Not valid JSON/);
        // A variable the template needs and the sample leaves out: the render's own error, at the variables.
        await typeInto(variables, '{"trial": true}');
        await codeField(page, 'variables')
          .getByText(/user\.first_name/)
          .waitFor();
        await typeInto(variables, '{"user": {"first_name": "Bea"}, "trial": true}');
        await frame.getByText('Your trial').waitFor();
        await frame.getByText('Hello Bea').waitFor();
        assert.equal(await page.getByLabel('Text preview').innerText(), 'Hello Bea');

        // Version 2.
        await typeInto(
          page.getByRole('textbox', { name: 'HTML', exact: true }),
          '<p>Hello again {{user.first_name}}</p>\n',
        );
        await typeInto(
          page.getByRole('textbox', { name: 'Text', exact: true }),
          'Hi {{user.first_name}}, this is version two',
        );
        await page.getByText('Unsaved changes').waitFor();
        await page.getByRole('button', { name: 'Save as version 2' }).click();
        await page.getByText('Saved as version 2.').waitFor();
        await frame.getByText('Hello again Bea').waitFor();
        assert.equal(await page.getByLabel('Text preview').innerText(), 'Hi Bea, this is version two');

        const versions = page.getByRole('region', { name: 'Versions' });
        assert.equal(await versions.locator('tbody tr').count(), 2);
        await versions.getByLabel('Compare version').selectOption('1');
        await versions.getByLabel('with version').selectOption('2');
        await versions.getByRole('button', { name: 'Compare' }).click();
        const htmlDiff = versions.getByRole('table', { name: 'HTML: version 1 (left) and version 2 (right)' });
        await htmlDiff.waitFor();
        // Version 1's three lines on the left as removed, version 2's line on the right as added.
        assert.equal(await htmlDiff.locator('td.removed').count(), 3);
        assert.equal(await htmlDiff.locator('td.removed', { hasText: 'class="big"' }).count(), 1);
        assert.deepEqual(await htmlDiff.locator('td.added').allInnerTexts(), [
          '<p>Hello again {{user.first_name}}</p>',
        ]);
        assert.ok((await htmlDiff.locator('td.removed del').count()) > 0, 'the removed words are marked');
        assert.ok((await htmlDiff.locator('td.added ins').count()) > 0, 'the added words are marked');
        await versions.getByRole('table', { name: 'Text: version 1 (left) and version 2 (right)' }).waitFor();
        await versions.getByText('Subject: no change').waitFor();

        // A send by name uses the newest version: 202, and the delivered source carries its rendering.
        const sent = await api.fetch('/v1/send', {
          method: 'POST',
          headers: { authorization: `Bearer ${h.sender.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            from: `Acme <hello@${h.sender.domain}>`,
            to: `ana@${MX_DOMAIN}`,
            template: { name: 'welcome', variables: { user: { first_name: 'Ana' } } },
          }),
        });
        assert.equal(sent.status, 202);
        const { id } = (await sent.json()) as { id: string };
        await h.run();
        const content = await api
          .client(h.sender.key)
          .GET('/v1/messages/{id}/content', { params: { path: { id } }, parseAs: 'text' });
        assert.equal(content.response.status, 200);
        const mail = await simpleParser(content.data as unknown as string);
        assert.equal(mail.subject, 'Welcome, Ana');
        assert.equal(mail.text?.trim(), 'Hi Ana, this is version two');
        assert.match(String(mail.html), /<p>Hello again Ana<\/p>/);

        // Roll back: version 1 again, as version 3.
        await versions.getByRole('button', { name: 'Open version 1' }).click();
        await page.getByText('This is version 1; sends use version 2.').waitFor();
        await versions.getByRole('button', { name: 'Restore version 1 as version 3' }).click();
        await page.getByText('Version 1 restored as version 3.').waitFor();
        const v1 = (
          await api
            .client(admin)
            .GET('/v1/templates/{name}', { params: { path: { name: 'welcome' }, query: { version: 1 } } })
        ).data!;
        const v3 = (await api.client(admin).GET('/v1/templates/{name}', { params: { path: { name: 'welcome' } } }))
          .data!;
        assert.deepEqual([v3.version, v3.subject, v3.html, v3.text], [3, v1.subject, v1.html, v1.text]);

        // Delete, after a confirmation.
        await page.getByRole('button', { name: 'Delete template…' }).click();
        await page.getByRole('button', { name: 'Yes, delete welcome' }).click();
        await page.waitForURL('**/templates');
        await empty.waitFor();
        const gone = await api.client(admin).GET('/v1/templates/{name}', { params: { path: { name: 'welcome' } } });
        assert.equal(gone.response.status, 404);
      });
    });

    test('a viewer reads and previews, and sees no write control', async () => {
      const client = api.client(admin);
      await client.POST('/v1/templates', {
        body: { name: 'receipt', subject: 'Receipt {{number}}', text: 'Total {{total}}' },
      });
      await client.PUT('/v1/templates/{name}', {
        params: { path: { name: 'receipt' } },
        body: { subject: 'Your receipt {{number}}', text: 'Total: {{total}}' },
      });
      const { context, page, problems } = await openPage(browser, api.url);
      try {
        await page.goto('/login');
        await page.getByLabel('Email').fill(viewer.email);
        await page.getByLabel('Password').fill(viewer.password);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.getByRole('navigation', { name: 'Main', exact: true }).waitFor();
        await page.goto('/templates');
        await page.getByRole('link', { name: 'receipt' }).click();
        await page.getByRole('heading', { level: 1, name: 'receipt' }).waitFor();
        await editorsReady(page);
        await page.locator('[data-preview="subject"]').getByText('Your receipt number').waitFor();
        const text = page.getByRole('textbox', { name: 'Text', exact: true });
        assert.equal(await text.getAttribute('aria-readonly'), 'true');
        // Reads stay: compare two versions.
        await page.getByRole('button', { name: 'Compare' }).click();
        await page.getByRole('table', { name: 'Text: version 1 (left) and version 2 (right)' }).waitFor();
        const writes = page.getByRole('button', { name: /save|restore|delete|create|discard/i });
        assert.equal(await writes.count(), 0);
        assert.equal(await page.getByLabel('Subject').count(), 0, 'no subject input');
        await page.goto('/templates');
        await page.getByRole('link', { name: 'receipt' }).waitFor();
        assert.equal(await page.getByRole('heading', { name: 'Create a template' }).count(), 0);
        assert.equal(await writes.count(), 0);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    });

    test('the list and a template pass axe-core at 1280 and 390 px, with no sideways scrolling', async () => {
      await api.client(admin).POST('/v1/templates', {
        body: {
          name: 'password-reset',
          subject: 'Reset your password',
          html: '<p style="margin:0">Reset it: <a href="{{url}}">{{url}}</a></p>',
          text: 'Reset it: {{url}}',
        },
      });
      await journey(async (page) => {
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 900 });
          for (const [url, heading] of [
            ['/templates', 'Templates'],
            ['/templates/password-reset', 'password-reset'],
          ] as const) {
            await page.goto(url);
            await page.getByRole('heading', { level: 1, name: heading }).waitFor();
            await editorsReady(page);
            if (url !== '/templates')
              await page.frameLocator('iframe[title="HTML preview"]').getByText('Reset it:').waitFor();
            assert.deepEqual(await seriousViolations(page), [], `${url} at ${width} px`);
            const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
            assert.ok(overflow <= 0, `${url} at ${width} px is ${overflow} px wider than the window`);
          }
        }
      });
    });
  });
}
