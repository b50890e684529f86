// The Suppressions screen in a real browser (docs/dashboard.md): headless Chromium against a real
// HTTPS server on a fresh database of each kind. Adding (a refusal shown at its field), searching,
// paging and removing; a CSV import with its upload progress and invalid-line report; exports saved
// as files that match GET /v1/suppressions/export; a viewer without write controls; axe-core at
// 1280 and 390 px. Both credentials of the dashboard are used: a signed-in user (session cookie and
// X-CSRF-Token) and an account token (bearer). No Content-Security-Policy violation may happen.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { Browser, Download, Page } from 'playwright-core';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { browserDialects, launchBrowser, openPage, seriousViolations, signInWithToken } from '../helpers/browser.js';
import { createUser } from '../../src/users/users.js';
import { CLI_ACTOR } from '../../src/core/actor.js';

const PASSWORD = 'tulip-orbit-mango-47';

/** The page's globals, typed just enough for the functions run in it (this file has no DOM library). */
type InPage = {
  document: {
    activeElement: { textContent: string | null } | null;
    querySelector(s: string): { textContent: string | null } | null;
  };
};

/** Signs in on /login with email and password: the session cookie, and X-CSRF-Token on changes. */
async function signInWithPassword(page: Page, email: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('navigation', { name: 'Main', exact: true }).waitFor();
}

/** The text of a finished download. */
async function downloaded(download: Download): Promise<string> {
  const path = await download.path();
  assert.ok(path, `download failed: ${await download.failure()}`);
  return readFile(path, 'utf8');
}

/** Waits until no "Loading…" status is shown. */
async function loaded(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      !(globalThis as unknown as InPage).document.querySelector('[role="status"]')?.textContent?.startsWith('Loading'),
  );
}

/** axe-core has no serious violation and the page does not scroll sideways at `width`. */
async function accessible(page: Page, width: number, what: string): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  assert.deepEqual(await seriousViolations(page), [], `${what} at ${width} px`);
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  assert.ok(overflow <= 0, `${what} at ${width} px is ${overflow} px wider than the window`);
}

