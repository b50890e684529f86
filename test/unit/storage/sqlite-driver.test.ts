import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { SQLITE_DRIVER, SqliteDatabaseClass } from '../../../src/storage/sqlite-driver.js';

const major = Number(process.versions.node.split('.')[0]);

test('the SQLite driver is better-sqlite3 13 on Node 22 and later, 12 on Node 20 (src/storage/sqlite-driver.ts)', () => {
  const version = (createRequire(import.meta.url)(`${SQLITE_DRIVER}/package.json`) as { version: string }).version;
  assert.equal(
    Number(version.split('.')[0]),
    major >= 22 ? 13 : 12,
    `${SQLITE_DRIVER} ${version} on Node ${process.version}`,
  );
  const db = new SqliteDatabaseClass(':memory:');
  const row = db.prepare('SELECT json_extract(?, ?) AS v').get('{"a":[1,2]}', '$.a[1]') as { v: number };
  assert.equal(row.v, 2, 'JSON1 is built in');
  db.close();
});
