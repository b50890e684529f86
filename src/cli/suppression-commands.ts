import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { CommandError } from './command-error.js';
import { CLI_ACTOR } from '../core/actor.js';
import { findAccount } from '../accounts/accounts.js';
import {
  addSuppression,
  listSuppressions,
  removeSuppression,
  type SuppressionEntry,
} from '../suppression/manage-suppressions.js';
import { importSuppressions, ImportInterrupted } from '../suppression/import-suppressions.js';
import { exportSuppressions } from '../suppression/export-suppressions.js';
import { withDeps, type CliOptions, type Command } from './command.js';

function needAccount(words: string, options: CliOptions): string {
  if (options.account === undefined) throw new CommandError(`${words} needs --account NAME`);
  return options.account;
}

function checkFormat(format: string | undefined): 'csv' | 'ndjson' | undefined {
  if (format === undefined || format === 'csv' || format === 'ndjson') return format;
  throw new CommandError(`--format must be csv or ndjson, not "${format}"`);
}

/** `suppression add ADDRESS --account NAME [--reason manual]`. */
export const suppressionAdd: Command = {
  words: 'suppression add',
  args: ['ADDRESS'],
  options: ['account', 'reason'],
  run: ({ config, args, options }) => {
    const account = needAccount('suppression add', options);
    return withDeps(config, async (deps) => {
      const { id } = await findAccount(deps, account);
      const { entry } = await addSuppression(
        deps,
        id,
        { address: args[0]!, reason: options.reason ?? 'manual' },
        CLI_ACTOR,
      );
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
      const { id } = await findAccount(deps, account);
      const out = await removeSuppression(deps, id, args[0]!, CLI_ACTOR);
      return { json: out, text: `removed ${out.address} from the suppression list of account ${account}` };
    });
  },
};

/** `suppression list --account NAME`, in address order (`suppression export` for a list too long to print). */
export const suppressionList: Command = {
  words: 'suppression list',
  args: [],
  options: ['account'],
  run: ({ config, options }) => {
    const account = needAccount('suppression list', options);
    return withDeps(config, async (deps) => {
      const { id } = await findAccount(deps, account);
      const list: SuppressionEntry[] = [];
      let cursor: string | undefined;
      do {
        const page = await listSuppressions(deps, id, { limit: 1000, ...(cursor !== undefined ? { cursor } : {}) });
        list.push(...page.suppressions);
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined);
      const text =
        list.length === 0
          ? `no suppressed addresses for account ${account}`
          : list
              .map(
                (e) =>
                  `${e.created_at}  ${e.reason.padEnd(12)}  ${e.address}${e.domain ? `  ${e.domain}` : ''}${e.message_id ? `  (${e.message_id})` : ''}`,
              )
              .join('\n');
      return { json: { suppressions: list }, text };
    });
  },
};

/**
 * `suppression import FILE|- --account NAME [--format csv|ndjson]`: the import of POST
 * /v1/suppressions/import, streamed from the file (or stdin). The format defaults to NDJSON for a
 * `.ndjson` or `.jsonl` file and CSV otherwise.
 */
export const suppressionImport: Command = {
  words: 'suppression import',
  args: ['FILE'],
  options: ['account', 'format'],
  run: ({ config, args, options }) => {
    const account = needAccount('suppression import', options);
    const file = args[0]!;
    const format = checkFormat(options.format) ?? (/\.(ndjson|jsonl)$/i.test(file) ? 'ndjson' : 'csv');
    return withDeps(config, async (deps) => {
      const { id } = await findAccount(deps, account);
      const body = file === '-' ? process.stdin : createReadStream(file);
      let result;
      try {
        result = await importSuppressions(deps, id, { format, body }, CLI_ACTOR);
      } catch (err) {
        if (err instanceof ImportInterrupted) {
          const cause = err.cause as NodeJS.ErrnoException;
          const why = cause.code === 'ENOENT' ? `cannot read ${file}: no such file` : cause.message;
          throw new CommandError(
            err.result.imported > 0
              ? `${why}; ${err.result.imported} rows were imported before the import stopped (run it again: rows already there count as already suppressed)`
              : why,
          );
        }
        throw err;
      }
      const lines = [
        `account ${account}: ${result.imported} imported, ${result.already_suppressed} already suppressed, ${result.invalid_count} invalid`,
        ...result.invalid.map((i) => `  line ${i.line}: ${i.message}`),
        ...(result.invalid_count > result.invalid.length
          ? [`  … and ${result.invalid_count - result.invalid.length} more invalid rows`]
          : []),
      ];
      return { json: result, text: lines.join('\n') };
    });
  },
};

/**
 * `suppression export --account NAME [--format csv|ndjson]`: the export of GET
 * /v1/suppressions/export, streamed to stdout (CSV by default).
 */
export const suppressionExport: Command = {
  words: 'suppression export',
  args: [],
  options: ['account', 'format'],
  run: ({ config, options }, print) => {
    const account = needAccount('suppression export', options);
    const format = checkFormat(options.format) ?? 'csv';
    if (print.json)
      throw new CommandError('suppression export writes the list itself on stdout; for JSON lines use --format ndjson');
    return withDeps(config, async (deps) => {
      const { id } = await findAccount(deps, account);
      await pipeline(exportSuppressions(deps, id, format), process.stdout, { end: false });
      return 0;
    });
  },
};
