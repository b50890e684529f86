// A 1,000,000-row CSV with invalid and duplicate rows, generated as it is sent, imported through
// POST /v1/suppressions/import over real HTTPS on every test database: every count exact, and the
// process's peak memory printed (the import streams, so it stays flat; bench:suppressions
// measures speed).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { testDialects } from '../helpers/test-db.js';
import { startApiHarness, type ApiHarness } from '../helpers/api-harness.js';
import { checkResponse } from '../helpers/openapi-check.js';
import { MAX_INVALID_SHOWN } from '../../src/suppression/import-suppressions.js';

const ROWS = Number(process.env.POSTHORN_TEST_IMPORT_ROWS ?? 1_000_000);

/** The file, generated in 64 KB pieces, and what importing it must give (counted as it is generated). */
function generatedCsv(rows: number) {
  const expected = { imported: 0, already_suppressed: 0, invalid_count: 0 };
  const reasons = ['hard_bounce', 'complaint', 'unsubscribed', 'manual'];
  function* pieces(): Generator<string> {
    let out = 'address,reason,created_at,domain\n';
    for (let i = 1; i <= rows; i++) {
      if (i % 97 === 0) {
        // Invalid: no domain part.
        out += `broken-${i}@,manual,,\n`;
        expected.invalid_count++;
      } else if (i % 89 === 0) {
        // The previous row's address again, in capitals: a duplicate unless that row was invalid.
        out += `USER${i - 1}@EXAMPLE${(i - 1) % 50}.COM,complaint,,\n`;
        if ((i - 1) % 97 === 0) expected.imported++;
        else expected.already_suppressed++;
      } else {
        out += `user${i}@example${i % 50}.com,${reasons[i % 4]},2026-0${1 + (i % 9)}-01T00:00:00.000Z,mail.example.com\n`;
        expected.imported++;
      }
      if (out.length > 64 * 1024) {
        yield out;
        out = '';
      }
    }
    yield out;
  }
  return { body: Readable.from(pieces()), expected };
}

for (const dialect of testDialects()) {
  describe(`suppression import of ${ROWS.toLocaleString('en')} generated rows over HTTPS (${dialect})`, () => {
    let api: ApiHarness;
    before(async () => {
      api = await startApiHarness(dialect, { env: { POSTHORN_HTTP_BODY_TIMEOUT: '10m' } });
    });
    after(() => api.close());

    test('every row is accounted for: imported, already suppressed, or listed as invalid by line', async () => {
      const token = await api.token('bulk', 'admin');
      const { body, expected } = generatedCsv(ROWS);
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 50);
      const started = Date.now();
      let res;
      let text;
      try {
        res = await api.fetch('/v1/suppressions/import', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
          body,
          duplex: 'half',
        });
        text = await res.text();
      } finally {
        clearInterval(sampler);
      }
      const seconds = (Date.now() - started) / 1000;
      console.log(
        `# ${dialect}: ${ROWS} rows imported over HTTPS in ${seconds.toFixed(1)} s; peak RSS of this process (client and server) ${Math.round(peak / 1048576)} MB, ${Math.round(before / 1048576)} MB before`,
      );
      assert.equal(res.status, 200, text);
      const result = JSON.parse(text) as {
        imported: number;
        already_suppressed: number;
        invalid_count: number;
        invalid: { line: number; value: string }[];
      };
      checkResponse('POST', '/v1/suppressions/import', 200, res.headers.get('content-type'), result);
      assert.deepEqual(
        {
          imported: result.imported,
          already_suppressed: result.already_suppressed,
          invalid_count: result.invalid_count,
        },
        expected,
      );
      assert.equal(result.invalid.length, Math.min(MAX_INVALID_SHOWN, expected.invalid_count));
      // Row i is on line i + 1 (the header is line 1).
      assert.deepEqual(result.invalid[0], {
        line: 98,
        value: 'broken-97@',
        message: 'address "broken-97@" is not an email address (expected local@domain.example)',
      });
      assert.equal(result.invalid[result.invalid.length - 1]!.line, 97 * result.invalid.length + 1);

      const account = await api.deps.db
        .selectFrom('accounts')
        .select('id')
        .where('name', '=', 'bulk')
        .executeTakeFirstOrThrow();
      const stored = await api.deps.db
        .selectFrom('suppressions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', account.id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(stored.n), expected.imported);
    });
  });
}
