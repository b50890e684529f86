// `posthorn suppression import|export` as real child processes: the same import and export as the
// API's, streamed from a file or stdin and to stdout, audited as the CLI.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCliDb, type CliDb } from '../helpers/cli-db.js';
import { runCli, type CliResult } from '../helpers/run-cli.js';
import { testDialects } from '../helpers/test-db.js';

function ok(r: CliResult): CliResult {
  assert.equal(r.code, 0, `exit ${r.code}; stderr: ${r.stderr}`);
  return r;
}

function refused(r: CliResult, pattern: RegExp): void {
  assert.equal(r.code, 1, `exit ${r.code}; stdout: ${r.stdout}`);
  assert.match(r.stderr, pattern);
}

for (const dialect of testDialects()) {
  describe(`posthorn suppression import and export (${dialect})`, () => {
    let db: CliDb;
    let dir: string;
    const cli = (...args: string[]) => db.cli(...args);

    before(async () => {
      db = await createCliDb(dialect);
      dir = mkdtempSync(join(tmpdir(), 'posthorn-supp-cli-'));
      ok(await cli('account', 'create', 'acme'));
      ok(await cli('account', 'create', 'copy'));
    });
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      await db.close();
    });

    test('import a CSV file: counts and invalid lines, as JSON and as text; again imports nothing', async () => {
      const file = join(dir, 'list.csv');
      writeFileSync(
        file,
        [
          'address,reason,created_at,domain,message_id',
          'ana@example.org,hard_bounce,2026-01-02T03:04:05.678Z,mail.example.com,msg_01JD3Z8Q4WJ6V2X5K7M9N0P1QR',
          'bob@example.org,,,,',
          'nobody,manual,,,',
          'BOB@example.org,complaint,,,',
          '',
        ].join('\n'),
      );
      const first = ok(await cli('suppression', 'import', file, '--account', 'acme', '--json'));
      assert.deepEqual(first.json, {
        imported: 2,
        already_suppressed: 1,
        invalid_count: 1,
        invalid: [
          {
            line: 4,
            value: 'nobody',
            message: 'address "nobody" is not an email address (expected local@domain.example)',
          },
        ],
      });
      const again = ok(await cli('suppression', 'import', file, '--account', 'acme'));
      assert.match(
        again.stdout,
        /^account acme: 0 imported, 3 already suppressed, 1 invalid\n {2}line 4: address "nobody"/,
      );

      const audit = await db.db
        .selectFrom('audit_log')
        .select(['actor', 'target'])
        .where('action', '=', 'suppression.import')
        .orderBy('at')
        .orderBy('id')
        .execute();
      assert.deepEqual(audit, [
        { actor: 'cli', target: '2 imported, 1 already suppressed, 1 invalid' },
        { actor: 'cli', target: '0 imported, 3 already suppressed, 1 invalid' },
      ]);
    });

    test('export to stdout, CSV or NDJSON; the CSV imported into another account (from stdin) exports the same', async () => {
      const csv = ok(await cli('suppression', 'export', '--account', 'acme'));
      assert.equal(
        csv.stdout,
        [
          'address,reason,created_at,domain,message_id',
          'ana@example.org,hard_bounce,2026-01-02T03:04:05.678Z,mail.example.com,msg_01JD3Z8Q4WJ6V2X5K7M9N0P1QR',
          `bob@example.org,manual,${/bob@example\.org,manual,([^,]+),/.exec(csv.stdout)?.[1]},,`,
          '',
        ].join('\n'),
      );
      const nd = ok(await cli('suppression', 'export', '--account', 'acme', '--format', 'ndjson'));
      assert.deepEqual(
        nd.stdout
          .trimEnd()
          .split('\n')
          .map((l) => (JSON.parse(l) as { address: string }).address),
        ['ana@example.org', 'bob@example.org'],
      );

      const piped = await runCli(
        ['suppression', 'import', '-', '--account', 'copy', '--json'],
        { ...db.env, POSTHORN_SANDBOX: '0', POSTHORN_HOSTNAME: 'mail.posthorn.test' },
        csv.stdout,
      );
      ok(piped);
      assert.equal(piped.json.imported, 2);
      assert.equal(ok(await cli('suppression', 'export', '--account', 'copy')).stdout, csv.stdout);

      const ndFile = join(dir, 'list.ndjson');
      writeFileSync(ndFile, nd.stdout);
      ok(await cli('account', 'create', 'copy2'));
      assert.equal(ok(await cli('suppression', 'import', ndFile, '--account', 'copy2', '--json')).json.imported, 2);
    });

    test('refusals: a missing file, a bad --format, a CSV without address, --json on export', async () => {
      refused(
        await cli('suppression', 'import', join(dir, 'missing.csv'), '--account', 'acme'),
        /cannot read .*missing\.csv: no such file/,
      );
      refused(
        await cli('suppression', 'export', '--account', 'acme', '--format', 'xml'),
        /--format must be csv or ndjson/,
      );
      const noAddress = join(dir, 'bad.csv');
      writeFileSync(noAddress, 'email\nana@example.org\n');
      refused(await cli('suppression', 'import', noAddress, '--account', 'acme'), /the CSV has no address column/);
      refused(await cli('suppression', 'export', '--account', 'acme', '--json'), /use --format ndjson/);
      refused(await cli('suppression', 'export', '--account', 'nobody'), /no account named "nobody"/);
    });
  });
}
