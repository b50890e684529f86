import type { Config } from '../config/schema.js';
import { buildDeps, type Runtime } from '../main.js';

/** The parsed options every command may look at (the union over all commands; each allows a subset). */
export interface CliOptions {
  json?: boolean;
  help?: boolean;
  roles?: string;
  processes?: string;
  account?: string;
  name?: string;
  role?: string;
  domain?: string;
  reason?: string;
  'rate-limit'?: string;
  'monthly-quota'?: string;
  ed25519?: string;
  'track-opens'?: string;
  'track-clicks'?: string;
  unsubscribe?: string;
  'dkim-rotate-days'?: string;
  unmatched?: boolean;
  subject?: string;
  html?: string;
  text?: string;
  version?: string;
  start?: string;
  end?: string;
  event?: string;
  format?: string;
  probe?: string;
  provider?: string;
  status?: string;
  limit?: string;
  until?: string;
}

/** What a command gets: its positional arguments (after the command words) and the options. */
export interface CommandContext {
  config: Readonly<Config>;
  args: string[];
  options: CliOptions;
}

/** A command's answer: one JSON document for `--json`, readable text otherwise. */
export interface CommandOutput {
  json: unknown;
  text: string;
  /** Set when the command ran but its outcome is a failure (e.g. `domain verify` of an unverified domain): the one-line reason. */
  failure?: string;
}

/** One CLI command: its words, positional argument names, allowed options and what it does. */
export interface Command {
  words: string;
  args: string[];
  /** Positional arguments that may follow `args` or be left out (`queue retry [ID]`). */
  optionalArgs?: string[];
  options: (keyof CliOptions)[];
  /** Returns the output to print, or the exit code of a command that printed its own (serve). */
  run(ctx: CommandContext, print: { json: boolean }): Promise<CommandOutput | number>;
}

/**
 * Opens the database (running migrations), runs `fn`, and closes it again, so a command works
 * while a server runs on the same database (the CLI is for use beside a running server).
 */
export async function withDeps<T>(config: Readonly<Config>, fn: (deps: Runtime) => Promise<T>): Promise<T> {
  const deps = await buildDeps(config, { metricsOnDemand: true });
  try {
    return await fn(deps);
  } finally {
    await deps.close();
  }
}

/** An ISO 8601 timestamp for an epoch-ms column, or null. */
export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(Number(ms)).toISOString();
}
