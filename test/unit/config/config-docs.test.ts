import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/load.js';
import { renderConfigDocs, syncDocDefaults } from '../../../src/config/render-config-docs.js';
import { CONFIG_SCHEMA } from '../../../src/config/schema.js';

/** The variables operators have been promised from the start; the schema may add more, never drop one. */
const OPERATIONS_VARIABLES = [
  'POSTHORN_DATA_DIR',
  'POSTHORN_DATABASE_URL',
  'POSTHORN_LISTEN_HOST',
  'POSTHORN_HTTP_PORT',
  'POSTHORN_SMTP_PORT',
  'POSTHORN_SMTPS_PORT',
  'POSTHORN_INBOUND_PORT',
  'POSTHORN_TLS_CERT',
  'POSTHORN_TLS_KEY',
  'POSTHORN_HOSTNAME',
  'POSTHORN_PUBLIC_URL',
  'POSTHORN_SPF_INCLUDE_HOST',
  'POSTHORN_BOUNCE_HOST',
  'POSTHORN_DNS_SERVERS',
  'POSTHORN_MX_PORT',
  'POSTHORN_RELAY_HOST',
  'POSTHORN_RETRY_SCHEDULE',
  'POSTHORN_MAX_QUEUE_LIFETIME',
  'POSTHORN_WEBHOOK_ALLOW_PRIVATE',
  'POSTHORN_SANDBOX',
];

const docsPath = new URL('../../../docs/config.md', import.meta.url);

test('docs/config.md is what renderConfigDocs() generates', () => {
  const committed = readFileSync(docsPath, 'utf8');
  assert.ok(
    committed === renderConfigDocs(),
    'docs/config.md is out of date with src/config/schema.ts: run `npm run docs:config`',
  );
});

for (const doc of ['README.md', 'docs/webhooks.md']) {
  test(`the defaults ${doc} quotes are the schema's`, () => {
    const committed = readFileSync(new URL(`../../../${doc}`, import.meta.url), 'utf8');
    assert.ok(
      committed === syncDocDefaults(committed),
      `${doc} quotes a default that is not src/config/schema.ts's: run \`npm run docs:config\``,
    );
  });
}

test('syncDocDefaults() rewrites a stale default, in a marked table and inline', () => {
  const stale = [
    '<!-- defaults: generated from src/config/schema.ts by `npm run docs:config` -->',
    '| variable | default | meaning |',
    '|---|---|---|',
    '| `POSTHORN_WEBHOOK_CONCURRENCY` | `128` | POSTs in flight |',
    '<!-- end of generated defaults -->',
    'Up to `POSTHORN_WEBHOOK_CONCURRENCY` (default `128`) at once.',
  ].join('\n');
  const synced = syncDocDefaults(stale);
  assert.match(synced, /\| `POSTHORN_WEBHOOK_CONCURRENCY` \| `512` \| POSTs in flight \|/);
  assert.match(synced, /`POSTHORN_WEBHOOK_CONCURRENCY` \(default `512`\) at once/);
});

test('renderConfigDocs() is deterministic', () => {
  assert.equal(renderConfigDocs(), renderConfigDocs());
});

test('every originally documented variable is still in the schema', () => {
  const names = new Set(CONFIG_SCHEMA.map((e) => e.env));
  const missing = OPERATIONS_VARIABLES.filter((v) => !names.has(v));
  assert.deepEqual(missing, []);
});

test('schema entries have unique variables and keys, a description and a default text', () => {
  const envs = CONFIG_SCHEMA.map((e) => e.env);
  const keys = CONFIG_SCHEMA.map((e) => e.key);
  assert.equal(new Set(envs).size, envs.length);
  assert.equal(new Set(keys).size, keys.length);
  for (const e of CONFIG_SCHEMA) {
    assert.match(e.env, /^POSTHORN_[A-Z0-9_]+$/, e.env);
    assert.ok(e.description.trim().length > 0, `${e.env} has no description`);
    assert.ok(e.defaultText.trim().length > 0, `${e.env} has no default text`);
  }
});

test('the table has one row per schema entry, in schema order, with three cells', () => {
  const docs = renderConfigDocs();
  const lines = docs.split('\n');
  const header = lines.indexOf('| variable | meaning | default |');
  assert.ok(header >= 0, 'table header missing');
  assert.equal(lines[header + 1], '|---|---|---|');
  const rows = lines.slice(header + 2).filter((l) => l.startsWith('|'));
  assert.equal(rows.length, CONFIG_SCHEMA.length);
  rows.forEach((row, i) => {
    const entry = CONFIG_SCHEMA[i];
    assert.ok(row.startsWith(`| \`${entry.env}\` | `), `row ${i} should be ${entry.env}: ${row}`);
    // Unescaped pipes delimit cells: exactly four of them.
    assert.equal(row.replace(/\\\|/g, '').split('|').length - 1, 4, row);
    assert.ok(row.includes(entry.description), `${entry.env}: description missing`);
  });
});

test('the prose names the precedence, the duration units and the boolean spelling', () => {
  const docs = renderConfigDocs();
  assert.match(docs, /^# /);
  assert.match(docs, /environment wins over/);
  for (const unit of ['ms', 's', 'm', 'h', 'd']) assert.ok(docs.includes(`\`${unit}\``), unit);
  assert.match(docs, /Booleans are `1`\s+or `0`/);
  assert.match(docs, /POSTHORN_CONFIG_FILE/);
});

test('the config file example in the docs loads', () => {
  const block = /```json\n([\s\S]*?)\n```/.exec(renderConfigDocs());
  assert.ok(block, 'no JSON example');
  const dir = mkdtempSync(join(tmpdir(), 'posthorn-config-docs-'));
  try {
    const file = join(dir, 'posthorn.json');
    writeFileSync(file, block[1]);
    const config = loadConfig({ POSTHORN_CONFIG_FILE: file });
    assert.equal(config.sandbox, false);
    assert.equal(config.hostname, 'mail.example.com');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
