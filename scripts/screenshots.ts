// `npm run screenshots`: writes docs/screenshots/<screen>.png, each screen of the dashboard at
// 1280 px, for the README (Dashboard). It runs the real server on a fresh SQLite database with a
// little data (a verified domain checked against a loopback DNS server, a few sends, an SMTP
// login, a pending domain, the starter templates) and drives Debian's Chromium through the
// screens as the browser tests do. The Sandbox mailbox is shot on a second server, started in
// sandbox mode as `npm start` starts it, after a test message sent from the sandbox domain's screen.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createResolver } from '../src/domains/create-resolver.js';
import { recordNotice } from '../src/notices/record-notice.js';
import { EXAMPLE_TEMPLATES } from '../src/templates/examples/index.js';
import { startApiHarness } from '../test/helpers/api-harness.js';
import { startDnsServer } from '../test/helpers/dns-server.js';
import { launchBrowser, openPage, signInWithToken } from '../test/helpers/browser.js';
import { startServer } from '../test/helpers/spawn-server.js';

const OUT = 'docs/screenshots';
mkdirSync(OUT, { recursive: true });

const dns = await startDnsServer({});
const api = await startApiHarness('sqlite', { resolver: createResolver([dns.address], { timeoutMs: 2000, tries: 1 }) });
dns.zone[api.deps.config.spfIncludeHost] = { TXT: [['v=spf1 ip4:192.0.2.0/24 -all']] };
const admin = await api.token('acme', 'admin', 'dashboard');
const client = api.client(admin);
const domain = 'mail.example.com';
const path = { params: { path: { domain } } };
const added = await client.POST('/v1/domains', { body: { name: domain } });
for (const r of added.data!.records) dns.zone[r.name] = r.type === 'TXT' ? { TXT: [[r.value]] } : { CNAME: [r.value] };
await client.POST('/v1/domains/{domain}/verify', path);
await client.POST('/v1/domains', { body: { name: 'news.example.org' } });
const key = (await client.POST('/v1/domains/{domain}/api-key', path)).data!.key;
await client.POST('/v1/domains/{domain}/smtp-credentials', path);
for (const [to, subject] of [
  ['ada@example.org', 'Your receipt'],
  ['grace@example.net', 'Reset your password'],
  ['linus@example.com', 'Welcome aboard'],
]) {
  await api.fetch('/v1/send', {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ from: `Acme <hello@${domain}>`, to, subject, text: 'Hello', tags: ['transactional'] }),
  });
}
const verified = (await client.GET('/v1/domains/{domain}', path)).data!;
const domainRow = await api.deps.db
  .selectFrom('domains')
  .select(['account_id', 'id'])
  .where('name', '=', domain)
  .executeTakeFirstOrThrow();
