import { ConfigError, loadConfig } from '../config/load.js';
import { RefusedError } from '../core/refused-error.js';
import { CommandError } from './command-error.js';
import { accountCreate, accountSet } from './account-commands.js';
import { bounceParse } from './bounce-commands.js';
import type { Command, CliOptions } from './command.js';
import { doctorCommand } from './doctor-command.js';
import { domainAdd, domainDelete, domainSet, domainShow, domainVerify } from './domain-commands.js';
import { inboundList, inboundShow } from './inbound-commands.js';
import { keyCreate, keyRevoke } from './key-commands.js';
import { messageShow } from './message-commands.js';
import { tokenCreate, tokenList, tokenRevoke } from './token-commands.js';
import { userCreate, userList, userRemove } from './user-commands.js';
import { noticeList } from './notice-commands.js';
import { parseArgv, UsageError } from './parse-argv.js';
import { refusalLine } from './refusal.js';
import { sandboxList, sandboxShow } from './sandbox-commands.js';
import { secretsRotateCommand, secretsStatusCommand } from './secrets-commands.js';
import { serveCommand } from './serve-command.js';
import { smtpCredentialCreate, smtpCredentialList, smtpCredentialRevoke } from './smtp-credential-commands.js';
import {
  suppressionAdd,
  suppressionExport,
  suppressionImport,
  suppressionList,
  suppressionRemove,
} from './suppression-commands.js';
import {
  templateCreate,
  templateDelete,
  templateInstallExamples,
  templateList,
  templateShow,
  templateUpdate,
} from './template-commands.js';
import { USAGE } from './usage.js';
import {
  webhookRemove,
  webhookReplay,
  webhookRotate,
  webhookSet,
  webhookShow,
  webhookTest,
} from './webhook-commands.js';

const COMMANDS: Command[] = [
  serveCommand,
  accountCreate,
  accountSet,
  domainAdd,
  domainVerify,
  domainShow,
  domainSet,
  domainDelete,
  keyCreate,
  keyRevoke,
  tokenCreate,
  tokenList,
  tokenRevoke,
  userCreate,
  userList,
  userRemove,
  smtpCredentialCreate,
  smtpCredentialRevoke,
  smtpCredentialList,
  suppressionAdd,
  suppressionRemove,
  suppressionList,
  templateCreate,
  templateUpdate,
  templateShow,
  templateList,
  templateDelete,
  templateInstallExamples,
  messageShow,
  suppressionImport,
  suppressionExport,
  noticeList,
  sandboxList,
  sandboxShow,
  bounceParse,
  inboundList,
  inboundShow,
  webhookSet,
  webhookRotate,
  webhookShow,
  webhookRemove,
  webhookTest,
  webhookReplay,
  secretsStatusCommand,
  secretsRotateCommand,
  doctorCommand,
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
  try {
    const { positionals, options, given } = parseArgv(argv);
    if (options.help || positionals.length === 0) {
      process.stdout.write(json ? `${JSON.stringify({ usage: USAGE })}\n` : `${USAGE}\n`);
      return 0;
    }
    const { command, args } = findCommand(positionals);
    const refused = given.find((o) => !GLOBAL_OPTIONS.includes(o) && !command.options.includes(o));
    if (refused !== undefined) throw new UsageError(`${command.words} does not take --${refused}`);
    checkArgs(command, args);
    // After parsing, so --help and usage errors work whatever the environment holds.
    const config = loadConfig(process.env);
    const out = await command.run({ config, args, options }, { json });
    if (typeof out === 'number') return out;
    process.stdout.write(json ? `${JSON.stringify(out.json, null, 2)}\n` : `${out.text}\n`);
    if (out.failure === undefined) return 0;
    process.stderr.write(`posthorn: ${oneLine(out.failure)}\n`);
    return 1;
  } catch (err) {
    return refuse(err, json);
  }
}

function findCommand(positionals: string[]): { command: Command; args: string[] } {
  for (const command of COMMANDS) {
    const words = command.words.split(' ');
    if (words.every((w, i) => positionals[i] === w)) return { command, args: positionals.slice(words.length) };
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
  if (args.length > command.args.length)
    throw new UsageError(`unexpected argument "${args[command.args.length]}" for ${command.words}`);
}

function refuse(err: unknown, json: boolean): number {
  const expected =
    err instanceof UsageError ||
    err instanceof RefusedError ||
    err instanceof CommandError ||
    err instanceof ConfigError;
  const reason = oneLine(
    err instanceof UsageError
      ? `${err.message}; see posthorn --help`
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
