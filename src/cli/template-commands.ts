import { readFileSync } from 'node:fs';
import { findAccount } from '../accounts/accounts.js';
import { CLI_ACTOR } from '../core/actor.js';
import { RefusedError } from '../core/refused-error.js';
import { installExampleTemplates } from '../templates/install-examples.js';
import {
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  updateTemplate,
  type TemplateInput,
  type TemplateView,
} from '../templates/template-store.js';
import { CommandError } from './command-error.js';
import { withDeps, type CliOptions, type Command } from './command.js';

function needAccount(words: string, options: CliOptions): string {
  if (options.account === undefined) throw new CommandError(`${words} needs --account NAME`);
  return options.account;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A part's source from the file an option names (templates live in the customer's repository). */
function readPart(option: 'html' | 'text', file: string | undefined): string | null {
  if (file === undefined) return null;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new CommandError(
      `cannot read --${option} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new CommandError(`--${option} ${file} is not UTF-8 text`);
  }
}

/** The version's input from `--subject`, `--html FILE` and `--text FILE`, and which file each part came from. */
function templateInput(words: string, options: CliOptions): { input: TemplateInput; files: Record<string, string> } {
  if (options.subject === undefined) throw new CommandError(`${words} needs --subject S`);
  if (options.html === undefined && options.text === undefined)
    throw new CommandError(`${words} needs --html FILE, --text FILE or both`);
  const files: Record<string, string> = {};
  if (options.html !== undefined) files.html = options.html;
  if (options.text !== undefined) files.text = options.text;
  return {
    input: { subject: options.subject, html: readPart('html', options.html), text: readPart('text', options.text) },
    files,
  };
}

/** A refusal about a part read from a file names the file: `welcome.html: line 3, column 9: …`. */
function naming(files: Record<string, string>, err: unknown): unknown {
  if (!(err instanceof RefusedError) || err.field === undefined || files[err.field] === undefined) return err;
  const message = err.message.startsWith(`${err.field}: `)
    ? `${files[err.field]}: ${err.message.slice(err.field.length + 2)}`
    : `${files[err.field]}: ${err.message}`;
  return new RefusedError(err.reason, message, { field: err.field });
}

function describeVersion(t: TemplateView, verb: string): string {
  return [
    `${verb} template ${t.name} v${t.version} (${t.id})`,
    `  subject:   ${t.subject}`,
    `  parts:     ${[t.html !== null ? 'html' : null, t.text !== null ? 'text' : null].filter(Boolean).join(', ')}`,
    `  variables: ${t.variables.length === 0 ? 'none' : t.variables.join(', ')}`,
  ].join('\n');
}

/** `template create NAME --account A --subject S [--html FILE] [--text FILE]`: version 1. */
export const templateCreate: Command = {
  words: 'template create',
  args: ['NAME'],
  options: ['account', 'subject', 'html', 'text'],
  run: ({ config, args, options }) => {
    const account = needAccount('template create', options);
    const { input, files } = templateInput('template create', options);
    return withDeps(config, async (deps) => {
      const a = await findAccount(deps, account);
      const t = await createTemplate(deps, a.id, args[0]!, input, CLI_ACTOR).catch((err: unknown) => {
        throw naming(files, err);
      });
      return { json: t, text: describeVersion(t, 'created') };
    });
  },
};

/** `template update NAME --account A --subject S [--html FILE] [--text FILE]`: the next version, from the whole input. */
export const templateUpdate: Command = {
  words: 'template update',
  args: ['NAME'],
  options: ['account', 'subject', 'html', 'text'],
  run: ({ config, args, options }) => {
    const account = needAccount('template update', options);
    const { input, files } = templateInput('template update', options);
    return withDeps(config, async (deps) => {
      const a = await findAccount(deps, account);
      const t = await updateTemplate(deps, a.id, args[0]!, input, CLI_ACTOR).catch((err: unknown) => {
        throw naming(files, err);
      });
      return { json: t, text: describeVersion(t, 'updated') };
    });
  },
};

/** `template show NAME --account A [--version N]`: a version with its sources. */
export const templateShow: Command = {
  words: 'template show',
  args: ['NAME'],
  options: ['account', 'version'],
  run: ({ config, args, options }) => {
    const account = needAccount('template show', options);
    let version: number | undefined;
    if (options.version !== undefined) {
      version = Number(options.version);
      if (!/^[1-9]\d{0,8}$/.test(options.version)) throw new CommandError('--version must be a version number from 1');
    }
    return withDeps(config, async (deps) => {
      const a = await findAccount(deps, account);
      const t = await getTemplate(deps, a.id, args[0]!, version);
      const text = [
        `template ${t.name} v${t.version} of ${t.latest_version} (${t.id}), made ${t.created_at}`,
        `variables: ${t.variables.length === 0 ? 'none' : t.variables.join(', ')}`,
        `subject: ${t.subject}`,
        ...(t.html !== null ? ['', '--- html ---', t.html] : []),
        ...(t.text !== null ? ['', '--- text ---', t.text] : []),
      ].join('\n');
      return { json: t, text };
    });
  },
};

/** `template list --account A`. */
export const templateList: Command = {
  words: 'template list',
  args: [],
  options: ['account'],
  run: ({ config, options }) => {
    const account = needAccount('template list', options);
    return withDeps(config, async (deps) => {
      const a = await findAccount(deps, account);
      const templates = await listTemplates(deps, a.id);
      const text =
        templates.length === 0
          ? `no templates in account ${account}; posthorn template install-examples --account ${account} adds three`
          : templates
              .map((t) => `${t.name.padEnd(24)} v${String(t.version).padEnd(4)} updated ${t.updated_at}`)
              .join('\n');
      return { json: { templates }, text };
    });
  },
};

/** `template delete NAME --account A`. */
export const templateDelete: Command = {
  words: 'template delete',
  args: ['NAME'],
  options: ['account'],
  run: ({ config, args, options }) => {
    const account = needAccount('template delete', options);
    return withDeps(config, async (deps) => {
      const a = await findAccount(deps, account);
      await deleteTemplate(deps, a.id, args[0]!, CLI_ACTOR);
      return {
        json: { deleted: args[0] },
        text: `deleted template ${args[0]} and its versions; a send naming it is now refused`,
      };
    });
  },
};

/** `template install-examples --account A`: welcome, password-reset and receipt. */
export const templateInstallExamples: Command = {
  words: 'template install-examples',
  args: [],
  options: ['account'],
  run: ({ config, options }) => {
    const account = needAccount('template install-examples', options);
    return withDeps(config, async (deps) => {
      const a = await findAccount(deps, account);
      const result = await installExampleTemplates(deps, a.id, CLI_ACTOR);
      const lines = [
        ...result.installed.map((n) => `installed ${n}`),
        ...result.skipped.map((n) => `left ${n} as it is: the account already has a template of that name`),
      ];
      return { json: result, text: lines.join('\n') };
    });
  },
};
