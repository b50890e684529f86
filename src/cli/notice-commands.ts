import { CommandError } from './command-error.js';
import { listNotices } from '../notices/list-notices.js';
import { withDeps, type Command } from './command.js';

/** `notice list --account NAME [--domain DOMAIN]`: the account's newest notices. */
export const noticeList: Command = {
  words: 'notice list',
  args: [],
  options: ['account', 'domain'],
  run: ({ config, options }) => {
    if (options.account === undefined) throw new CommandError('notice list needs --account NAME');
    const account = options.account;
    return withDeps(config, async (deps) => {
      const notices = await listNotices(deps, account, options.domain);
      const text =
        notices.length === 0
          ? `no notices for account ${account}${options.domain ? ` and domain ${options.domain}` : ''}`
          : notices.map((n) => `${n.created_at}  ${n.kind.padEnd(22)}  ${n.domain ?? '-'}  ${n.message}`).join('\n');
      return { json: { notices }, text };
    });
  },
};
