import type { SandboxWelcome } from '../sandbox/bootstrap-sandbox.js';
import { SANDBOX_BEHAVIOURS } from '../sandbox/sandbox-transport.js';
import { SANDBOX_TRIGGERS } from '../sandbox/sandbox-triggers.js';

/** Quotes a word for a POSIX shell. */
function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A POST /v1/send the newcomer can paste as is (docs/api.md, `POST /v1/send`). */
export function sandboxCurl(w: SandboxWelcome): string {
  const body = JSON.stringify({
    from: `Posthorn Sandbox <${w.from}>`,
    to: 'you@example.com',
    subject: 'Hello from Posthorn',
    text: 'It works.',
  });
  return [
    `curl${w.caCertPath ? ` --cacert ${shellQuote(w.caCertPath)}` : ''} ${shellQuote(`${w.apiBaseUrl}/send`)}`,
    `  -H ${shellQuote(`Authorization: Bearer ${w.key}`)}`,
    `  -H 'Content-Type: application/json'`,
    `  -d ${shellQuote(body)}`,
  ].join(' \\\n');
}

/** The block printed once on the sandbox's first start (README, Quick start). */
export function sandboxBanner(w: SandboxWelcome): string {
  return [
    '',
    'Posthorn sandbox is ready. This is shown only once: keep the password, API key and SMTP password.',
    '',
    `  Dashboard:     ${dashboardUrl(w)}`,
    `  Login:         ${w.login.email}`,
    `  Password:      ${w.login.password}`,
    `  API base URL:  ${w.apiBaseUrl}`,
    `  API key:       ${w.key}`,
    `  From address:  ${w.from} (any address @${w.domain}; account ${w.account})`,
    ...(w.caCertPath ? [`  Certificate:   ${w.caCertPath} (self-signed: trust it with curl --cacert)`] : []),
    ...(w.smtp
      ? [
          `  SMTP relay:    localhost port ${w.smtp.submission} (STARTTLS)${w.smtp.smtps ? `, port ${w.smtp.smtps} (TLS)` : ''}`,
          `  SMTP login:    ${w.smtpCredential.username}`,
          `  SMTP password: ${w.smtpCredential.password}`,
        ]
      : []),
    '',
    'Send a message:',
    '',
    sandboxCurl(w),
    '',
    "Sandbox mail never leaves this machine; read it in the dashboard's Sandbox mailbox or with: posthorn sandbox list",
    `Special recipients (any domain) play out each outcome: ${[...SANDBOX_BEHAVIOURS, ...SANDBOX_TRIGGERS].map((b) => `${b.prefix}@`).join(' ')}`,
    'Watch the events arrive: posthorn webhook set ' + w.domain + ' http://127.0.0.1:9000/hook',
    'A new key: posthorn key create ' + w.domain,
    '',
  ].join('\n');
}

/** The dashboard's address: the API's origin, at `/`. */
export function dashboardUrl(w: SandboxWelcome): string {
  return new URL('/', w.apiBaseUrl).toString();
}

/** The same, as the one JSON document of `serve --json`. */
export function sandboxJson(w: SandboxWelcome) {
  return {
    sandbox: {
      dashboard_url: dashboardUrl(w),
      login: { email: w.login.email, password: w.login.password },
      api_base_url: w.apiBaseUrl,
      key: w.key,
      from: w.from,
      domain: w.domain,
      account: w.account,
      ca_cert: w.caCertPath,
      curl: sandboxCurl(w),
      smtp: { ports: w.smtp, username: w.smtpCredential.username, password: w.smtpCredential.password },
    },
  };
}
