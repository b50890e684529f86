import { parseArgs } from 'node:util';
import type { CliOptions } from './command.js';

/** Bad usage: an unknown command or option, a missing or extra argument. Exit status 2. */
export class UsageError extends Error {}

// The union of every command's options; each command then says which of them it accepts.
const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  roles: { type: 'string' },
  processes: { type: 'string' },
  account: { type: 'string' },
  name: { type: 'string' },
  role: { type: 'string' },
  domain: { type: 'string' },
  reason: { type: 'string' },
  'rate-limit': { type: 'string' },
  'monthly-quota': { type: 'string' },
  ed25519: { type: 'string' },
  'track-opens': { type: 'string' },
  'track-clicks': { type: 'string' },
  unsubscribe: { type: 'string' },
  'dkim-rotate-days': { type: 'string' },
  unmatched: { type: 'boolean' },
  subject: { type: 'string' },
  html: { type: 'string' },
  text: { type: 'string' },
  version: { type: 'string' },
  start: { type: 'string' },
  end: { type: 'string' },
  event: { type: 'string' },
  format: { type: 'string' },
  probe: { type: 'string' },
  provider: { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  until: { type: 'string' },
} as const;

/** argv split into positional words and options; a UsageError for an unknown or malformed option. */
export function parseArgv(argv: string[]): { positionals: string[]; options: CliOptions; given: (keyof CliOptions)[] } {
  try {
    const { values, positionals, tokens } = parseArgs({
      args: argv,
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
    const given = [...new Set(tokens.flatMap((t) => (t.kind === 'option' ? [t.name as keyof CliOptions] : [])))];
    return { positionals, options: values, given };
  } catch (err) {
    const e = err as Error & { code?: string };
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const option = /'([^']+)'/.exec(e.message)?.[1] ?? 'option';
      throw new UsageError(`unknown option ${option}`);
    }
    if (e.code?.startsWith('ERR_PARSE_ARGS_')) throw new UsageError(e.message.split('\n')[0] ?? e.message);
    throw err;
  }
}
