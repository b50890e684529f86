import { CommandError } from './command-error.js';
import { CLI_ACTOR } from '../core/actor.js';
import { findAccount } from '../accounts/accounts.js';
import { createUser, listUsers, removeUser } from '../users/users.js';
import { withDeps, type Command } from './command.js';

/**
 * The password piped on stdin (its first line), or undefined when stdin is a terminal or carries
 * nothing: then a password is generated. Never prompted for, so the command scripts cleanly.
 */
async function passwordFromStdin(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const line = Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
  return line === '' ? undefined : line;
}

/** `user create EMAIL --account NAME [--role admin|viewer]`: a generated password is printed once. */
export const userCreate: Command = {
  words: 'user create',
  args: ['EMAIL'],
  options: ['account', 'role'],
  run: async ({ config, args, options }) => {
    if (options.account === undefined) throw new CommandError('user create needs --account NAME');
    const account = options.account;
    const password = await passwordFromStdin();
    return withDeps(config, async (deps) => {
      const made = await createUser(deps, account, {
        email: args[0]!,
        ...(options.role !== undefined ? { role: options.role } : {}),
        ...(password !== undefined ? { password } : {}),
        actor: CLI_ACTOR,
      });
      return {
        json: made,
        text: [
          `user ${made.email} (${made.role}) added to account ${made.account}`,
          ...(made.password !== undefined
            ? [
                '',
                `  password: ${made.password}`,
                '',
                'It is shown only this once; hand it over now. Sign in at /login.',
              ]
            : ['with the password given on stdin. Sign in at /login.']),
        ].join('\n'),
      };
    });
  },
};

/** `user list --account NAME`: the account's dashboard users. */
export const userList: Command = {
  words: 'user list',
  args: [],
  options: ['account'],
  run: ({ config, options }) => {
    if (options.account === undefined) throw new CommandError('user list needs --account NAME');
    const name = options.account;
    return withDeps(config, async (deps) => {
      const account = await findAccount(deps, name);
      const users = await listUsers(deps, account.id);
      const text =
        users.length === 0
          ? `no users in account ${name}`
          : users
              .map(
                (u) =>
                  `${u.email}  ${u.role.padEnd(6)}  ${u.totp_enabled ? 'totp' : 'no-totp'}  created ${u.created_at}  last sign-in ${u.last_sign_in_at ?? 'never'}`,
              )
              .join('\n');
      return { json: { users }, text };
    });
  },
};

/** `user remove EMAIL`: the user goes, and every session of theirs ends at once. */
export const userRemove: Command = {
  words: 'user remove',
  args: ['EMAIL'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const gone = await removeUser(deps, args[0]!, { actor: CLI_ACTOR });
      return {
        json: gone,
        text: `removed user ${gone.email}; ${gone.sessions_ended} session${gone.sessions_ended === 1 ? '' : 's'} ended`,
      };
    }),
};
