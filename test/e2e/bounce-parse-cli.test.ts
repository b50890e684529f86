import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { runCli, REPO_ROOT } from '../helpers/run-cli.js';

const FIXTURES = join(REPO_ROOT, 'test/fixtures/bounces');

describe('posthorn bounce parse', () => {
  // A data dir that does not exist: the command must not open (and so create) a database.
  const dataDir = join(tmpdir(), `posthorn-no-db-${randomBytes(6).toString('hex')}`);
  const env = { POSTHORN_DATA_DIR: dataDir };

  test('--json on a fixture file: kind, recipients with action, status, class, diagnostic; no database opened', async () => {
    const r = await runCli(['bounce', 'parse', join(FIXTURES, 'postfix-user-unknown.eml'), '--json'], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.json.kind, 'dsn');
    assert.equal(r.json.recipients.length, 1);
    const [rcpt] = r.json.recipients;
    assert.deepEqual(Object.keys(rcpt).slice(0, 6), [
      'address',
      'action',
      'status',
      'class',
      'bounce_reason',
      'diagnostic',
    ]);
    assert.deepEqual(
      [rcpt.address, rcpt.action, rcpt.status, rcpt.class],
      ['nobody@example.org', 'failed', '5.1.1', 'hard'],
    );
    assert.match(rcpt.diagnostic, /User unknown/);
    assert.deepEqual(rcpt.would, { event: 'failed', suppress: true, why: rcpt.would.why });
    assert.equal(r.json.original_message_id, '<01JD0000000000000000000000@example.com>');
    assert.match(r.json.return_path, /^b-rcp/);
    assert.equal(existsSync(dataDir), false, 'no data dir, no database');
  });

  test('stdin (-), text mode: a delayed DSN says it would record nothing and never suppress', async () => {
    const r = await runCli(
      ['bounce', 'parse', '-'],
      env,
      readFileSync(join(FIXTURES, 'rfc3464-c3-delayed.eml'), 'latin1'),
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^stdin: delivery status notification \(RFC 3464\)/);
    assert.match(r.stdout, /action delayed, status 4\.\d\.\d+, class soft/);
    assert.match(
      r.stdout,
      /Posthorn would record: nothing: delayed: the remote server is still trying; no event, never suppressed/,
    );
    assert.doesNotMatch(r.stdout, /SUPPRESSED/);
    assert.match(r.stdout, /Nothing was changed/);
  });

  test('a complaint and a policy block: which is suppressed and why', async () => {
    const arf = await runCli(['bounce', 'parse', join(FIXTURES, 'yahoo-aol-arf.eml'), '--json'], env);
    assert.equal(arf.json.kind, 'complaint');
    assert.equal(arf.json.feedback_type, 'abuse');
    assert.deepEqual(
      arf.json.recipients.map((x: { class: string; would: { event: string; suppress: boolean } }) => [
        x.class,
        x.would.event,
        x.would.suppress,
      ]),
      [['complaint', 'complained', true]],
    );
    const block = await runCli(['bounce', 'parse', join(FIXTURES, 'postfix-spamhaus-block.eml')], env);
    assert.equal(block.code, 0, block.stderr);
    assert.match(block.stdout, /class block/);
    assert.match(block.stdout, /`failed` event \(bounce_class block\), not suppressed/);
  });

  test('a missing file is a one-line error and exit 1; --json gives {"error"}', async () => {
    const r = await runCli(['bounce', 'parse', '/nonexistent/report.eml'], env);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'posthorn: cannot read /nonexistent/report.eml: no such file\n');
    assert.equal(r.stdout, '');
    const j = await runCli(['bounce', 'parse', '/nonexistent/report.eml', '--json'], env);
    assert.deepEqual(j.json, { error: 'cannot read /nonexistent/report.eml: no such file' });
    const usage = await runCli(['bounce', 'parse'], env);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /bounce parse needs FILE/);
  });
});
