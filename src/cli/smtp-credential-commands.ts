import { CLI_ACTOR } from '../core/actor.js';
import { createSmtpCredential, listSmtpCredentials, revokeSmtpCredential } from '../credentials/smtp-credentials.js';
import { withDeps, type Command } from './command.js';

/** `smtp-credential create DOMAIN`: a new relay login; the domain's API key and other logins are untouched. */
export const smtpCredentialCreate: Command = {
  words: 'smtp-credential create',
  args: ['DOMAIN'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const { domain, username, password } = await createSmtpCredential(deps, args[0] as string, { actor: CLI_ACTOR });
      return {
        json: { domain, username, password },
        text:
          `SMTP relay login for ${domain} (the password is shown only once and cannot be read back):\n` +
          `username: ${username}\npassword: ${password}`,
      };
    }),
};

/** `smtp-credential revoke USERNAME`: that login stops working at once; nothing else changes. */
export const smtpCredentialRevoke: Command = {
  words: 'smtp-credential revoke',
  args: ['USERNAME'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const out = await revokeSmtpCredential(deps, args[0] as string, { actor: CLI_ACTOR });
      return { json: out, text: `revoked SMTP credential ${out.username}` };
    }),
};

/** `smtp-credential list DOMAIN`: usernames and dates, never passwords or hashes. */
export const smtpCredentialList: Command = {
  words: 'smtp-credential list',
  args: ['DOMAIN'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const all = await listSmtpCredentials(deps, args[0] as string);
      const out = {
        domain: all.domain,
        credentials: all.credentials.map(({ username, created_at, revoked_at }) => ({
          username,
          created_at,
          revoked_at,
        })),
      };
      const text =
        out.credentials.length === 0
          ? `no SMTP credentials for ${out.domain}; make one with: posthorn smtp-credential create ${out.domain}`
          : out.credentials
              .map(
                (c) =>
                  `${c.username}  created ${c.created_at}${c.revoked_at ? `  revoked ${c.revoked_at}` : '  active'}`,
              )
              .join('\n');
      return { json: out, text };
    }),
};