let browser: Browser;
before(async () => {
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

for (const dialect of browserDialects()) {
  describe(`Suppressions screen in Chromium (${dialect})`, () => {
    let api: ApiHarness;
    let admin: string;
    let viewer: string;
    let quietViewer: string;
    const adminEmail = 'admin@acme.test';
    const viewerEmail = 'viewer@acme.test';

    before(async () => {
      api = await startApiHarness(dialect);
      admin = await api.token('acme', 'admin', 'supp-admin');
      viewer = await api.token('acme', 'viewer', 'supp-viewer');
      quietViewer = await api.token('quiet', 'viewer', 'quiet-viewer');
      await createUser(api.deps, 'acme', { email: adminEmail, role: 'admin', password: PASSWORD, actor: CLI_ACTOR });
      await createUser(api.deps, 'acme', { email: viewerEmail, role: 'viewer', password: PASSWORD, actor: CLI_ACTOR });
    });
    after(() => api.close());

    /** Runs `fn` in a fresh page signed in by `signIn`, then checks no CSP violation or page error happened. */
    async function journey(signIn: (page: Page) => Promise<void>, fn: (page: Page) => Promise<void>): Promise<void> {
      const { context, page, problems } = await openPage(browser, api.url);
      try {
        await signIn(page);
        await fn(page);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    }
    const asAdmin = (page: Page) => signInWithPassword(page, adminEmail);
    const asAdminToken = (page: Page) => signInWithToken(page, admin);

    async function listed(address: string): Promise<{ address: string; reason: string }[]> {
      const r = await api.client(admin).GET('/v1/suppressions', { params: { query: { address, limit: 1000 } } });
      return r.data!.suppressions.map((s) => ({ address: s.address, reason: s.reason }));
    }

    test('add (a bad address refused at its field), search finds it, remove after confirming', async () => {
      assert.equal(
        (await api.client(admin).POST('/v1/suppressions', { body: { address: 'other@elsewhere.test' } })).response
          .status,
        201,
      );
      await journey(asAdmin, async (page) => {
        await page
          .getByRole('navigation', { name: 'Main', exact: true })
          .getByRole('link', { name: 'Suppressions' })
          .click();
        await page.getByRole('heading', { level: 1, name: 'Suppressions' }).waitFor();
        const add = page.getByRole('form', { name: 'Add an address' });
        const input = add.getByLabel('Email address');
        await input.fill('dana.lee@');
        await add.getByRole('button', { name: 'Add address' }).click();
        await add.locator('input[aria-invalid="true"]').waitFor();
        const errorId = await input.getAttribute('aria-describedby');
        assert.ok(errorId, 'the input points at its error');
        assert.match(
          await page.locator(`[id="${errorId}"]`).innerText(),
          /"dana\.lee@" is not an email address/,
          'the API refusal is shown under the address field',
        );
        assert.deepEqual(await listed('dana'), [], 'nothing was added');

        await input.fill('Dana.Lee@Example.ORG');
        await add.getByLabel('Reason').selectOption('complaint');
        await add.getByRole('button', { name: 'Add address' }).click();
        await page.getByRole('status').filter({ hasText: 'dana.lee@example.org was added (complaint)' }).waitFor();
        assert.equal(await add.locator('input[aria-invalid="true"]').count(), 0, 'the error is gone');
        assert.deepEqual(await listed('dana'), [{ address: 'dana.lee@example.org', reason: 'complaint' }]);
        // Adding it again keeps the first entry, and says so.
        await input.fill('dana.lee@example.org');
        await add.getByRole('button', { name: 'Add address' }).click();
        await page.getByRole('status').filter({ hasText: 'dana.lee@example.org was already suppressed' }).waitFor();

        const list = page.getByRole('region', { name: 'Suppression list' });
        await list.getByRole('cell', { name: 'other@elsewhere.test', exact: true }).waitFor();
        await list.getByLabel('Address contains').fill('LEE@example');
        await list.getByRole('button', { name: 'Search' }).click();
        await page.waitForURL(/\/suppressions\?address=LEE%40example$/);
        await list.getByRole('cell', { name: 'other@elsewhere.test', exact: true }).waitFor({ state: 'detached' });
        const row = list.getByRole('row').filter({ hasText: 'dana.lee@example.org' });
        await row.getByText('complaint').waitFor();
        await list.getByLabel('Reason').selectOption('hard_bounce');
        await list.getByText('No suppressed address matches').waitFor();
        await list.getByLabel('Reason').selectOption('complaint');
        await row.waitFor();

        await row.getByRole('button', { name: 'Remove dana.lee@example.org' }).click();
        const yes = row.getByRole('button', { name: 'Yes, remove dana.lee@example.org' });
        await yes.waitFor();
        assert.equal(
          await page.evaluate(() => (globalThis as unknown as InPage).document.activeElement?.textContent),
          'Yes, remove dana.lee@example.org',
          'focus moves to the confirmation',
        );
        await row.getByRole('button', { name: 'Cancel' }).click();
        assert.equal((await listed('dana')).length, 1, 'cancel keeps it');
        await row.getByRole('button', { name: 'Remove dana.lee@example.org' }).click();
        await yes.click();
        await page.getByRole('status').filter({ hasText: 'dana.lee@example.org was removed' }).waitFor();
        await list.getByText('No suppressed address matches').waitFor();
        assert.deepEqual(await listed('dana'), []);
        assert.equal((await listed('other@elsewhere.test')).length, 1, 'only that address was removed');
      });
    });

    test('CSV import: the upload progress finishes, the invalid line is reported, the valid lines are listed', async () => {
      await api.client(admin).POST('/v1/suppressions', { body: { address: 'already@example.net' } });
      const bulk = Array.from({ length: 120 }, (_, i) => `bulk-${String(i + 1).padStart(4, '0')}@example.com,`);
      const csv = [
        'address,reason',
        'import-one@example.com,',
        'import-two@example.com,hard_bounce',
        'already@example.net,',
        'bad-address@,',
        'import-one@example.com,',
        ...bulk,
        '',
      ].join('\n');
      await journey(asAdmin, async (page) => {
        await page.goto('/suppressions');
        const region = page.getByRole('region', { name: 'Import' });
        await region.getByLabel('CSV or NDJSON file').setInputFiles({
          name: 'suppressions.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from(csv),
        });
        await region.getByRole('button', { name: 'Import file' }).click();
        const report = region.getByRole('status');
        await report.getByText('Import finished').waitFor();

        const progress = region.locator('progress');
        const [value, max] = await progress.evaluate((el) => {
          const p = el as unknown as { value: number; max: number };
          return [p.value, p.max];
        });
        assert.equal(max, Buffer.byteLength(csv), 'the bar measures the file');
        assert.equal(value, max, 'the upload finished');
        assert.match(await region.locator('.upload label').innerText(), /^Uploaded \S+ KB of \S+ KB$/);

        assert.match(await report.innerText(), /Imported\s+122\s+Already suppressed\s+2\s+Invalid\s+1/);
        const invalid = region.getByRole('table', { name: 'Invalid lines of the imported file' });
        const cells = await invalid.getByRole('row').nth(1).getByRole('cell').allInnerTexts();
        assert.equal(cells[0], '5');
        assert.equal(cells[1], 'bad-address@');
        assert.match(cells[2]!, /is not an email address/);
        assert.equal(await invalid.getByRole('row').count(), 2, 'one invalid line');
        await accessible(page, 1280, 'the import report');
        await accessible(page, 390, 'the import report');
        await page.setViewportSize({ width: 1280, height: 900 });

        // The valid lines are in the list, a page at a time.
        const list = page.getByRole('region', { name: 'Suppression list' });
        await list.getByLabel('Address contains').fill('import-');
        await list.getByRole('button', { name: 'Search' }).click();
        await list.getByRole('cell', { name: 'import-two@example.com', exact: true }).waitFor();
        await list.getByRole('cell', { name: 'import-one@example.com', exact: true }).waitFor();
        await list.getByRole('row').filter({ hasText: 'import-two@example.com' }).getByText('hard bounce').waitFor();
        await list.getByLabel('Address contains').fill('bulk-');
        await list.getByRole('button', { name: 'Search' }).click();
        await list.getByRole('cell', { name: 'bulk-0050@example.com', exact: true }).waitFor();
        assert.equal(await list.getByRole('row').count(), 51, 'a page of 50 and the header');
        await list.getByRole('button', { name: 'Next' }).click();
        await list.getByText('Page 2').waitFor();
        await list.getByRole('cell', { name: 'bulk-0051@example.com', exact: true }).waitFor();
        await list.getByRole('button', { name: 'Next' }).click();
        await list.getByRole('cell', { name: 'bulk-0120@example.com', exact: true }).waitFor();
        assert.equal(await list.getByRole('row').count(), 21);
        assert.equal(await list.getByRole('button', { name: 'Next' }).isDisabled(), true, 'the last page');
        await list.getByRole('button', { name: 'Previous' }).click();
        await list.getByRole('cell', { name: 'bulk-0100@example.com', exact: true }).waitFor();
      });
      assert.deepEqual(await listed('import-'), [
        { address: 'import-one@example.com', reason: 'manual' },
        { address: 'import-two@example.com', reason: 'hard_bounce' },
      ]);
      assert.equal((await listed('bulk-')).length, 120);
      assert.deepEqual(await listed('bad-address'), []);
    });

    test('import with an account token: NDJSON, and a refused file shown at the file picker', async () => {
      const ndjson =
        '{"address":"nd-one@example.com"}\n{"address":"nd-two@example.com","reason":"complaint"}\nnot json\n';
      await journey(asAdminToken, async (page) => {
        await page.goto('/suppressions');
        const region = page.getByRole('region', { name: 'Import' });
        const picker = region.getByLabel('CSV or NDJSON file');
        await picker.setInputFiles({
          name: 'list.csv',
          mimeType: 'text/csv',
          buffer: Buffer.from('email\nx@example.com\n'),
        });
        await region.getByRole('button', { name: 'Import file' }).click();
        await region.locator('input[type="file"][aria-invalid="true"]').waitFor();
        const errorId = await picker.getAttribute('aria-describedby');
        assert.match(await page.locator(`[id="${errorId}"]`).innerText(), /address/);

        await picker.setInputFiles({
          name: 'list.ndjson',
          mimeType: 'application/x-ndjson',
          buffer: Buffer.from(ndjson),
        });
        assert.equal(await region.locator('[aria-invalid="true"]').count(), 0, 'a new file clears the error');
        await region.getByRole('button', { name: 'Import file' }).click();
        const report = region.getByRole('status');
        await report.getByText('Import finished').waitFor();
        assert.match(await report.innerText(), /Imported\s+2\s+Already suppressed\s+0\s+Invalid\s+1/);
        const cells = await region.getByRole('row').nth(1).getByRole('cell').allInnerTexts();
        assert.equal(cells[0], '3');
      });
      assert.deepEqual(await listed('nd-'), [
        { address: 'nd-one@example.com', reason: 'manual' },
        { address: 'nd-two@example.com', reason: 'complaint' },
      ]);
      assert.equal((await listed('x@example.com')).length, 0);
    });

    test('export downloads files that match GET /v1/suppressions/export, with a session and with a token', async () => {
      const expected = async (accept: string): Promise<string> => {
        const r = await api.fetch('/v1/suppressions/export', {
          headers: { authorization: `Bearer ${admin}`, accept },
        });
        assert.equal(r.status, 200);
        return r.text();
      };
      const csv = await expected('text/csv');
      const ndjson = await expected('application/x-ndjson');
      assert.match(csv, /^address,reason,created_at,domain,message_id\n/);
      assert.ok(csv.split('\n').length > 100, 'the export has the imported rows');
      for (const signIn of [asAdmin, asAdminToken]) {
        await journey(signIn, async (page) => {
          await page.goto('/suppressions');
          const region = page.getByRole('region', { name: 'Export' });
          for (const [name, file, body] of [
            ['Download CSV', 'suppressions.csv', csv],
            ['Download NDJSON', 'suppressions.ndjson', ndjson],
          ] as const) {
            const [download] = await Promise.all([
              page.waitForEvent('download'),
              region.getByRole(signIn === asAdmin && file.endsWith('.csv') ? 'link' : 'button', { name }).click(),
            ]);
            assert.equal(download.suggestedFilename(), file);
            assert.equal(await downloaded(download), body, `${name} is the API's export`);
          }
        });
      }
    });

    test('a viewer (session or token) sees the list and the export, and no add, remove or import', async () => {
      for (const signIn of [
        (page: Page) => signInWithPassword(page, viewerEmail),
        (page: Page) => signInWithToken(page, viewer),
      ]) {
        await journey(signIn, async (page) => {
          await page.goto('/suppressions');
          await page.getByText('Your role is viewer').waitFor();
          await page.getByRole('cell', { name: 'already@example.net', exact: true }).waitFor();
          assert.equal(await page.getByRole('form', { name: 'Add an address' }).count(), 0);
          assert.equal(await page.getByRole('region', { name: 'Import' }).count(), 0);
          assert.equal(await page.getByRole('button', { name: /remove/i }).count(), 0);
          assert.equal(await page.getByRole('columnheader', { name: 'Actions' }).count(), 0);
          await page.getByRole('region', { name: 'Export' }).getByText('Download CSV').waitFor();
        });
      }
      // An admin token does see them, once its role is read.
      await journey(asAdminToken, async (page) => {
        await page.goto('/suppressions');
        await page.getByRole('form', { name: 'Add an address' }).waitFor();
        await page.getByRole('region', { name: 'Import' }).waitFor();
        assert.equal(await page.getByText('Your role is viewer').count(), 0);
      });
    });

    test('axe-core at 1280 and 390 px: the list, a confirmation, the empty state', async () => {
      await journey(asAdmin, async (page) => {
        await page.goto('/suppressions');
        await page.getByRole('heading', { level: 1, name: 'Suppressions' }).waitFor();
        await loaded(page);
        await page.getByRole('cell', { name: 'already@example.net', exact: true }).waitFor();
        await page.getByRole('button', { name: 'Remove already@example.net' }).click();
        await page.getByRole('button', { name: 'Yes, remove already@example.net' }).waitFor();
        await accessible(page, 390, 'the list with a confirmation');
        await accessible(page, 1280, 'the list with a confirmation');
      });
      await journey(
        (page) => signInWithToken(page, quietViewer),
        async (page) => {
          await page.goto('/suppressions');
          await page.getByText('No address is suppressed yet.').waitFor();
          await page.getByText('An admin of the account can add addresses').waitFor();
          await accessible(page, 1280, 'the empty state');
          await accessible(page, 390, 'the empty state');
        },
      );
    });
  });
}
