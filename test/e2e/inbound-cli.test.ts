// `posthorn inbound list|show` as a real child process, on every test database: a report that
// carries no valid return-path token changes nothing, and this is where the operator sees it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { makeReturnPath, returnPathSecret } from '../../src/delivery/return-path.js';
import { receiveReport } from '../../src/feedback/receive-report.js';
import { buildArf, buildDsn, insertDelivered } from '../helpers/report-builders.js';
import { runCli, type CliResult } from '../helpers/run-cli.js';
import { seedDomain } from '../helpers/seed.js';
import { testDialects } from '../helpers/test-db.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

function ok(r: CliResult): void {
  assert.equal(r.code, 0, `exit ${r.code}; stderr: ${r.stderr}`);
}

for (const dialect of testDialects()) {
  describe(`posthorn inbound list and show (${dialect})`, () => {
    let t: TestDeps;
    const ids: Record<'matched' | 'quoted' | 'forged', string> = { matched: '', quoted: '', forged: '' };
    const cli = (...args: string[]): Promise<CliResult> =>
      runCli(args, { POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: 'mail.posthorn.test', ...t.testDb.env });

    before(async () => {
      t = await createTestDeps(dialect);
      const sender = await seedDomain(t, { domain: 'acme.test' });
      const secret = await returnPathSecret(t);
      const sent = await insertDelivered(t, sender, ['jane@example.org']);
      const path = makeReturnPath(secret, sent.recipients.get('jane@example.org')!, 'acme.test');
      const receive = async (raw: Buffer, rcptTo: string[]) => {
        t.clock.advance(1000);
        return (await receiveReport(t, { raw, mailFrom: '', rcptTo, remoteAddress: '192.0.2.7' })).reportId;
      };
      ids.matched = await receive(
        buildDsn({ to: path, recipients: [{ address: 'jane@example.org', action: 'failed', status: '5.1.1' }] }),
        [path],
      );
      ids.quoted = await receive(
        buildArf({ to: t.config.complaintAddress, rcptTo: 'jane@example.org', messageId: sent.messageId }),
        [t.config.complaintAddress],
      );
      const forged = path.replace(/-([0-9a-z]{12})@/, '-aaaaaaaaaaaa@');
      ids.forged = await receive(
        buildDsn({ to: forged, recipients: [{ address: 'jane@example.org', action: 'failed', status: '5.1.1' }] }),
        [forged],
      );
    });
    after(() => t.close());

    test('list: newest first with what each report did; --unmatched keeps only those that changed nothing', async () => {
      const all = await cli('inbound', 'list', '--json');
      ok(all);
      const reports = (
        all.json as {
          reports: { id: string; match: string; scope: string | null; why: string | null; remote_address: string }[];
        }
      ).reports;
      assert.deepEqual(
        reports.map((r) => [r.id, r.match]),
        [
          [ids.forged, 'forged'],
          [ids.quoted, 'unmatched'],
          [ids.matched, 'matched'],
        ],
      );
      assert.equal(reports[2]!.scope, 'recipient');
      assert.match(reports[1]!.why ?? '', /no return-path token \(it quotes the Message-ID of msg_/);
      const text = await cli('inbound', 'list', '--unmatched');
      ok(text);
      const lines = text.stdout.trim().split('\n');
      assert.equal(lines.length, 2);
      assert.match(
        lines[0]!,
        new RegExp(
          `^${ids.forged} .* 192\\.0\\.2\\.7 +dsn +forged, changed nothing: return-path token does not verify`,
        ),
      );
      assert.match(
        lines[1]!,
        new RegExp(`^${ids.quoted} .* complaint +unmatched, changed nothing: no return-path token`),
      );
    });

    test('show: envelope, outcome per recipient and the raw report; an unknown id is refused by name', async () => {
      const shown = await cli('inbound', 'show', ids.matched);
      ok(shown);
      assert.match(shown.stdout, /matched msg_\w+ by recipient token: failed jane@example\.org \(suppressed\)/);
      assert.match(shown.stdout, /jane@example\.org: failed, suppressed; permanent failure/);
      assert.match(shown.stdout, /Content-Type: message\/delivery-status/);
      const json = await cli('inbound', 'show', ids.quoted, '--json');
      ok(json);
      assert.equal(json.json.result.match, 'unmatched');
      assert.deepEqual(json.json.rcpt_to, [t.config.complaintAddress]);
      const missing = await cli('inbound', 'show', 'rpt_nope');
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /no inbound report rpt_nope; see posthorn inbound list/);
    });

    test('show: control characters an attacker put in a report reach the terminal as \\xNN, not as escape sequences', async () => {
      const raw = Buffer.from('From: x@evil.example\r\nTo: fbl@x\r\nSubject: \x1b[2Jcleared\r\n\r\nbody\x07\rover\r\n');
      const { reportId } = await receiveReport(t, {
        raw,
        mailFrom: '',
        rcptTo: [t.config.complaintAddress],
        remoteAddress: '192.0.2.8',
      });
      const shown = await cli('inbound', 'show', reportId);
      ok(shown);
      assert.ok(!shown.stdout.includes('\x1b') && !shown.stdout.includes('\x07'), 'no raw ESC or BEL');
      assert.match(shown.stdout, /Subject: \\x1b\[2Jcleared/);
      assert.match(shown.stdout, /body\\x07\\x0dover/);
      const json = await cli('inbound', 'show', reportId, '--json');
      assert.equal(json.json.raw, raw.toString('utf8'), 'the JSON keeps the exact text');
    });
  });
}
