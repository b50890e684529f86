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
