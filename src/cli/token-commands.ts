import { CommandError } from './command-error.js';
import { CLI_ACTOR } from '../core/actor.js';
import { createAccountToken, listAccountTokens, revokeAccountToken } from '../credentials/account-tokens.js';
import { withDeps, type CliOptions, type Command } from './command.js';

function needAccount(words: string, options: CliOptions): string {
  if (options.account === undefined) throw new CommandError(`${words} needs --account NAME`);
  return options.account;
}

/** `token create --account NAME [--name LABEL] [--role admin|viewer]`: the token is printed once. */
export const tokenCreate: Command = {
  words: 'token create',
  args: [],
  options: ['account', 'name', 'role'],
  run: ({ config, options }) => {
    const account = needAccount('token create', options);
    return withDeps(config, async (deps) => {
      const made = await createAccountToken(deps, account, {
        ...(options.name !== undefined ? { name: options.name } : {}),
        ...(options.role !== undefined ? { role: options.role } : {}),
        actor: CLI_ACTOR,
      });
      return {
        json: made,
        text: [
          `account token "${made.name}" (${made.role}) for account ${account}:`,
          '',
          `  ${made.token}`,
          '',
          'It is shown only this once; store it now. Use it as "Authorization: Bearer <token>" on /v1 management routes.',
        ].join('\n'),
      };
    });
  },
};

/** `token list --account NAME`: live tokens, oldest first, never the token itself. */
export const tokenList: Command = {
  words: 'token list',
  args: [],
  options: ['account'],
  run: ({ config, options }) => {
    const account = needAccount('token list', options);
    return withDeps(config, async (deps) => {
      const tokens = await listAccountTokens(deps, account);
      const text =
        tokens.length === 0
          ? `no live account tokens for account ${account}`
          : tokens
              .map(
                (t) =>
                  `${t.prefix}  ${t.role.padEnd(6)}  ${t.name}  created ${t.created_at}  last used ${t.last_used_at ?? 'never'}`,
              )
              .join('\n');
      return { json: { tokens }, text };
    });
  },
};

/** `token revoke LABEL|PREFIX --account NAME`. */
export const tokenRevoke: Command = {
  words: 'token revoke',
  args: ['LABEL'],
  options: ['account'],
  run: ({ config, args, options }) => {
    const account = needAccount('token revoke', options);
    return withDeps(config, async (deps) => {
      const t = await revokeAccountToken(deps, account, args[0]!, CLI_ACTOR);
      return { json: t, text: `revoked account token "${t.name}" (${t.prefix}) of account ${account}` };
    });
  },
};
