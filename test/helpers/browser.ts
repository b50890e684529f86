import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { dashboardDirectory } from '../../src/http/routes/dashboard.js';
import type { DialectName } from '../../src/storage/open-database.js';
import { testDialects } from './test-db.js';

/**
 * Debian's Chromium (`apt-get install -y chromium`): Playwright's own browser download is not used
 * (docs/dashboard.md, Browser tests). POSTHORN_CHROMIUM names another binary.
 */
export const CHROMIUM = process.env.POSTHORN_CHROMIUM ?? '/usr/bin/chromium';

/**
 * The databases the browser journeys run on: SQLite (what `npm start` gives a newcomer), and
 * PostgreSQL too with POSTHORN_TEST_BROWSER_POSTGRES=1. What a journey checks is the pages; the
 * routes and storage under them run on both databases in test/storage/ and test/e2e/, and a
 * journey on each database was a fifth of the suite's time on two cores (CONTRIBUTING.md).
 */
export function browserDialects(): DialectName[] {
  return process.env.POSTHORN_TEST_BROWSER_POSTGRES === '1' ? testDialects() : ['sqlite'];
}

/** Launches headless Chromium, failing with what to do when it or the dashboard build is missing. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `the browser tests need Chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set POSTHORN_CHROMIUM`,
    );
  }
  if (!existsSync(`${dashboardDirectory()}/index.html`)) {
    throw new Error('the dashboard is not built: run `npm run build:web` (npm ci runs it) before the browser tests');
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}

/**
 * A fresh browser context on the harness's self-signed HTTPS origin, with clipboard access for
 * the copy buttons. Every Content-Security-Policy violation or page error is collected: a journey
 * ends by asserting there were none.
 */
export async function openPage(
  browser: Browser,
  url: string,
  width = 1280,
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    viewport: { width, height: 900 },
    baseURL: url,
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy|Refused to/i.test(msg.text())) problems.push(msg.text());
  });
  return { context, page, problems };
}

/** Signs in on /login with an account token (the form for operators and development). */
export async function signInWithToken(page: Page, token: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Account token').fill(token);
  await page.getByRole('button', { name: 'Use account token' }).click();
  await page.getByRole('navigation', { name: 'Main', exact: true }).waitFor();
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core in the page (evaluated through the DevTools protocol, so the page's CSP, which
 * forbids inline scripts, stays on) and returns the serious and critical violations.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  // A string, so this file needs no DOM types: it runs in the page, where axe is now defined.
  const result = await page.evaluate<AxeViolation[]>(`axe.run(document, { resultTypes: ['violations'] }).then((r) =>
    r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))`);
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
