// The data dir holds the SQLite file (DKIM keys, webhook secrets, HMAC keys) and the TLS key: it
// must be 0700 and every file in it 0600 whatever the umask, and a looser one left by an older
// release is tightened at start with a log line. The children here inherit this process's umask 000.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/run-cli.js';
import { startServer } from '../helpers/spawn-server.js';

/** Every path under `dir` (itself included) with its permission bits, as `path: 0ooo`. */
function modes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (path: string, name: string): void => {
    const st = lstatSync(path);
    out[name] = `0${(st.mode & 0o777).toString(8)}`;
    if (st.isDirectory()) for (const e of readdirSync(path)) walk(join(path, e), `${name}/${e}`);
  };
  walk(dir, '.');
  return out;
}

describe('data dir permissions under umask 000', () => {
  const root = mkdtempSync(join(tmpdir(), 'posthorn-perms-'));
  const dataDir = join(root, 'data');
  let previous = 0;
  before(() => {
    previous = process.umask(0o000);
  });
  after(() => {
    process.umask(previous);
    rmSync(root, { recursive: true, force: true });
  });

  test('a fresh sandbox start makes the data dir 0700 and every file in it 0600', async () => {
    const server = await startServer({ POSTHORN_DATA_DIR: dataDir });
    try {
      // While it runs: the WAL and shared-memory files exist beside the database.
      const seen = modes(dataDir);
      for (const f of [
        './posthorn.sqlite',
        './posthorn.sqlite-wal',
        './posthorn.sqlite-shm',
        './tls/cert.pem',
        './tls/key.pem',
      ]) {
        assert.ok(f in seen, `${f} exists (${JSON.stringify(seen)})`);
      }
      for (const [path, mode] of Object.entries(seen)) {
        const isDir = lstatSync(join(dataDir, path)).isDirectory();
        assert.equal(mode, isDir ? '0700' : '0600', `${path} is ${mode}`);
      }
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  test('looser modes left in the data dir are tightened at the next start, each with a log line', async () => {
    assert.ok(existsSync(join(dataDir, 'posthorn.sqlite')), 'the previous test made the data dir');
    chmodSync(dataDir, 0o777);
    chmodSync(join(dataDir, 'tls'), 0o755);
    chmodSync(join(dataDir, 'posthorn.sqlite'), 0o644);
    chmodSync(join(dataDir, 'tls', 'key.pem'), 0o666);
    // Something of the operator's: others lose access, the owner keeps what it had.
    writeFileSync(join(dataDir, 'backup.sh'), '#!/bin/sh\n', { mode: 0o755 });
    chmodSync(join(dataDir, 'backup.sh'), 0o755);
    const r = await runCli(['sandbox', 'list', '--json'], { POSTHORN_DATA_DIR: dataDir });
    assert.equal(r.code, 0, r.stderr);
    const after = modes(dataDir);
    assert.equal(after['./backup.sh'], '0700');
    delete after['./backup.sh'];
    for (const [path, mode] of Object.entries(after)) {
      const isDir = lstatSync(join(dataDir, path)).isDirectory();
      assert.equal(mode, isDir ? '0700' : '0600', `${path} is ${mode}`);
    }
    const lines = r.stderr
      .split('\n')
      .filter((l) => l.includes('tightened permissions'))
      .map((l) => JSON.parse(l) as { path: string; from: string; to: string });
    const byPath = Object.fromEntries(lines.map((l) => [l.path, `${l.from}->${l.to}`]));
    assert.deepEqual(byPath, {
      [dataDir]: '0777->0700',
      [join(dataDir, 'tls')]: '0755->0700',
      [join(dataDir, 'posthorn.sqlite')]: '0644->0600',
      [join(dataDir, 'tls', 'key.pem')]: '0666->0600',
      [join(dataDir, 'backup.sh')]: '0755->0700',
    });
  });
});
