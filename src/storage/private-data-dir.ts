import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { ConfigError } from '../config/load.js';

/** The data dir and every directory under it: owner only (it holds the database, TLS keys). */
export const PRIVATE_DIR_MODE = 0o700;
/** Every file Posthorn keeps in the data dir: the SQLite file and its -wal/-shm, TLS certificate and key. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Makes `dir` private whatever the umask: creates it 0700 when missing (`create`), and tightens
 * an existing one, taking group and other permissions off it and everything under it (so
 * Posthorn's directories become 0700 and its files 0600), logging each path it changed. Symbolic links are left alone (their target is the operator's). A path that cannot be
 * changed (another owner) is a ConfigError naming POSTHORN_DATA_DIR, rather than a server that
 * runs with its secrets readable by other local users.
 */
export function securePrivateDataDir(dir: string, log: Pick<Logger, 'warn'>, opts: { create: boolean }): void {
  let exists = true;
  try {
    lstatSync(dir);
  } catch {
    exists = false;
  }
  if (!exists) {
    if (!opts.create) return;
    try {
      mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    } catch (err) {
      throw new ConfigError(`POSTHORN_DATA_DIR: cannot create ${dir}: ${(err as Error).message}`);
    }
  }
  tighten(dir, true, log);
}

function tighten(path: string, isDir: boolean, log: Pick<Logger, 'warn'>): void {
  let mode: number;
  try {
    mode = lstatSync(path).mode & 0o777;
  } catch {
    return; // gone since readdir (a -shm removed by a closing connection): nothing to protect
  }
  // Only what others could use is taken away (the owner's bits stay): Posthorn's own files become
  // 0600, and anything else an operator keeps there stays usable by its owner (a script stays executable).
  if ((mode & 0o077) !== 0) {
    const next = mode & 0o700;
    try {
      chmodSync(path, next);
    } catch (err) {
      throw new ConfigError(
        `POSTHORN_DATA_DIR: cannot make ${path} private (mode ${octal(mode)}): ${(err as Error).message}; ` +
          'the data dir must belong to the user Posthorn runs as',
      );
    }
    log.warn({ path, from: octal(mode), to: octal(next) }, 'tightened permissions in the data dir: it holds secrets');
  }
  if (!isDir) return;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    if (entry.isDirectory()) tighten(join(path, entry.name), true, log);
    else if (entry.isFile()) tighten(join(path, entry.name), false, log);
  }
}

const octal = (mode: number): string => `0${mode.toString(8).padStart(3, '0')}`;
