import { ConfigError, loadConfig } from '../config/load.js';
import { RefusedError } from '../core/refused-error.js';
import { explainFailure } from '../config/explain-failure.js';
import type { Config } from '../config/schema.js';
import { unknownVariableWarnings } from '../config/unknown-variables.js';
import { VERSION } from '../core/version.js';
import { CommandError } from './command-error.js';
import type { Command, CliOptions } from './command.js';
import { parseArgv, UsageError } from './parse-argv.js';
import { refusalLine } from './refusal.js';

/**
 * One command's words and how to load it. Each command's module (and the storage, HTTP and
 * delivery code behind it) is imported only when that command runs, so `posthorn --version`,
 * `--help` and a usage error load almost nothing and a command loads only what it uses
 * (`npm run bench:cli` in the README measures it).
 */
export interface CommandEntry {
  words: string;
  load: () => Promise<Command>;
}

export const COMMANDS: CommandEntry[] = [
  { words: 'serve', load: async () => (await import('./serve-command.js')).serveCommand },
  { words: 'account create', load: async () => (await import('./account-commands.js')).accountCreate },
  { words: 'account set', load: async () => (await import('./account-commands.js')).accountSet },
  { words: 'domain add', load: async () => (await import('./domain-commands.js')).domainAdd },
  { words: 'domain verify', load: async () => (await import('./domain-commands.js')).domainVerify },
  { words: 'domain show', load: async () => (await import('./domain-commands.js')).domainShow },
  { words: 'domain set', load: async () => (await import('./domain-commands.js')).domainSet },
  { words: 'domain delete', load: async () => (await import('./domain-commands.js')).domainDelete },
  { words: 'domain rotate-dkim', load: async () => (await import('./domain-commands.js')).domainRotateDkim },
  { words: 'key create', load: async () => (await import('./key-commands.js')).keyCreate },
  { words: 'key revoke', load: async () => (await import('./key-commands.js')).keyRevoke },
  { words: 'token create', load: async () => (await import('./token-commands.js')).tokenCreate },
  { words: 'token list', load: async () => (await import('./token-commands.js')).tokenList },
  { words: 'token revoke', load: async () => (await import('./token-commands.js')).tokenRevoke },
  { words: 'user create', load: async () => (await import('./user-commands.js')).userCreate },
  { words: 'user list', load: async () => (await import('./user-commands.js')).userList },
  { words: 'user remove', load: async () => (await import('./user-commands.js')).userRemove },
  {
    words: 'smtp-credential create',
    load: async () => (await import('./smtp-credential-commands.js')).smtpCredentialCreate,
  },
  {
    words: 'smtp-credential revoke',
    load: async () => (await import('./smtp-credential-commands.js')).smtpCredentialRevoke,
  },
  {
    words: 'smtp-credential list',
    load: async () => (await import('./smtp-credential-commands.js')).smtpCredentialList,
  },
  { words: 'suppression add', load: async () => (await import('./suppression-commands.js')).suppressionAdd },
  { words: 'suppression remove', load: async () => (await import('./suppression-commands.js')).suppressionRemove },
  { words: 'suppression list', load: async () => (await import('./suppression-commands.js')).suppressionList },
  { words: 'template create', load: async () => (await import('./template-commands.js')).templateCreate },
  { words: 'template update', load: async () => (await import('./template-commands.js')).templateUpdate },
  { words: 'template show', load: async () => (await import('./template-commands.js')).templateShow },
  { words: 'template list', load: async () => (await import('./template-commands.js')).templateList },
  { words: 'template delete', load: async () => (await import('./template-commands.js')).templateDelete },
  {
    words: 'template install-examples',
    load: async () => (await import('./template-commands.js')).templateInstallExamples,
  },
  { words: 'message show', load: async () => (await import('./message-commands.js')).messageShow },
  { words: 'suppression import', load: async () => (await import('./suppression-commands.js')).suppressionImport },
  { words: 'suppression export', load: async () => (await import('./suppression-commands.js')).suppressionExport },
  { words: 'notice list', load: async () => (await import('./notice-commands.js')).noticeList },
  { words: 'provider list', load: async () => (await import('./provider-commands.js')).providerList },
  { words: 'provider show', load: async () => (await import('./provider-commands.js')).providerShow },
  { words: 'sandbox list', load: async () => (await import('./sandbox-commands.js')).sandboxList },
  { words: 'sandbox show', load: async () => (await import('./sandbox-commands.js')).sandboxShow },
  { words: 'bounce parse', load: async () => (await import('./bounce-commands.js')).bounceParse },
  { words: 'inbound list', load: async () => (await import('./inbound-commands.js')).inboundList },
  { words: 'inbound show', load: async () => (await import('./inbound-commands.js')).inboundShow },
  { words: 'webhook set', load: async () => (await import('./webhook-commands.js')).webhookSet },
  { words: 'webhook rotate', load: async () => (await import('./webhook-commands.js')).webhookRotate },
  { words: 'webhook show', load: async () => (await import('./webhook-commands.js')).webhookShow },
  { words: 'webhook remove', load: async () => (await import('./webhook-commands.js')).webhookRemove },
  { words: 'webhook test', load: async () => (await import('./webhook-commands.js')).webhookTest },
  { words: 'webhook replay', load: async () => (await import('./webhook-commands.js')).webhookReplay },
  { words: 'secrets status', load: async () => (await import('./secrets-commands.js')).secretsStatusCommand },
  { words: 'secrets rotate', load: async () => (await import('./secrets-commands.js')).secretsRotateCommand },
  { words: 'queue list', load: async () => (await import('./queue-commands.js')).queueList },
  { words: 'queue show', load: async () => (await import('./queue-commands.js')).queueShow },
  { words: 'queue retry', load: async () => (await import('./queue-commands.js')).queueRetry },
  { words: 'queue cancel', load: async () => (await import('./queue-commands.js')).queueCancel },
  { words: 'queue suspend', load: async () => (await import('./queue-commands.js')).queueSuspend },
  { words: 'queue resume', load: async () => (await import('./queue-commands.js')).queueResume },
  { words: 'queue holds', load: async () => (await import('./queue-commands.js')).queueHolds },
  { words: 'doctor', load: async () => (await import('./doctor-command.js')).doctorCommand },
];