await recordNotice(api.deps.db, api.deps.ids, api.deps.clock.now(), {
  accountId: domainRow.account_id,
  domainId: domainRow.id,
  kind: 'domain.complaint_rate',
  message: `${verified.name}: complaint rate 0.09% over 30 days is near the 0.1% limit`,
  details: { complaints: 9, delivered: 10000 },
});
// The starter templates, and a second version of welcome for the Versions table.
for (const t of EXAMPLE_TEMPLATES) {
  await client.POST('/v1/templates', { body: { name: t.name, subject: t.subject, html: t.html, text: t.text } });
}
const welcome = EXAMPLE_TEMPLATES.find((t) => t.name === 'welcome')!;
await client.PUT('/v1/templates/{name}', {
  params: { path: { name: 'welcome' } },
  body: { subject: `Welcome aboard, {{user.first_name}}`, html: welcome.html, text: welcome.text },
});
const firstMessage = (await client.GET('/v1/events', { params: { query: { domain } } })).data!.events[0]!.message_id;
// A few suppressions: two as Posthorn adds them (imported here with their domain and message), two by hand.
await api.fetch('/v1/suppressions/import', {
  method: 'POST',
  headers: { authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
  body: `address,reason,domain,message_id\nnobody@example.org,hard_bounce,${domain},${firstMessage}\nangry@example.net,complaint,${domain},${firstMessage}\n`,
});
await client.POST('/v1/suppressions', { body: { address: 'former-customer@example.com' } });
await client.POST('/v1/suppressions', { body: { address: 'done@example.org', reason: 'unsubscribed' } });

const browser = await launchBrowser();
const { context, page } = await openPage(browser, api.url);
try {
  const shot = async (name: string): Promise<void> => {
    await page.waitForFunction(() => {
      const doc = (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document;
      return (
        doc.querySelector('[role="status"]') === null ||
        !String((doc.querySelector('[role="status"]') as { textContent: string }).textContent).startsWith('Loading')
      );
    });
    await page.screenshot({ path: `${OUT}/${name}.png`, fullPage: true });
    console.log(`${OUT}/${name}.png`);
  };
  await page.goto('/login');
  await page.getByRole('button', { name: 'Use account token' }).waitFor();
  await shot('sign-in');
  await signInWithToken(page, admin);
  const screens: [string, string, string][] = [
    ['transactional', '/transactional', 'Transactional'],
    ['domain', `/transactional/${domain}`, domain],
    ['events', `/events?domain=${domain}`, 'Events'],
    ['message', `/events/${firstMessage}`, 'Message'],
    ['suppressions', '/suppressions', 'Suppressions'],
    ['usage', '/usage', 'Usage'],
    ['notices', '/notices', 'Notices'],
    ['audit-log', '/audit', 'Audit log'],
    ['templates', '/templates', 'Templates'],
  ];
  for (const [name, url, heading] of screens) {
    await page.goto(url);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await shot(name);
  }
  // A template: the editor, the preview rendered in its frame, the versions.
  await page.goto('/templates/welcome');
  await page.frameLocator('iframe[title="HTML preview"]').getByRole('link', { name: 'Get started' }).waitFor();
  await page.waitForFunction(
    () =>
      (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document.querySelector(
        '.code-field [role="status"]',
      ) === null,
  );
  // CodeMirror measures an editor's lines once it is in view, on the next animation frames.
  await page.getByRole('textbox', { name: 'Sample variables (JSON)' }).scrollIntoViewIfNeeded();
  await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))');
  await shot('template');
  // The API keys section right after Replace API key: the new key, shown once, with its copy button.
  await page.goto(`/transactional/${domain}`);
  const keys = page.getByRole('region', { name: 'API keys' });
  await keys.getByRole('button', { name: 'Replace API key' }).click();
  await keys.locator('input[data-secret]').waitFor();
  await keys.screenshot({ path: `${OUT}/api-key-shown-once.png` });
  console.log(`${OUT}/api-key-shown-once.png`);
  // Settings as a signed-in user (email and password): users, account tokens, two-factor enrolment.
  await client.POST('/v1/users', { body: { email: 'grace@example.net', role: 'viewer' } });
  await client.POST('/v1/tokens', { body: { name: 'grafana', role: 'viewer' } });
  const person = (await client.POST('/v1/users', { body: { email: 'ada@example.org' } })).data!;
  await page.evaluate('sessionStorage.clear()');
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password!);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('navigation', { name: 'Main', exact: true }).waitFor();
  await page.goto('/settings');
  await page.getByRole('cell', { name: 'grace@example.net', exact: true }).waitFor();
  await shot('settings');
  const twoFactor = page.getByRole('region', { name: 'Two-factor sign-in' });
  await twoFactor.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await twoFactor.getByRole('img').waitFor();
  await twoFactor.screenshot({ path: `${OUT}/settings-two-factor.png` });
  console.log(`${OUT}/settings-two-factor.png`);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/transactional/${domain}`);
  await page.getByRole('heading', { level: 1, name: domain }).waitFor();
  await page.screenshot({ path: `${OUT}/domain-390px.png` });
  console.log(`${OUT}/domain-390px.png`);
  await sandboxScreens();
} finally {
  await context.close();
  await browser.close();
  await api.close();
  await dns.close();
}

/** The sandbox: its domain's Send a test message form, the Sandbox mailbox, and a kept message rendered. */
async function sandboxScreens(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'posthorn-screenshots-'));
  const server = await startServer({ POSTHORN_SANDBOX: '1', POSTHORN_DATA_DIR: dataDir });
  const sandbox = await openPage(browser, server.url);
  try {
    const deadline = Date.now() + 15_000;
    while (!/Password:\s+\S+/.test(server.stdout()) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const password = /Password:\s+(\S+)/.exec(server.stdout())![1]!;
    const p = sandbox.page;
    await p.goto('/login');
    await p.getByLabel('Email', { exact: true }).fill('demo@sandbox.posthorn.test');
    await p.getByLabel('Password', { exact: true }).fill(password);
    await p.getByRole('button', { name: 'Sign in', exact: true }).click();
    await p.getByRole('navigation', { name: 'Main', exact: true }).waitFor();
    await p.goto('/transactional/sandbox.posthorn.test');
    const form = p.getByRole('region', { name: 'Send a test message' });
    for (const [to, subject] of [
      ['you@example.com', 'Your receipt'],
      ['open@example.com', 'Welcome to Posthorn'],
    ] as const) {
      await form.getByLabel('To').fill(to);
      await form.getByLabel('Subject').fill(subject);
      await form.getByRole('button', { name: 'Send test message' }).click();
      await form.getByRole('status').filter({ hasText: to }).waitFor();
    }
    await form.screenshot({ path: `${OUT}/sandbox-test-send.png` });
    console.log(`${OUT}/sandbox-test-send.png`);
    await p.goto('/sandbox');
    await p.getByRole('link', { name: 'Welcome to Posthorn' }).waitFor({ timeout: 20_000 });
    await p.getByRole('link', { name: 'Your receipt' }).waitFor({ timeout: 20_000 });
    await p.screenshot({ path: `${OUT}/sandbox-mailbox.png`, fullPage: true });
    console.log(`${OUT}/sandbox-mailbox.png`);
    await p.getByRole('link', { name: 'Welcome to Posthorn' }).click();
    await p.frameLocator('iframe.email-frame').getByRole('heading', { name: 'Welcome to Posthorn' }).waitFor();
    await p.screenshot({ path: `${OUT}/sandbox-message.png`, fullPage: true });
    console.log(`${OUT}/sandbox-message.png`);
  } finally {
    await sandbox.context.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
