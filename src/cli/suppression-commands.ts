import { CommandError } from './command-error.js';
import { addSuppression, listSuppressions, removeSuppression } from '../suppression/manage-suppressions.js';
import { withDeps, type CliOptions, type Command } from './command.js';

function needAccount(words: string, options: CliOptions): string {
  if (options.account === undefined) throw new CommandError(`${words} needs --account NAME`);
  return options.account;
}

/** `suppression add ADDRESS --account NAME [--reason manual]`. */
export const suppressionAdd: Command = {
  words: 'suppression add',
  args: ['ADDRESS'],
  options: ['account', 'reason'],
  run: ({ config, args, options }) => {
    const account = needAccount('suppression add', options);
    return withDeps(config, async (deps) => {
      const entry = await addSuppression(deps, account, args[0], options.reason ?? 'manual');
      return {
        json: entry,
        text: `${entry.address} is suppressed for account ${account} (reason ${entry.reason}, since ${entry.created_at})`,
      };
    });
  },
};

/** `suppression remove ADDRESS --account NAME`. */
export const suppressionRemove: Command = {
  words: 'suppression remove',
  args: ['ADDRESS'],
  options: ['account'],
  run: ({ config, args, options }) => {
    const account = needAccount('suppression remove', options);
    return withDeps(config, async (deps) => {
      const out = await removeSuppression(deps, account, args[0]);
      return { json: out, text: `removed ${out.address} from the suppression list of account ${account}` };
    });
  },
};

/** `suppression list --account NAME`, newest first. */
export const suppressionList: Command = {
  words: 'suppression list',
  args: [],
  options: ['account'],
  run: ({ config, options }) => {
    const account = needAccount('suppression list', options);
    return withDeps(config, async (deps) => {
      const list = await listSuppressions(deps, account);
      const text =
        list.length === 0
          ? `no suppressed addresses for account ${account}`
          : list
              .map(
                (e) =>
                  `${e.created_at}  ${e.reason.padEnd(12)}  ${e.address}${e.message_id ? `  (${e.message_id})` : ''}`,
              )
              .join('\n');
      return { json: { suppressions: list }, text };
    });
  },
};