/** Planned commands, not built yet: named so `posthorn` says so instead of "unknown command". */
const NOT_BUILT_YET: string[] = [];

/** Options every command takes. */
const GLOBAL_OPTIONS: (keyof CliOptions)[] = ['json', 'help'];

/**
 * Runs one `posthorn` command and returns its exit status: 0 success, 1 refused or failed, 2 bad
 * usage. A refusal is one line on stderr; with `--json`, stdout carries exactly
 * one JSON document (the result, or `{"error"}`) and logs stay on stderr.
 */
export async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  let config: Readonly<Config> | undefined;
  try {
    // Before parsing: `template show --version N` gives --version a value, `posthorn --version` does not.
    if (argv.includes('--version') && argv.every((a) => a === '--version' || a === '--json')) {
      process.stdout.write(json ? `${JSON.stringify({ version: VERSION })}\n` : `posthorn ${VERSION}\n`);
      return 0;
    }
    const { positionals, options, given } = parseArgv(argv);
    if (options.help || positionals.length === 0) {
      const { USAGE, commandUsage } = await import('./usage.js');
      const text = positionals.length === 0 ? USAGE : commandUsage(helpWords(positionals));
      if (text === undefined) throw new CommandError(`no help for "${positionals.join(' ')}"`);
      process.stdout.write(json ? `${JSON.stringify({ usage: text })}\n` : `${text}\n`);
      return 0;
    }
    const { entry, args } = findCommand(positionals);
    const command = await entry.load();
    const refused = given.find((o) => !GLOBAL_OPTIONS.includes(o) && !command.options.includes(o));
    if (refused !== undefined) throw new UsageError(`${command.words} does not take --${refused}`);
    checkArgs(command, args);
    // After parsing, so --help and usage errors work whatever the environment holds.
    config = loadConfig(process.env);
    for (const warning of unknownVariableWarnings(process.env)) process.stderr.write(`posthorn: warning: ${warning}\n`);
    const out = await command.run({ config, args, options }, { json });
    if (typeof out === 'number') return out;
    process.stdout.write(json ? `${JSON.stringify(out.json, null, 2)}\n` : `${out.text}\n`);
    if (out.failure === undefined) return 0;
    process.stderr.write(`posthorn: ${oneLine(out.failure)}\n`);
    return 1;
  } catch (err) {
    return refuse(err, json, config);
  }
}

