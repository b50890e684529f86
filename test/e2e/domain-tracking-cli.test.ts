// `posthorn domain set --track-opens/--track-clicks/--unsubscribe` and `domain show`
// (docs/tracking.md): the per-domain tracking defaults through the real CLI, on every test
// database.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCliDb, type CliDb } from '../helpers/cli-db.js';
import type { CliResult } from '../helpers/run-cli.js';
import { testDialects } from '../helpers/test-db.js';

for (const dialect of testDialects()) {
  describe(`domain tracking settings CLI (${dialect})`, () => {
    let db: CliDb;
    const cli = (...args: string[]): Promise<CliResult> => db.cli(...args);
    before(async () => {
      db = await createCliDb(dialect);
    });
    after(() => db.close());

    test('set and show the three defaults; bad values and no option are refused', async () => {
      assert.equal((await cli('account', 'create', 'acme')).code, 0);
      assert.equal((await cli('domain', 'add', 'acme.test', '--account', 'acme')).code, 0);
      const shown = await cli('domain', 'show', 'acme.test', '--json');
      assert.equal(shown.code, 0, shown.stderr);
      assert.deepEqual(shown.json.tracking, { track_opens: false, track_clicks: false, unsubscribe: false });

      const set = await cli('domain', 'set', 'acme.test', '--track-opens', 'on', '--unsubscribe', 'ON', '--json');
      assert.equal(set.code, 0, set.stderr);
      assert.deepEqual(set.json.tracking, { track_opens: true, track_clicks: false, unsubscribe: true });
      const row = await db.db
        .selectFrom('domains')
        .select(['track_opens', 'track_clicks', 'unsubscribe'])
        .where('name', '=', 'acme.test')
        .executeTakeFirstOrThrow();
      assert.deepEqual([row.track_opens, row.track_clicks, row.unsubscribe].map(Number), [1, 0, 1]);

      const text = await cli('domain', 'set', 'acme.test', '--track-clicks', 'on', '--track-opens', 'off');
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /acme\.test: opens off, clicks on, unsubscribe on/);
      assert.match(
        (await cli('domain', 'show', 'acme.test')).stdout,
        /tracking:\s+opens off, clicks on, unsubscribe on/,
      );

      const bad = await cli('domain', 'set', 'acme.test', '--track-clicks', 'yes');
      assert.notEqual(bad.code, 0);
      assert.match(bad.stderr, /--track-clicks takes on or off, got "yes"/);
      const none = await cli('domain', 'set', 'acme.test');
      assert.notEqual(none.code, 0);
      assert.match(none.stderr, /domain set needs --ed25519 on\|off, --track-opens on\|off/);
    });
  });
}
