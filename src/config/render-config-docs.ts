import { CONFIG_SCHEMA, type ConfigEntry } from './schema.js';

/** A table cell: Markdown tables end a cell at `|` and a row at a line break. */
function cell(text: string): string {
  return text
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

function row(e: ConfigEntry): string {
  return `| \`${e.env}\` | ${cell(e.description)} | ${cell(e.defaultText)} |`;
}

const EXAMPLE_FILE = {
  POSTHORN_HOSTNAME: 'mail.example.com',
  POSTHORN_DATABASE_URL: 'postgres://posthorn@db.internal:5432/posthorn',
  POSTHORN_SMTPS_PORT: 0,
  POSTHORN_MAX_QUEUE_LIFETIME: '48h',
  POSTHORN_WEBHOOK_ALLOW_PRIVATE: false,
};

/**
 * The Markdown of docs/config.md, generated from CONFIG_SCHEMA in schema order. Pure and
 * deterministic, so a test can compare it with the committed file.
 */
export function renderConfigDocs(): string {
  const lines = [
    '# Configuration',
    '',
    '<!-- Generated from src/config/schema.ts by `npm run docs:config`; do not edit by hand. -->',
    '',
    'Posthorn reads its configuration from environment variables and, optionally, a JSON config file.',
    'Every setting is optional. A variable set in the environment wins over the same key in the file,',
    'and the file wins over the default. Durations are a number and a unit, one of `ms`, `s`, `m`, `h`,',
    '`d` (`500ms`, `20s`, `1.5m`, `72h`, `30d`); lists of durations are comma-separated. Booleans are `1`',
    'or `0`. A bad value stops the server at start-up with a message that begins with the variable name.',
    '',
    '## The config file',
    '',
    'Set `POSTHORN_CONFIG_FILE` to the path of a JSON object whose keys are the variable names below.',
    'Values may be strings, numbers or booleans (`true`/`false` mean `1`/`0`); a key that is not one of',
    'these variables is refused. Giving a config file turns sandbox mode off unless `POSTHORN_SANDBOX`',
    'says otherwise.',
    '',
    '```json',
    JSON.stringify(EXAMPLE_FILE, null, 2),
    '```',
    '',
    '## Variables',
    '',
    '| variable | meaning | default |',
    '|---|---|---|',
    ...CONFIG_SCHEMA.map(row),
    '',
  ];
  return lines.join('\n');
}

const DEFAULT_OF = new Map(CONFIG_SCHEMA.map((e) => [e.env, cell(e.defaultText)]));

/** The default of each POSTHORN_* variable `text` names, once when they agree. */
function defaultsOf(text: string): string | undefined {
  const names = text.match(/POSTHORN_[A-Z0-9_]+/g) ?? [];
  const defaults = [...new Set(names.map((n) => DEFAULT_OF.get(n)).filter((d) => d !== undefined))];
  return defaults.length === 0 ? undefined : defaults.join(', ');
}

const TABLE_START = '<!-- defaults: generated from src/config/schema.ts by `npm run docs:config` -->';
const TABLE_END = '<!-- end of generated defaults -->';

/**
 * `markdown` (README.md, docs/webhooks.md) with every default it quotes taken from CONFIG_SCHEMA,
 * so the prose cannot drift from the code: the `default` column of each table between TABLE_START
 * and TABLE_END, and each inline "`POSTHORN_X` (default …)". Pure: the docs test compares it with
 * the committed files, and `npm run docs:config` writes it.
 */
export function syncDocDefaults(markdown: string): string {
  const tables = markdown.replace(
    new RegExp(`${escape(TABLE_START)}\\n([\\s\\S]*?)${escape(TABLE_END)}`, 'g'),
    (_all, table: string) => `${TABLE_START}\n${syncTable(table)}${TABLE_END}`,
  );
  return tables.replace(/`(POSTHORN_[A-Z0-9_]+)` \(default (?:[^()]|\([^()]*\))*\)/g, (all, name: string) => {
    const d = DEFAULT_OF.get(name);
    return d === undefined ? all : `\`${name}\` (default ${d})`;
  });
}

function syncTable(table: string): string {
  const lines = table.split('\n');
  const header = (lines[0] ?? '').split('|').map((c) => c.trim());
  const column = header.indexOf('default');
  if (column < 0) return table;
  return lines
    .map((line, i) => {
      if (i < 2 || !line.startsWith('|')) return line;
      const cells = line.split(/(?<!\\)\|/);
      const d = defaultsOf(cells[1] ?? '');
      if (d === undefined) return line;
      cells[column] = ` ${d} `;
      return cells.join('|');
    })
    .join('\n');
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