/** The command (`domain add`) or group (`domain`) that `posthorn WORDS --help` asks about. */
function helpWords(positionals: string[]): string {
  try {
    return findCommand(positionals).entry.words;
  } catch (err) {
    if (!COMMANDS.some((c) => c.words.startsWith(`${positionals[0]} `))) throw err;
    return positionals[0]!;
  }
}

function findCommand(positionals: string[]): { entry: CommandEntry; args: string[] } {
  for (const entry of COMMANDS) {
    const words = entry.words.split(' ');
    if (words.every((w, i) => positionals[i] === w)) return { entry, args: positionals.slice(words.length) };
  }
  const two = positionals.slice(0, 2).join(' ');
  if (NOT_BUILT_YET.includes(two)) throw new CommandError(`"posthorn ${two}" is not built yet in this release`);
  const group = COMMANDS.filter((c) => c.words.startsWith(`${positionals[0]} `)).map((c) => c.words.split(' ')[1]);
  if (group.length > 0) {
    throw new UsageError(`unknown command "${two}"; ${positionals[0]} commands are ${group.join(', ')}`);
  }
  throw new UsageError(`unknown command "${positionals[0]}"`);
}

function checkArgs(command: Command, args: string[]): void {
  if (args.length < command.args.length) {
    const missing = command.args.slice(args.length).join(' ');
    throw new UsageError(`${command.words} needs ${missing}`);
  }
  const most = command.args.length + (command.optionalArgs?.length ?? 0);
  if (args.length > most) throw new UsageError(`unexpected argument "${args[most]}" for ${command.words}`);
}

function refuse(err: unknown, json: boolean, config: Readonly<Config> | undefined): number {
  // A start-up failure (database, port, certificate) named with its setting and the fix.
  const explained = config === undefined ? undefined : explainFailure(err, config);
  const expected =
    explained !== undefined ||
    err instanceof UsageError ||
    err instanceof RefusedError ||
    err instanceof CommandError ||
    err instanceof ConfigError;
  const reason = oneLine(
    err instanceof UsageError
      ? `${err.message}; see posthorn --help`
      : explained !== undefined
        ? explained
        : err instanceof RefusedError
          ? refusalLine(err)
          : expected
            ? (err as Error).message
            : `unexpected error: ${describe(err)}`,
  );
  if (json) process.stdout.write(`${JSON.stringify({ error: reason })}\n`);
  process.stderr.write(`posthorn: ${reason}\n`);
  // The stack is for whoever debugs, and only when they ask for it.
  if (!expected && ['debug', 'trace'].includes(process.env.POSTHORN_LOG_LEVEL ?? '') && err instanceof Error)
    process.stderr.write(`${err.stack}\n`);
  return err instanceof UsageError ? 2 : 1;
}

/** A message for any thrown value; AggregateError (e.g. a refused connection to every address) has an empty one. */
function describe(err: unknown): string {
  if (err instanceof AggregateError && err.message === '') return err.errors.map(describe).join('; ');
  if (err instanceof Error) return err.message || (err as Error & { code?: string }).code || err.name;
  return String(err);
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
