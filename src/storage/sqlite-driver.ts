import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The package that opens SQLite files, chosen by the running Node (docs/architecture.md, "SQLite
 * driver"). better-sqlite3 13 is built on Node-API and ships prebuilt binaries, but it needs Node 22
 * or later (on Node 20 it crashes the process). better-sqlite3 12 subclasses Node's own
 * `node::ObjectWrap`, whose Node 24 header registers an environment cleanup hook per object and
 * removes it in the destructor: a statement collected after its thread's environment is gone
 * (a worker thread ending, a process exiting, or a GC at the wrong moment) aborts the process. So
 * Node 22 and later load 13 (installed under the alias `better-sqlite3-napi`) and Node 20 loads 12.
 * Both expose the same API, typed here by 12's declarations.
 */
export const SQLITE_DRIVER: string =
  Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3-napi' : 'better-sqlite3';

const require = createRequire(import.meta.url);

/** The Database class of the driver above. */
export const SqliteDatabaseClass: typeof BetterSqlite3 = require(SQLITE_DRIVER) as typeof BetterSqlite3;

/** The driver's entry file, for a worker thread that opens its own connection. */
export const SQLITE_DRIVER_PATH: string = require.resolve(SQLITE_DRIVER);
