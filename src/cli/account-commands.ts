import { createAccount, updateAccountLimits } from '../accounts/accounts.js';
import { CommandError } from './command-error.js';
import type { AccountTable } from '../storage/database.js';
import { iso, withDeps, type Command } from './command.js';

function accountJson(a: AccountTable) {
  return {
    id: a.id,
    name: a.name,
    rate_limit: a.rate_limit,
    monthly_quota: a.monthly_quota === null ? null : Number(a.monthly_quota),
    created_at: iso(a.created_at),
  };
}

function accountText(a: AccountTable): string {
  const quota = a.monthly_quota === null ? 'unlimited' : `${Number(a.monthly_quota)} recipients`;
  return `account ${a.name} (${a.id}): rate limit ${a.rate_limit} messages/s per sending domain, monthly quota ${quota}`;
}

function wholeNumber(option: string, text: string, min: number, max: number): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < min || Number(text) > max) {
    throw new CommandError(`${option}: expected a whole number from ${min} to ${max}, got "${text}"`);
  }
  return Number(text);
}

/** `account create NAME`. */
export const accountCreate: Command = {
  words: 'account create',
  args: ['NAME'],
  options: [],
  run: ({ config, args }) =>
    withDeps(config, async (deps) => {
      const account = await createAccount(deps, args[0]);
      return { json: accountJson(account), text: `created ${accountText(account)}` };
    }),
};

/** `account set NAME [--rate-limit N] [--monthly-quota N|none]`: the per-account send rate and monthly quota (docs/api.md, Rate limits and quota). */
export const accountSet: Command = {
  words: 'account set',
  args: ['NAME'],
  options: ['rate-limit', 'monthly-quota'],
  run: ({ config, args, options }) => {
    const limits: { rateLimit?: number; monthlyQuota?: number | null } = {};
    if (options['rate-limit'] !== undefined)
      limits.rateLimit = wholeNumber('--rate-limit', options['rate-limit'], 1, 100_000);
    const quota = options['monthly-quota'];
    if (quota !== undefined) {
      limits.monthlyQuota =
        quota.trim().toLowerCase() === 'none'
          ? null
          : wholeNumber('--monthly-quota', quota, 0, Number.MAX_SAFE_INTEGER);
    }
    if (Object.keys(limits).length === 0)
      throw new CommandError('nothing to set: give --rate-limit N and/or --monthly-quota N|none');
    return withDeps(config, async (deps) => {
      const account = await updateAccountLimits(deps, args[0], limits);
      return { json: accountJson(account), text: accountText(account) };
    });
  },
};
